// clc.request(e) on a ptxw::clc::slot<cluster_t> (hardware): cluster rank 0 alone submits one
// try_cancel.multicast::cluster::all (UGETNEXTWORKID.BROADCAST), every CTA arms its own barrier with
// arrive.expect_tx.relaxed.cluster(16); open() publishes the barrier's init to the cluster.
// REQUIRES: clc-multicast
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/clc.h>

#include "Inputs/reference.h"

namespace ptx = cuda::ptx;

extern "C" __global__ void __cluster_dims__(2, 1, 1) ptxw_request_multicast(ptxw::clc::context<ptxw::clc::hardware_t> ctx)
{
  __shared__ ptxw::clc::slot<ptxw::clc::cluster_t> slot;
  auto clc = ptxw::clc::open(slot, ctx);
  clc.request(clc.elect());
}

// open(): thread (0,0,0) initialises the barrier with one arrival and publishes the init to the
// cluster. request(): rank 0 fences and submits the multicast try_cancel (inline asm, since CCCL 3.0.1
// emits it only for sm_100a and sm_110a); every CTA arms relaxed.cluster with 16 bytes.
extern "C" __global__ void __cluster_dims__(2, 1, 1) ref_request_multicast(ptxw::clc::context<ptxw::clc::hardware_t> ctx)
{
  __shared__ clc_storage slot;
  (void) ctx;
  uint64_t* bar = &slot.bar;
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
  {
    ptx::mbarrier_init(bar, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  if (ref_first_warp() && ref_elect_one())
  {
    if (ptx::get_sreg_cluster_ctarank() == 0)
    {
      ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);
      asm volatile("clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes."
                   "multicast::cluster::all.b128 [%0], [%1];"
                   :
                   : "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot.result))),
                     "r"(static_cast<uint32_t>(__cvta_generic_to_shared(bar)))
                   : "memory");
    }
    (void) ptx::mbarrier_arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cluster, ptx::space_shared, bar, 16u);
  }
}

// PTX-LABEL: .entry ptxw_request_multicast(
// PTX:       mbarrier.init.shared.b64
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier}}
// PTX:       fence.mbarrier_init.release.cluster;
// PTX:       elect.sync _|p, %r{{[0-9]+}};
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier}}
// PTX:       mov.u32 [[RANK:%r[0-9]+]], %cluster_ctarank;
// PTX:       setp.ne.s32 [[NOT0:%p[0-9]+]], [[RANK]], 0;
// PTX-NEXT:  @[[NOT0]] bra [[ARM:\$L__BB[0-9_]+]];
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier}}
// PTX:       fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;
// PTX-NOT:   {{fence|mbarrier}}
// PTX-COUNT-1: clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128 [%r{{[0-9]+}}], [%r{{[0-9]+}}];
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier}}
// PTX:       [[ARM]]:
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier}}
// PTX:       mov.b32 [[TX:%r[0-9]+]], 16;
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier}}
// PTX:       mbarrier.arrive.expect_tx.relaxed.cluster.shared::cta.b64 %rd{{[0-9]+}}, [%r{{[0-9]+}}], [[TX]];
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier}}
// PTX-LABEL: .entry ref_request_multicast(

// %cluster_ctarank is SR_CgaCtaId; a uniform branch skips the request on ranks other than 0, and the
// arrive is outside it. One UGETNEXTWORKID, no ELECT ... BRA.U.ANY loop. fence.mbarrier_init leaves
// only a NOP under the init's predicate (tests/codegen/fence/mbarrier_init.cu).
// SASS-LABEL: Function : ptxw_request_multicast
// SASS:       SYNCS.EXCH.64 URZ, [UR{{[0-9]+}}+0x10], UR{{[0-9]+}} ;
// SASS-NEXT:  @!P{{[0-9]}} NOP ;
// SASS-NOT:   {{BRA|UGETNEXTWORKID|ELECT}}
// SASS:       @P{{[0-9]}} EXIT ;
// SASS-NEXT:  ELECT P[[E:[0-9]]], URZ, PT ;
// SASS-NEXT:  @!P[[E]] EXIT ;
// SASS-NOT:   {{BRA|UGETNEXTWORKID}}
// SASS:       S2UR UR[[RANK:[0-9]+]], SR_CgaCtaId ;
// SASS-NEXT:  UISETP.NE.AND UP[[NOT0:[0-9]]], UPT, UR[[RANK]], URZ, UPT ;
// SASS-NEXT:  BRA.U UP[[NOT0]], 0x{{[0-9a-f]+}} ;
// SASS-NOT:   {{BRA|UGETNEXTWORKID|SYNCS}}
// SASS-COUNT-1: UGETNEXTWORKID.BROADCAST [UR{{[0-9]+}}], [UR{{[0-9]+}}] ;
// SASS-NOT:   {{BRA|UGETNEXTWORKID}}
// SASS:       SYNCS.ARRIVE.TRANS64 RZ, [UR{{[0-9]+}}+0x10], R{{[0-9]+}} ;
// SASS-NOT:   {{BRA|UGETNEXTWORKID}}
// SASS-LABEL: Function : ref_request_multicast
