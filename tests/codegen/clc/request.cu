// clc.request(e) (CTA form, hardware): the acquire fence that orders the slot's last reads before the
// write, one try_cancel (UGETNEXTWORKID.SELFCAST, no per-lane waterfall loop behind elect.sync) and
// the relaxed arrive.expect_tx(16) that arms this CTA's barrier.
// REQUIRES: clc
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/clc.h>

#include "Inputs/reference.h"

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_request(ptxw::clc::context<ptxw::clc::hardware_t> ctx)
{
  __shared__ ptxw::clc::slot<ptxw::clc::cta_t> slot;
  auto clc = ptxw::clc::open(slot, ctx);
  clc.request(clc.elect());
}

// open(): thread (0,0,0) initialises the barrier with one arrival. request(): fence_before_slot_write,
// try_cancel, arrive.expect_tx.relaxed.cta(16).
extern "C" __global__ void ref_request(ptxw::clc::context<ptxw::clc::hardware_t> ctx)
{
  __shared__ clc_storage slot;
  (void) ctx;
  uint64_t* bar = &slot.bar;
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
  {
    ptx::mbarrier_init(bar, 1);
  }
  if (ref_first_warp() && ref_elect_one())
  {
    ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);
    ptx::clusterlaunchcontrol_try_cancel(&slot.result, bar);
    (void) ptx::mbarrier_arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, bar, 16u);
  }
}

// PTX-LABEL: .entry ptxw_request(
// PTX:       mbarrier.init.shared.b64
// PTX:       elect.sync _|p, %r{{[0-9]+}};
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier}}
// PTX:       fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;
// PTX-NOT:   {{fence|mbarrier}}
// PTX-COUNT-1: clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 {{\[}}[[SLOT:%r[0-9]+]]], {{\[}}[[BAR:%r[0-9]+]]];
// PTX-NOT:   {{fence|clusterlaunchcontrol}}
// PTX:       mov.b32 [[TX:%r[0-9]+]], 16;
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier}}
// PTX:       mbarrier.arrive.expect_tx.relaxed.cta.shared::cta.b64 %rd{{[0-9]+}}, {{\[}}[[BAR]]], [[TX]];
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier}}
// PTX-LABEL: .entry ref_request(

// The acquire fence has no SASS of its own. Lanes outside the first warp leave; one UGETNEXTWORKID
// behind the ELECT predicate: no ELECT ... BRA.U.ANY loop around it.
// SASS-LABEL: Function : ptxw_request
// SASS:       SYNCS.EXCH.64 URZ, [UR{{[0-9]+}}+0x10], UR{{[0-9]+}} ;
// SASS-NOT:   {{BRA|UGETNEXTWORKID|ELECT}}
// SASS:       @P{{[0-9]}} EXIT ;
// SASS-NEXT:  ELECT P[[E:[0-9]]], URZ, PT ;
// SASS-NEXT:  @!P[[E]] EXIT ;
// SASS-NOT:   {{BRA|UGETNEXTWORKID}}
// SASS:       {{IMAD.MOV.U32|HFMA2}} R[[TX:[0-9]+]], {{RZ, RZ, 0x10|-RZ, RZ, 0, 9.5367431640625e-07}} ;
// SASS-NOT:   {{BRA|UGETNEXTWORKID}}
// SASS-COUNT-1: UGETNEXTWORKID.SELFCAST [UR[[SLOT:[0-9]+]]], [UR{{[0-9]+}}] ;
// SASS-NOT:   {{BRA|UGETNEXTWORKID}}
// SASS:       SYNCS.ARRIVE.TRANS64 RZ, [UR[[SLOT]]+0x10], R[[TX]] ;
// SASS-NOT:   {{BRA|UGETNEXTWORKID}}
// SASS-LABEL: Function : ref_request
