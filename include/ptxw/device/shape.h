// Forwards to <ptxw/algorithms/shape.h> for one release.
#pragma once
#if !defined(__CUDA_ARCH__) // the host pass only: once per translation unit, not again in each device pass
#  pragma message("ptxw: ptxw/device/shape.h moved to ptxw/algorithms/shape.h; this forwarding header is removed in the next release")
#endif
#include <ptxw/algorithms/shape.h>
