// ptxw/host.h: the host side -- what owns the device memory of the device-side types and prepares
// their launches: cluster launch control's scheduler (host/clc.h), checked mode's diagnostics
// (host/checked.h), last-block tickets (host/last_block.h), task pools (host/tasks.h) and work
// queues (host/work_queue.h).
// These throw std::runtime_error("ptxw: ...") on CUDA errors and bad arguments, and some
// synchronise a stream in their constructors (each header says which). The device-scope
// algorithms (ptxw/device.h) include none of them: they return a cudaError_t instead.
#pragma once

#include <ptxw/host/checked.h>
#include <ptxw/host/clc.h>
#include <ptxw/host/last_block.h>
#include <ptxw/host/tasks.h>
#include <ptxw/host/tile_scheduler.h>
#include <ptxw/host/work_queue.h>
