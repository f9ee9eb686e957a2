// Forwards to <ptxw/algorithms/for_each_tiles.h> for one release.
#pragma once
#if !defined(__CUDA_ARCH__) // the host pass only: once per translation unit, not again in each device pass
#  pragma message("ptxw: ptxw/device/for_each_tiles.h moved to ptxw/algorithms/for_each_tiles.h; this forwarding header is removed in the next release")
#endif
#include <ptxw/algorithms/for_each_tiles.h>
