// Forwards to <ptxw/tasks/host/pool_host.h> for one release.
#pragma once
#if !defined(__CUDA_ARCH__) // the host pass only: once per translation unit, not again in each device pass
#  pragma message("ptxw: ptxw/host/tasks.h moved to ptxw/tasks/host/pool_host.h; this forwarding header is removed in the next release")
#endif
#include <ptxw/tasks/host/pool_host.h>
