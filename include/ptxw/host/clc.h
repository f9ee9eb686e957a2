// Forwards to <ptxw/clc/host/scheduler.h> for one release.
#pragma once
#if !defined(__CUDA_ARCH__) // the host pass only: once per translation unit, not again in each device pass
#  pragma message("ptxw: ptxw/host/clc.h moved to ptxw/clc/host/scheduler.h; this forwarding header is removed in the next release")
#endif
#include <ptxw/clc/host/scheduler.h>
