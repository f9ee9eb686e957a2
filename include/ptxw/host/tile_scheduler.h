// Forwards to <ptxw/clc/host/tile_scheduler.h> for one release.
#pragma once
#if !defined(__CUDA_ARCH__) // the host pass only: once per translation unit, not again in each device pass
#  pragma message("ptxw: ptxw/host/tile_scheduler.h moved to ptxw/clc/host/tile_scheduler.h; this forwarding header is removed in the next release")
#endif
#include <ptxw/clc/host/tile_scheduler.h>
