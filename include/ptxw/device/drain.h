// Forwards to <ptxw/algorithms/drain.h> for one release.
#pragma once
#if !defined(__CUDA_ARCH__) // the host pass only: once per translation unit, not again in each device pass
#  pragma message("ptxw: ptxw/device/drain.h moved to ptxw/algorithms/drain.h; this forwarding header is removed in the next release")
#endif
#include <ptxw/algorithms/drain.h>
