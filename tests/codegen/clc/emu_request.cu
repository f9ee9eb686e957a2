// clc.request(e) with the emulation (ptxw::clc::context<>, automatic: the emulation below sm_100):
// no try_cancel; the request claims the next cluster through the launch's cursor (a global 64-bit
// atomicAdd) and its claim word (atomicExch), and delivers the 16-byte response with a bulk copy
// from global memory (cp.async.bulk, UBLKCP.S.G) that completes 16 bytes on the slot's barrier.
// REQUIRES: mbarrier-tx
// UNSUPPORTED: clc
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass

#include <ptxw/clc.h>

extern "C" __global__ void emu_request(ptxw::clc::context<> ctx)
{
  __shared__ ptxw::clc::slot<ptxw::clc::cta_t> slot;
  auto clc = ptxw::clc::open(slot, ctx);
  if (!clc.started())
  {
    return;
  }
  __syncthreads();
  if (ptxw::elected e = ptxw::elect_one())
  {
    clc.request(e);
  }
}

// PTX-LABEL: .entry emu_request(
// PTX-NOT:   clusterlaunchcontrol
// PTX:       ld.param.u64 [[CURSOR:%rd[0-9]+]], [emu_request_param_0+16];
// PTX-NOT:   clusterlaunchcontrol
// PTX:       mbarrier.init.shared.b64
// PTX-NOT:   clusterlaunchcontrol
// PTX:       atom.global.exch.b32
// PTX-NOT:   {{clusterlaunchcontrol|atom|cp.async|fence}}
// PTX:       elect.sync _|p, %r{{[0-9]+}};
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
// PTX:       cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster
// PTX-NOT:   {{clusterlaunchcontrol|fence|cp.async}}
// PTX:       mbarrier.arrive.expect_tx.relaxed.cta.shared::cta.b64
// PTX-NOT:   clusterlaunchcontrol

// open() claims this CTA's cluster (ATOMG.E.EXCH). The request (the elected lane): the 64-bit
// cursor atomic on ctx.emulation.cursor (param offset 16: c[0x0][0x220]), the claim of the
// candidate, the response stored and fenced for the async proxy (FENCE.VIEW.ASYNC.G), then a bulk
// copy: UBLKCP.S.G for a one-CTA cluster, UBLKCP.S.G.MULTICAST to this CTA's rank otherwise.
// SASS-LABEL: Function : emu_request
// SASS-NOT:   UGETNEXTWORKID
// SASS:       SYNCS.EXCH.64
// SASS-NOT:   UGETNEXTWORKID
// SASS:       ATOMG.E.EXCH.STRONG.GPU
// SASS-NOT:   {{UGETNEXTWORKID|ATOMG|UBLKCP}}
// SASS:       ELECT P[[E:[0-9]]], URZ, PT ;
// SASS-NEXT:  @!P[[E]] EXIT ;
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
