// Forwards to <ptxw/core/elect.h> for one release.
#pragma once
#if !defined(__CUDA_ARCH__) // the host pass only: once per translation unit, not again in each device pass
#  pragma message("ptxw: ptxw/elect.h moved to ptxw/core/elect.h; this forwarding header is removed in the next release")
#endif
#include <ptxw/core/elect.h>
