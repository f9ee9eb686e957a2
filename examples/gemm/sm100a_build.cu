// The GEMM kernel built for sm_100a: its scheduler and pipeline paths only. The dynamic policy's
// default backend is the hardware's cluster launch control there (clusterlaunchcontrol.try_cancel,
// its multicast form for 2 x 1 clusters); the TMA copies, the pipeline's barriers and the epilogue
// are the sm_90a kernel's. The MMA is not: CuTe's SM90 wgmma atoms are sm_90a instructions, which
// it compiles to a trap on other targets (CUTLASS's sm100 kernels use tcgen05 MMAs instead, with
// their own shared-memory and tensor-memory layouts). So this is a build, checked in its PTX and
// SASS by sm100a_build.cmake, and nothing runs it.
#include "gemm.h"

namespace {
using dynamic_ctas     = ptxw::clc::dynamic_tiles<>;
using dynamic_clusters = ptxw::clc::dynamic_tiles<ptxw::clc::automatic_t, ptxw::clc::cluster_t>;
} // namespace

// Taking each kernel's address instantiates it for this translation unit's target (extern: the
// table is for the linker to keep, nothing here reads it).
extern const void* const ptxw_gemm_sm100a_kernels[] = {
  reinterpret_cast<const void*>(gemm::grouped<dynamic_ctas>::kernel),
  reinterpret_cast<const void*>(gemm::grouped<dynamic_clusters, 2>::kernel),
};
