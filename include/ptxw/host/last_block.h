// Forwards to <ptxw/inter_block/host/last_block.h> for one release.
#pragma once
#if !defined(__CUDA_ARCH__) // the host pass only: once per translation unit, not again in each device pass
#  pragma message("ptxw: ptxw/host/last_block.h moved to ptxw/inter_block/host/last_block.h; this forwarding header is removed in the next release")
#endif
#include <ptxw/inter_block/host/last_block.h>
