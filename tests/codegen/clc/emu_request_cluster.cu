// clc.request(e) on a ptxw::clc::slot<cluster_t> with the emulation (context<>, below sm_100): no
// try_cancel; cluster rank 0 claims the next cluster through the launch's cursor and delivers the
// response to every CTA of the cluster with one multicast bulk copy (UBLKCP.S.G.MULTICAST, mask
// (1 << %cluster_nctarank) - 1); every CTA arms its own barrier (relaxed.cluster, 16 bytes).
// REQUIRES: mbarrier-tx
// UNSUPPORTED: clc
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass

#include <ptxw/clc.h>

extern "C" __global__ void __cluster_dims__(2, 1, 1) emu_request_multicast(ptxw::clc::context<> ctx)
{
  __shared__ ptxw::clc::slot<ptxw::clc::cluster_t> slot;
  auto clc = ptxw::clc::open(slot, ctx);
  if (!clc.started())
  {
    return;
  }
  cuda::ptx::barrier_cluster_arrive();
  cuda::ptx::barrier_cluster_wait();
  if (ptxw::elected e = ptxw::elect_one())
  {
    clc.request(e);
  }
}

// PTX-LABEL: .entry emu_request_multicast(
// PTX-NOT:   clusterlaunchcontrol
// PTX:       ld.param.u64 [[CURSOR:%rd[0-9]+]], [emu_request_multicast_param_0+16];
// PTX-NOT:   clusterlaunchcontrol
// PTX:       mbarrier.init.shared.b64
// PTX-NOT:   {{clusterlaunchcontrol|atom|mbarrier|fence}}
// PTX:       fence.mbarrier_init.release.cluster;
// PTX-NOT:   clusterlaunchcontrol
// PTX:       atom.global.exch.b32
// PTX-NOT:   {{clusterlaunchcontrol|atom|cp.async|fence}}
// PTX:       elect.sync _|p, %r{{[0-9]+}};
// PTX-NOT:   {{clusterlaunchcontrol|atom|cp.async|fence}}
// PTX:       mov.{{[ub]}}32 [[RANK:%r[0-9]+]], %cluster_ctarank;
// PTX:       setp.ne.s32 [[NOT0:%p[0-9]+]], [[RANK]], 0;
// PTX-NEXT:  @[[NOT0]] bra [[ARM:\$L__BB[0-9_]+]];
// PTX-NOT:   {{clusterlaunchcontrol|atom|cp.async|fence}}
// PTX:       fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;
// PTX-NOT:   {{clusterlaunchcontrol|atom|cp.async|fence}}
// PTX:       cvta.to.global.u64 [[CUR:%rd[0-9]+]], [[CURSOR]];
// PTX-NOT:   {{clusterlaunchcontrol|atom|cp.async|fence}}
// PTX:       atom.global.add.u64 %rd{{[0-9]+}}, {{\[}}[[CUR]]], 1;
// PTX-NOT:   {{clusterlaunchcontrol|cp.async|fence}}
// PTX:       atom.global.exch.b32
// PTX-NOT:   {{clusterlaunchcontrol|cp.async|fence}}
// PTX:       st.global.v4.u32
// PTX-NOT:   {{clusterlaunchcontrol|cp.async|fence}}
// PTX:       fence.proxy.async.global;
// PTX-NOT:   {{clusterlaunchcontrol|fence}}
// PTX:       cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r{{[0-9]+}}], [%rd{{[0-9]+}}], %r{{[0-9]+}}, [%r{{[0-9]+}}];
// PTX-NOT:   {{clusterlaunchcontrol|fence}}
// PTX:       not.b16 [[MASK:%rs[0-9]+]], %rs{{[0-9]+}};
// PTX-NOT:   {{clusterlaunchcontrol|fence|cp.async}}
// PTX:       cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r{{[0-9]+}}], [%rd{{[0-9]+}}], %r{{[0-9]+}}, [%r{{[0-9]+}}], [[MASK]];
// PTX-NOT:   {{clusterlaunchcontrol|fence|cp.async}}
// PTX:       [[ARM]]:
// PTX-NOT:   {{clusterlaunchcontrol|fence|cp.async}}
// PTX:       mbarrier.arrive.expect_tx.relaxed.cluster.shared::cta.b64
// PTX-NOT:   clusterlaunchcontrol

// The elected lane of rank 0 (SR_CgaCtaId, a uniform register) requests: the cursor atomic on
// ctx.emulation.cursor (c[0x0][0x220]), the claim, the response stored and fenced, the multicast
// bulk copy (or the plain one in a one-CTA cluster); every CTA's elected lane arms its barrier.
// SASS-LABEL: Function : emu_request_multicast
// SASS-NOT:   UGETNEXTWORKID
// SASS:       ATOMG.E.EXCH.STRONG.GPU
// SASS-NOT:   {{UGETNEXTWORKID|ATOMG|UBLKCP}}
// SASS:       ELECT P[[E:[0-9]]], URZ, PT ;
// SASS-NEXT:  @!P[[E]] EXIT ;
// SASS-NEXT:  ISETP.NE.AND P[[NOT0:[0-9]]], PT, RZ, UR{{[0-9]+}}, PT ;
// SASS-NEXT:  @P[[NOT0]] BRA 0x{{[0-9a-f]+}} ;
// SASS-NOT:   {{UGETNEXTWORKID|ATOMG|UBLKCP}}
// SASS:       LDC.64 R[[CUR:[0-9]+]], c[0x0][0x220] ;
// SASS-NOT:   {{UGETNEXTWORKID|ATOMG|UBLKCP}}
// SASS:       ATOMG.E.ADD.64.STRONG.GPU PT, R{{[0-9]+}}, desc[UR{{[0-9]+}}][R[[CUR]].64], R{{[0-9]+}} ;
// SASS-NOT:   {{UGETNEXTWORKID|UBLKCP}}
// SASS:       ATOMG.E.EXCH.STRONG.GPU
// SASS-NOT:   {{UGETNEXTWORKID|UBLKCP}}
// SASS:       STG.E.128
// SASS-NEXT:  FENCE.VIEW.ASYNC.G ;
// SASS-NOT:   {{UGETNEXTWORKID|UBLKCP}}
// SASS:       UBLKCP.S.G.MULTICAST [UR{{[0-9]+}}], [UR{{[0-9]+}}], UR{{[0-9]+}} ;
// SASS-NOT:   {{UGETNEXTWORKID|UBLKCP}}
// SASS:       UBLKCP.S.G [UR{{[0-9]+}}], [UR{{[0-9]+}}], UR{{[0-9]+}} ;
// SASS-NOT:   {{UGETNEXTWORKID|UBLKCP}}
// SASS:       SYNCS.ARRIVE.TRANS64 RZ, [{{.*}}+0x10], R{{[0-9]+}} ;
// SASS-NEXT:  EXIT ;
// SASS-NOT:   {{UGETNEXTWORKID|UBLKCP}}
