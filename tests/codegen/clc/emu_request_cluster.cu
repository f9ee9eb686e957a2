// clc.request(clc.elect()) on a ptxw::clc::slot<cluster_t> with the faithful emulation
// (context<emulated_t>): no try_cancel; cluster rank 0 claims the next cluster through the launch's
// cursor and delivers the response to every CTA of the cluster with one unicast bulk copy each,
// into that CTA's slot (mapa, UBLKCP.S.G) -- not the multicast form, which ptxas flags on targets
// other than sm_90a; every CTA arms its own barrier (relaxed.cluster, 16 bytes).
// REQUIRES: mbarrier-tx
// UNSUPPORTED: clc
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass

#include <ptxw/clc.h>

extern "C" __global__ void __cluster_dims__(2, 1, 1) emu_request_cluster(ptxw::clc::context<ptxw::clc::emulated_t> ctx)
{
  __shared__ ptxw::clc::slot<ptxw::clc::cluster_t> slot;
  auto clc = ptxw::clc::open(slot, ctx);
  if (!clc.started())
  {
    return;
  }
  cuda::ptx::barrier_cluster_arrive();
  cuda::ptx::barrier_cluster_wait();
  clc.request(clc.elect());
}

// PTX-LABEL: .entry emu_request_cluster(
// PTX-NOT:   clusterlaunchcontrol
// PTX:       mbarrier.init.shared.b64
// PTX-NOT:   {{clusterlaunchcontrol|cp.async|mbarrier|atom}}
// PTX:       fence.mbarrier_init.release.cluster;
// PTX-NOT:   {{clusterlaunchcontrol|cp.async|multicast}}
// PTX:       atom.global.exch.b32
// PTX-NOT:   {{clusterlaunchcontrol|cp.async|multicast}}
// PTX:       elect.sync _|p, %r{{[0-9]+}};
// PTX-NOT:   {{clusterlaunchcontrol|atom|cp.async|fence}}
// PTX:       @%p{{[0-9]+}} bra $L__BB{{[0-9_]+}};
// PTX-NOT:   {{clusterlaunchcontrol|atom|cp.async|fence}}
// PTX:       @%p{{[0-9]+}} bra [[ARM:\$L__BB[0-9_]+]];
// PTX-NOT:   {{clusterlaunchcontrol|cp.async}}
// PTX:       fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;
// PTX-NOT:   {{clusterlaunchcontrol|cp.async}}
// PTX:       atom.global.add.u64
// PTX-NOT:   {{clusterlaunchcontrol|cp.async}}
// PTX:       st.global.v4.u32
// PTX-NOT:   {{clusterlaunchcontrol|cp.async|st.global}}
// PTX:       fence.proxy.async.global;
// PTX-NOT:   {{clusterlaunchcontrol|multicast}}
// PTX:       mapa.u64
// PTX-NOT:   {{clusterlaunchcontrol|multicast}}
// PTX:       cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r{{[0-9]+}}], [%rd{{[0-9]+}}], %r{{[0-9]+}}, [%r{{[0-9]+}}];
// PTX-NOT:   {{clusterlaunchcontrol|multicast}}
// PTX:       [[ARM]]:
// PTX-NOT:   {{clusterlaunchcontrol|multicast|cp.async}}
// PTX:       mbarrier.arrive.expect_tx.relaxed.cluster.shared::cta.b64

// Rank 0's elected lane: the cursor and the claim, the response stored and fenced, then a loop of
// unicast bulk copies, one per CTA of the cluster; every CTA's lane arms its barrier.
// SASS-LABEL: Function : emu_request_cluster
// SASS-NOT:   {{UGETNEXTWORKID|MULTICAST}}
// SASS:       ELECT P[[E:[0-9]]], URZ, PT ;
// SASS-NEXT:  @!P[[E]] EXIT ;
// SASS-NOT:   {{UGETNEXTWORKID|MULTICAST|UBLKCP}}
// SASS:       ATOMG.E.ADD.64.STRONG.GPU PT, R{{[0-9]+}}, desc[UR{{[0-9]+}}][R{{[0-9]+}}.64], R{{[0-9]+}} ;
// SASS-NOT:   {{UGETNEXTWORKID|MULTICAST|UBLKCP}}
// SASS:       STG.E.128
// SASS-NEXT:  FENCE.VIEW.ASYNC.G ;
// SASS-NOT:   {{UGETNEXTWORKID|MULTICAST}}
// SASS:       UBLKCP.S.G [UR{{[0-9]+}}], [UR{{[0-9]+}}], UR{{[0-9]+}} ;
// SASS-NOT:   {{UGETNEXTWORKID|MULTICAST|UBLKCP|SYNCS}}
// SASS:       @!P{{[0-9]}} BRA 0x{{[0-9a-f]+}} ;
// SASS-NOT:   {{UGETNEXTWORKID|MULTICAST|UBLKCP}}
// SASS:       SYNCS.ARRIVE.TRANS64 RZ, [UR{{[0-9]+}}+0x10], R{{[0-9]+}} ;
