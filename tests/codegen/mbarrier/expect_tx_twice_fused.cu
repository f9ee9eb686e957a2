// Two neighbouring expect_tx on one barrier: ptxas fuses them into one SYNCS.ARRIVE.TRANS64.RED.A0TR of the sum.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_expect_tx_twice_fused()
{
  __shared__ ptxw::cta_barrier bar;
  bar.expect_tx(ptxw::tx_bytes{256});
  bar.expect_tx(ptxw::tx_bytes{256});
}

extern "C" __global__ void ref_expect_tx_twice_fused()
{
  __shared__ uint64_t bar;
  ptx::mbarrier_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar, 256);
  ptx::mbarrier_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar, 256);
}

// PTX-LABEL: .entry ptxw_expect_tx_twice_fused(
// PTX-COUNT-2: mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r{{[0-9]+}}], %r{{[0-9]+}};
// PTX-LABEL: .entry ref_expect_tx_twice_fused(

// 256 + 256 bytes in one expect_tx: the HFMA2 bit pattern of 512.
// SASS-LABEL: Function : ptxw_expect_tx_twice_fused
// SASS-NOT:   SYNCS
// SASS-DAG:   HFMA2{{(\.MMA)?}} R[[TX:[0-9]+]], -RZ, RZ, 0, 3.0517578125e-05 ;
// SASS-DAG:   ULEA UR[[BAR:[0-9]+]], UR{{[0-9]+}}, UR{{[0-9]+}}, 0x18 ;
// SASS-NOT:   SYNCS
// SASS-COUNT-1: SYNCS.ARRIVE.TRANS64.RED.A0TR RZ, [UR[[BAR]]], R[[TX]] ;
// SASS-NOT:   SYNCS
// SASS-LABEL: Function : ref_expect_tx_twice_fused
