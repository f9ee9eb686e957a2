// Forwards to <ptxw/inter_block/host/work_queue.h> for one release.
#pragma once
#if !defined(__CUDA_ARCH__) // the host pass only: once per translation unit, not again in each device pass
#  pragma message("ptxw: ptxw/host/work_queue.h moved to ptxw/inter_block/host/work_queue.h; this forwarding header is removed in the next release")
#endif
#include <ptxw/inter_block/host/work_queue.h>
