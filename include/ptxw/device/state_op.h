// Forwards to <ptxw/algorithms/state_op.h> for one release.
#pragma once
#if !defined(__CUDA_ARCH__) // the host pass only: once per translation unit, not again in each device pass
#  pragma message("ptxw: ptxw/device/state_op.h moved to ptxw/algorithms/state_op.h; this forwarding header is removed in the next release")
#endif
#include <ptxw/algorithms/state_op.h>
