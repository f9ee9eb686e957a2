// expect_tx then a plain arrive: not fused; the expect_tx stays ahead of the arrive that may complete the phase.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_expect_tx_then_arrive()
{
  __shared__ ptxw::cta_barrier bar;
  bar.expect_tx(ptxw::tx_bytes{256});
  bar.arrive();
}

extern "C" __global__ void ref_expect_tx_then_arrive()
{
  __shared__ uint64_t bar;
  ptx::mbarrier_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar, 256);
  ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar);
}

// PTX-LABEL: .entry ptxw_expect_tx_then_arrive(
// PTX:       mov.{{[bu]}}32 [[TX:%r[0-9]+]], 256;
// PTX:       mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r{{[0-9]+}}], [[TX]];
// PTX:       mbarrier.arrive.release.cta.shared::cta.b64 %rd{{[0-9]+}}, [%r{{[0-9]+}}];
// PTX-LABEL: .entry ref_expect_tx_then_arrive(

// SASS-LABEL: Function : ptxw_expect_tx_then_arrive
// SASS-NOT:   {{SYNCS|MEMBAR}}
// SASS:       HFMA2{{(\.MMA)?}} R[[TX:[0-9]+]], -RZ, RZ, 0, 1.52587890625e-05 ;
// SASS-NOT:   {{SYNCS|MEMBAR}}
// SASS:       SYNCS.ARRIVE.TRANS64.RED.A0TR RZ, [UR[[BAR:[0-9]+]]], R[[TX]] ;
// SASS-NOT:   {{SYNCS|MEMBAR}}
// SASS:       SYNCS.ARRIVE.TRANS64.A1T0 RZ, [UR[[BAR]]], RZ ;
// SASS-NOT:   {{SYNCS|MEMBAR}}
// SASS-LABEL: Function : ref_expect_tx_then_arrive
