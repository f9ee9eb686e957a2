// Forwards to <ptxw/core/checked_host.h> for one release.
#pragma once
#if !defined(__CUDA_ARCH__) // the host pass only: once per translation unit, not again in each device pass
#  pragma message("ptxw: ptxw/host/checked.h moved to ptxw/core/checked_host.h; this forwarding header is removed in the next release")
#endif
#include <ptxw/core/checked_host.h>
