// ptxw/host.h: every family's host half -- what owns the device memory of the device-side types and
// prepares their launches: cluster launch control's scheduler and the tile scheduler (clc/host/),
// checked mode's diagnostics (core/checked_host.h), last-block tickets and work queues
// (inter_block/host/) and task pools (tasks/host/).
// These throw std::runtime_error("ptxw: ...") on CUDA errors and bad arguments, and some
// synchronise a stream in their constructors (each header says which). The device-scope
// algorithms (ptxw/algorithms.h) include none of them: they return a cudaError_t instead.
#pragma once

#include <ptxw/clc/host/scheduler.h>
#include <ptxw/clc/host/tile_scheduler.h>
#include <ptxw/core/checked_host.h>
#include <ptxw/inter_block/host/last_block.h>
#include <ptxw/inter_block/host/work_queue.h>
#include <ptxw/tasks/host/pool_host.h>
