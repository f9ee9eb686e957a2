// ptxw: typed wrappers for Hopper/Blackwell mbarriers, async-proxy fences and cluster launch
// control, built on CCCL's cuda::ptx; the last-block guard and the block work queue. Rules R1..R19:
// ptxw/rules.h, docs/rules.md. Host-side helpers live in ptxw/checked_host.h (diagnostics),
// ptxw/clc_host.h (the emulation's state), ptxw/last_block_host.h and ptxw/work_queue_host.h
// (tickets' and queues' memory).
#pragma once

#include <ptxw/checked.h>
#include <ptxw/clc.h>
#include <ptxw/elect.h>
#include <ptxw/fence.h>
#include <ptxw/last_block.h>
#include <ptxw/mbarrier.h>
#include <ptxw/phase.h>
#include <ptxw/rules.h>
#include <ptxw/target.h>
#include <ptxw/units.h>
#include <ptxw/work_queue.h>
#include <ptxw/work_stealing.h>
