// Forwards to <ptxw/algorithms/temp_storage.h> for one release.
#pragma once
#if !defined(__CUDA_ARCH__) // the host pass only: once per translation unit, not again in each device pass
#  pragma message("ptxw: ptxw/device/temp_storage.h moved to ptxw/algorithms/temp_storage.h; this forwarding header is removed in the next release")
#endif
#include <ptxw/algorithms/temp_storage.h>
