// ptxw::for_each_canceled_block<1> (hardware): per block index one __syncthreads (BAR.SYNC), one
// try_cancel from the lane elect.sync picks in the first warp (one UGETNEXTWORKID.SELFCAST, no
// ELECT ... BRA.U.ANY waterfall loop), the callback, then the wait and a 16-byte read of the response.
// REQUIRES: clc
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/clc.h>

#include "Inputs/reference.h"

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_for_each_block(float* data, int n, float alpha,
                                               ptxw::clc::context<ptxw::clc::hardware_t> ctx)
{
  ptxw::for_each_canceled_block<1>(ctx, [&](dim3 block) { scale_block(data, n, alpha, block.x); });
}

// The first warp of the block, in a function of its own as in ptxw (inlined alike, the leader
// test's operands keep the same order).
__device__ inline bool first_warp()
{
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z) < 32u;
}

extern "C" __global__ void ref_for_each_block(float* data, int n, float alpha,
                                              ptxw::clc::context<ptxw::clc::hardware_t> ctx)
{
  (void) ctx;
  __shared__ clc_storage slot;
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
  {
    ptx::mbarrier_init(&slot.bar, 1);
  }
  uint32_t phase = 0;
  unsigned bx    = blockIdx.x;
  while (true)
  {
    __syncthreads();
    if (first_warp())
    {
      if (ref_elect_one())
      {
        ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);
        ptx::clusterlaunchcontrol_try_cancel(&slot.result, &slot.bar);
        ptx::mbarrier_arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &slot.bar, 16u);
      }
    }
    scale_block(data, n, alpha, bx);
    while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &slot.bar, phase))
    {
    }
    phase ^= 1;
    const uint4 r = slot.result;
    ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_release, ptx::space_shared, ptx::scope_cluster);
    if (!ptx::clusterlaunchcontrol_query_cancel_is_canceled(r))
    {
      break;
    }
    bx = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x<uint32_t>(r);
  }
}

// PTX-LABEL: .entry ptxw_for_each_block(
// PTX:       mbarrier.init.shared.b64
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier|bar.sync}}
// PTX-COUNT-1: bar.sync 0;
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier|bar.sync}}
// PTX:       elect.sync _|p, %r{{[0-9]+}};
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier|bar.sync}}
// PTX:       fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;
// PTX-NOT:   {{fence|mbarrier|bar.sync}}
// PTX-COUNT-1: clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128
// PTX-NOT:   {{fence|clusterlaunchcontrol|bar.sync}}
// PTX:       mbarrier.arrive.expect_tx.relaxed.cta.shared::cta.b64
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier|bar.sync|ld.shared}}
// PTX:       st.global.f32
// PTX-NOT:   {{fence|clusterlaunchcontrol|bar.sync|ld.shared}}
// PTX:       mbarrier.try_wait.parity.acquire.cta.shared::cta.b64
// PTX-NOT:   {{fence|clusterlaunchcontrol|bar.sync|ld.shared}}
// PTX-COUNT-1: ld.shared.v2.u64
// PTX-NOT:   {{fence|clusterlaunchcontrol|bar.sync|ld.shared}}
// PTX:       fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;
// PTX-NOT:   {{fence|bar.sync|ld.shared|get_first_ctaid::[yz]}}
// PTX:       clusterlaunchcontrol.query_cancel.is_canceled.pred.b128
// PTX-NOT:   {{fence|bar.sync|ld.shared|get_first_ctaid::[yz]}}
// PTX:       clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128
// PTX-NOT:   {{fence|bar.sync|ld.shared|get_first_ctaid::[yz]}}
// PTX:       bra.uni [[LOOP:\$L__BB[0-9_]+]];
// PTX-NOT:   [[LOOP]]:
// PTX-LABEL: .entry ref_for_each_block(

// The function is the init, then one loop closed by the final BRA: one BAR.SYNC in it (CCCL's
// for_each_canceled_block has two per block index), one UGETNEXTWORKID behind the ELECT branch.
// SASS-LABEL: Function : ptxw_for_each_block{{$}}
// SASS:       SYNCS.EXCH.64
// SASS-NOT:   {{BAR|UGETNEXTWORKID|BRA.U.ANY|ELECT}}
// SASS-COUNT-1: BAR.SYNC.DEFER_BLOCKING 0x0 ;
// SASS-NOT:   {{BAR|UGETNEXTWORKID|BRA.U.ANY|ELECT}}
// SASS:       ELECT P[[E:[0-9]]], URZ, PT ;
// SASS-NEXT:  @!P[[E]] BRA 0x{{[0-9a-f]+}} ;
// SASS-NOT:   {{BAR|UGETNEXTWORKID|BRA.U.ANY|ELECT}}
// SASS:       UGETNEXTWORKID.SELFCAST [UR[[S:[0-9]+]]], [UR{{[0-9]+}}] ;
// SASS-NEXT:  SYNCS.ARRIVE.TRANS64 RZ, [UR[[S]]+0x10], R{{[0-9]+}} ;
// SASS-NOT:   {{BAR|UGETNEXTWORKID|BRA.U.ANY|ELECT|LDS}}
// SASS:       STG.E
// SASS-NOT:   {{BAR|UGETNEXTWORKID|BRA.U.ANY|ELECT|LDS}}
// SASS:       SYNCS.PHASECHK.TRANS64.TRYWAIT
// SASS-NOT:   {{BAR|UGETNEXTWORKID|BRA.U.ANY|ELECT|LDS}}
// SASS:       LDS.128 R[[#W:]], [R{{[0-9]+}}] ;
// SASS-NEXT:  MEMBAR.ALL.CTA ;
// SASS-NEXT:  FENCE.VIEW.ASYNC.S ;
// SASS-NEXT:  LOP3.LUT P[[C:[0-9]]], RZ, R[[#W+2]], 0x1, RZ, 0xc0, !PT ;
// SASS-NEXT:  @!P[[C]] EXIT ;
// SASS-NOT:   {{BAR|UGETNEXTWORKID|BRA.U.ANY|ELECT|LDS|MEMBAR|FENCE}}
// SASS:       BRA 0x{{[0-9a-f]+}} ;
// SASS-NEXT:  Function : ref_for_each_block{{$}}
