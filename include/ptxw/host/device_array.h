// Forwards to <ptxw/core/device_array.h> for one release.
#pragma once
#if !defined(__CUDA_ARCH__) // the host pass only: once per translation unit, not again in each device pass
#  pragma message("ptxw: ptxw/host/device_array.h moved to ptxw/core/device_array.h; this forwarding header is removed in the next release")
#endif
#include <ptxw/core/device_array.h>
