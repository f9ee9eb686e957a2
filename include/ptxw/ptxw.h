// ptxw: typed wrappers for Hopper/Blackwell mbarriers, async-proxy fences and cluster launch
// control, built on CCCL's cuda::ptx, and the inter-block primitives built on them. Rules:
// ptxw/core/rules.h, docs/rules.md. This is the device side, every family (and core/: the rules,
// targets, checked mode, elect); the host halves are ptxw/host.h, the CUB-style algorithms
// ptxw/algorithms.h.
#pragma once

#include <ptxw/clc.h>
#include <ptxw/core/checked.h>
#include <ptxw/core/elect.h>
#include <ptxw/core/rules.h>
#include <ptxw/core/target.h>
#include <ptxw/fence.h>
#include <ptxw/inter_block.h>
#include <ptxw/mbarrier.h>
#include <ptxw/tasks.h>
