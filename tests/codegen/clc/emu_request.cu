// clc.request(clc.elect()) on the faithful emulation (ptxw::clc::context<emulated_t>): no
// try_cancel; the request claims the next cluster through the launch's cursor (a global 64-bit
// atomicAdd) and its claim word (atomicExch), and delivers the 16-byte response with a bulk copy
// from global memory (cp.async.bulk, UBLKCP.S.G; never the multicast form, which ptxas flags on
// targets other than sm_90a) that completes 16 bytes on the slot's barrier.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass

#include <ptxw/clc.h>

extern "C" __global__ void emu_request(ptxw::clc::context<ptxw::clc::emulated_t> ctx)
{
  __shared__ ptxw::clc::slot<ptxw::clc::cta_t> slot;
  auto clc = ptxw::clc::open(slot, ctx);
  if (!clc.started())
  {
    return;
  }
  __syncthreads();
  clc.request(clc.elect());
}

// PTX-LABEL: .entry emu_request(
// PTX-NOT:   clusterlaunchcontrol
// PTX:       mbarrier.init.shared.b64
// PTX-NOT:   clusterlaunchcontrol
// PTX:       atom.global.exch.b32
// PTX-NOT:   {{clusterlaunchcontrol|atom|cp.async|fence}}
// PTX:       elect.sync _|p, %r{{[0-9]+}};
// PTX-NOT:   {{clusterlaunchcontrol|atom|cp.async|fence}}
// PTX:       fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;
// PTX-NOT:   {{clusterlaunchcontrol|atom|cp.async|fence}}
// PTX:       atom.global.add.u64 %rd{{[0-9]+}}, [%rd{{[0-9]+}}], 1;
// PTX-NOT:   {{clusterlaunchcontrol|cp.async|fence}}
// PTX:       atom.global.exch.b32
// PTX-NOT:   {{clusterlaunchcontrol|cp.async|fence}}
// PTX:       st.global.v4.u32
// PTX-NOT:   {{clusterlaunchcontrol|cp.async|fence}}
// PTX:       fence.proxy.async.global;
// PTX-NOT:   {{clusterlaunchcontrol|fence}}
// PTX-COUNT-1: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r{{[0-9]+}}], [%rd{{[0-9]+}}], %r{{[0-9]+}}, [%r{{[0-9]+}}];
// PTX-NOT:   {{clusterlaunchcontrol|fence|cp.async|multicast}}
// PTX:       mbarrier.arrive.expect_tx.relaxed.cta.shared::cta.b64
// PTX-NOT:   {{clusterlaunchcontrol|multicast}}

// start() claims this CTA's cluster (ATOMG.E.EXCH). The request (the elected lane of the first
// warp): the 64-bit cursor atomic, the claim of the candidate, the response stored and fenced for
// the async proxy (FENCE.VIEW.ASYNC.G), then one unicast bulk copy (UBLKCP.S.G) and the arming.
// SASS-LABEL: Function : emu_request
// SASS-NOT:   {{UGETNEXTWORKID|MULTICAST}}
// SASS:       SYNCS.EXCH.64
// SASS-NOT:   {{UGETNEXTWORKID|MULTICAST}}
// SASS:       ATOMG.E.EXCH.STRONG.GPU
// SASS-NOT:   {{UGETNEXTWORKID|ATOMG|UBLKCP|MULTICAST}}
// SASS:       ELECT P[[E:[0-9]]], URZ, PT ;
// SASS-NEXT:  @!P[[E]] EXIT ;
// SASS-NOT:   {{UGETNEXTWORKID|UBLKCP|MULTICAST}}
// SASS:       ATOMG.E.ADD.64.STRONG.GPU PT, R{{[0-9]+}}, desc[UR{{[0-9]+}}][R{{[0-9]+}}.64], R{{[0-9]+}} ;
// SASS-NOT:   {{UGETNEXTWORKID|UBLKCP|MULTICAST}}
// SASS:       ATOMG.E.EXCH.STRONG.GPU
// SASS-NOT:   {{UGETNEXTWORKID|UBLKCP|MULTICAST}}
// SASS:       STG.E.128
// SASS-NEXT:  FENCE.VIEW.ASYNC.G ;
// SASS-NOT:   {{UGETNEXTWORKID|MULTICAST}}
// SASS-COUNT-1: UBLKCP.S.G [UR{{[0-9]+}}], [UR{{[0-9]+}}], UR{{[0-9]+}} ;
// SASS-NOT:   {{UGETNEXTWORKID|UBLKCP|MULTICAST}}
// SASS:       SYNCS.ARRIVE.TRANS64 RZ, [UR{{[0-9]+}}+0x10], R{{[0-9]+}} ;
