// ptxw::for_each_canceled_cluster<1> (hardware, multicast): per block index one cluster barrier
// (UCGABAR_ARV / UCGABAR_WAIT), cluster rank 0 issues one try_cancel.multicast::cluster::all
// (UGETNEXTWORKID.BROADCAST, no ELECT ... BRA.U.ANY waterfall loop), every CTA arms its own barrier
// and reads the response once. No twin here: guide_clusters.cu compares the same loop, written
// with the low-level API, against the programming guide's.
// REQUIRES: clc-multicast
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass

#include <ptxw/clc.h>

#include "Inputs/reference.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1)
  for_each_cluster(float* data, int n, float alpha, ptxw::clc::context<ptxw::clc::hardware_t> ctx)
{
  ptxw::for_each_canceled_cluster<1>(ctx, [&](dim3 block) { scale_block(data, n, alpha, block.x); });
}

// PTX-LABEL: .entry for_each_cluster(
// PTX:       mbarrier.init.shared.b64
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier|barrier}}
// PTX:       fence.mbarrier_init.release.cluster;
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier|barrier}}
// PTX-COUNT-1: barrier.cluster.arrive;
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier|barrier|elect}}
// PTX-COUNT-1: barrier.cluster.wait;
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier|barrier}}
// PTX:       elect.sync _|p, %r{{[0-9]+}};
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier|barrier}}
// PTX:       setp.ne.s32 [[NOT0:%p[0-9]+]], %r{{[0-9]+}}, 0;
// PTX-NEXT:  @[[NOT0]] bra [[ARM:\$L__BB[0-9_]+]];
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier|barrier}}
// PTX:       fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;
// PTX-NOT:   {{fence|mbarrier|barrier}}
// PTX-COUNT-1: clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier|barrier}}
// PTX:       [[ARM]]:
// PTX-NOT:   {{fence|clusterlaunchcontrol|barrier}}
// PTX:       mbarrier.arrive.expect_tx.relaxed.cluster.shared::cta.b64
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier|barrier|ld.shared}}
// PTX:       st.global.f32
// PTX-NOT:   {{fence|clusterlaunchcontrol|barrier|ld.shared}}
// PTX:       mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64
// PTX-NOT:   {{fence|clusterlaunchcontrol|barrier|ld.shared}}
// PTX-COUNT-1: ld.shared.v2.u64
// PTX-NOT:   {{fence|clusterlaunchcontrol|barrier|ld.shared}}
// PTX:       fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;
// PTX-NOT:   {{fence|barrier|ld.shared|get_first_ctaid::[yz]}}
// PTX:       clusterlaunchcontrol.query_cancel.is_canceled.pred.b128
// PTX-NOT:   {{fence|barrier|ld.shared|get_first_ctaid::[yz]}}
// PTX:       clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128
// PTX-NOT:   {{fence|barrier|ld.shared|get_first_ctaid::[yz]}}
// PTX:       bra.uni [[LOOP:\$L__BB[0-9_]+]];
// PTX-NOT:   [[LOOP]]:

// SASS-LABEL: Function : for_each_cluster{{$}}
// SASS:       SYNCS.EXCH.64
// SASS-NEXT:  @!P{{[0-9]}} NOP ;
// SASS-NOT:   {{UCGABAR|BAR.SYNC|UGETNEXTWORKID|BRA.U.ANY|ELECT}}
// SASS-COUNT-1: UCGABAR_ARV ;
// SASS-NOT:   {{UCGABAR|BAR.SYNC|UGETNEXTWORKID|BRA.U.ANY|ELECT}}
// SASS-COUNT-1: UCGABAR_WAIT ;
// SASS-NOT:   {{UCGABAR|BAR.SYNC|UGETNEXTWORKID|BRA.U.ANY|ELECT}}
// SASS:       ELECT P[[E:[0-9]]], URZ, PT ;
// SASS-NEXT:  @!P[[E]] BRA 0x{{[0-9a-f]+}} ;
// SASS-NOT:   {{UCGABAR|BAR.SYNC|UGETNEXTWORKID|BRA.U.ANY|ELECT|SYNCS}}
// SASS:       BRA.U UP{{[0-9]}}, 0x{{[0-9a-f]+}} ;
// SASS-NOT:   {{UCGABAR|BAR.SYNC|UGETNEXTWORKID|BRA|ELECT|SYNCS}}
// SASS-COUNT-1: UGETNEXTWORKID.BROADCAST [UR{{[0-9]+}}], [UR{{[0-9]+}}] ;
// SASS-NEXT:  SYNCS.ARRIVE.TRANS64 RZ, [{{.*}}+0x10], R{{[0-9]+}} ;
// SASS-NOT:   {{UCGABAR|BAR.SYNC|UGETNEXTWORKID|BRA.U.ANY|ELECT|LDS}}
// SASS:       SYNCS.PHASECHK.TRANS64.TRYWAIT P[[OK:[0-9]]], [{{.*}}+0x10], R{{[0-9]+}} ;
// SASS-NEXT:  @P[[OK]] CCTL.IVALL ;
// SASS-NOT:   {{UCGABAR|BAR.SYNC|UGETNEXTWORKID|BRA.U.ANY|ELECT|LDS}}
// SASS:       LDS.128 R[[#W:]], [R{{[0-9]+}}] ;
// SASS-NEXT:  MEMBAR.ALL.CTA ;
// SASS-NEXT:  FENCE.VIEW.ASYNC.S ;
// SASS-NEXT:  LOP3.LUT P[[C:[0-9]]], RZ, R[[#W+2]], 0x1, RZ, 0xc0, !PT ;
// SASS-NEXT:  @!P[[C]] EXIT ;
// SASS-NOT:   {{UCGABAR|BAR.SYNC|UGETNEXTWORKID|BRA.U.ANY|ELECT|LDS|MEMBAR|FENCE}}
// SASS:       BRA 0x{{[0-9a-f]+}} ;
// SASS-NOT:   {{.}}
