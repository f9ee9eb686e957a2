// Forwards to <ptxw/tasks/host/round_graph.h> for one release.
#pragma once
#if !defined(__CUDA_ARCH__) // the host pass only: once per translation unit, not again in each device pass
#  pragma message("ptxw: ptxw/host/round_graph.h moved to ptxw/tasks/host/round_graph.h; this forwarding header is removed in the next release")
#endif
#include <ptxw/tasks/host/round_graph.h>
