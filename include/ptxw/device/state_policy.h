// Forwards to <ptxw/algorithms/state_policy.h> for one release.
#pragma once
#if !defined(__CUDA_ARCH__) // the host pass only: once per translation unit, not again in each device pass
#  pragma message("ptxw: ptxw/device/state_policy.h moved to ptxw/algorithms/state_policy.h; this forwarding header is removed in the next release")
#endif
#include <ptxw/algorithms/state_policy.h>
