// Forwards to <ptxw/clc/backend_interface.h> for one release.
#pragma once
#if !defined(__CUDA_ARCH__) // the host pass only: once per translation unit, not again in each device pass
#  pragma message("ptxw: ptxw/clc/backend.h moved to ptxw/clc/backend_interface.h; this forwarding header is removed in the next release")
#endif
#include <ptxw/clc/backend_interface.h>
