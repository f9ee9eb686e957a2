// Forwards to <ptxw/clc/backend_table.h> for one release.
#pragma once
#if !defined(__CUDA_ARCH__) // the host pass only: once per translation unit, not again in each device pass
#  pragma message("ptxw: ptxw/clc/backends.h moved to ptxw/clc/backend_table.h; this forwarding header is removed in the next release")
#endif
#include <ptxw/clc/backend_table.h>
