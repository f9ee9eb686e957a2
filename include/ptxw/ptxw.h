// ptxw: typed wrappers for Hopper/Blackwell mbarriers, async-proxy fences and cluster launch
// control, built on CCCL's cuda::ptx. Rules R1..R14: ptxw/rules.h, docs/rules.md. Host-side helpers live in
// ptxw/checked_host.h (diagnostics) and ptxw/clc_host.h (the emulation's state).
#pragma once

#include <ptxw/checked.h>
#include <ptxw/clc.h>
#include <ptxw/elect.h>
#include <ptxw/fence.h>
#include <ptxw/mbarrier.h>
#include <ptxw/phase.h>
#include <ptxw/rules.h>
#include <ptxw/target.h>
#include <ptxw/units.h>
#include <ptxw/work_stealing.h>
