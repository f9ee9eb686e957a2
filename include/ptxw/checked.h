// Forwards to <ptxw/core/checked.h> for one release.
#pragma once
#if !defined(__CUDA_ARCH__) // the host pass only: once per translation unit, not again in each device pass
#  pragma message("ptxw: ptxw/checked.h moved to ptxw/core/checked.h; this forwarding header is removed in the next release")
#endif
#include <ptxw/core/checked.h>
