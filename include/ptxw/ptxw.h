// ptxw: typed wrappers for Hopper/Blackwell mbarriers, async-proxy fences and cluster launch
// control, built on CCCL's cuda::ptx. Rules R1..R12: docs/rules.md.
#pragma once

#include <ptxw/fence.h>
#include <ptxw/mbarrier.h>
#include <ptxw/phase.h>
#include <ptxw/target.h>
#include <ptxw/units.h>
