// Forwards to <ptxw/algorithms/env.h> for one release.
#pragma once
#if !defined(__CUDA_ARCH__) // the host pass only: once per translation unit, not again in each device pass
#  pragma message("ptxw: ptxw/device/env.h moved to ptxw/algorithms/env.h; this forwarding header is removed in the next release")
#endif
#include <ptxw/algorithms/env.h>
