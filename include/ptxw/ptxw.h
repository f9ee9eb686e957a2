// ptxw: typed wrappers for Hopper/Blackwell mbarriers, async-proxy fences and cluster launch
// control, built on CCCL's cuda::ptx, and the inter-block primitives built on them. Rules:
// ptxw/rules.h, docs/rules.md. This is the device side, every family; the host side is ptxw/host.h
// and the CUB-style algorithms ptxw/device.h.
#pragma once

#include <ptxw/checked.h>
#include <ptxw/clc.h>
#include <ptxw/elect.h>
#include <ptxw/fence.h>
#include <ptxw/inter_block.h>
#include <ptxw/mbarrier.h>
#include <ptxw/rules.h>
#include <ptxw/tasks.h>
#include <ptxw/target.h>
