// expect_tx then arrive_expect_tx on one barrier: ptxas fuses them into one SYNCS.ARRIVE carrying the summed bytes.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_expect_tx_arrive_fused()
{
  __shared__ ptxw::cta_barrier bar;
  bar.expect_tx(ptxw::tx_bytes{256});
  bar.arrive_expect_tx(ptxw::tx_bytes{256});
}

extern "C" __global__ void ref_expect_tx_arrive_fused()
{
  __shared__ uint64_t bar;
  ptx::mbarrier_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar, 256);
  ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, 256);
}

// PTX-LABEL: .entry ptxw_expect_tx_arrive_fused(
// PTX:       mov.{{[bu]}}32 [[TX:%r[0-9]+]], 256;
// PTX:       mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r{{[0-9]+}}], [[TX]];
// PTX:       mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %rd{{[0-9]+}}, [%r{{[0-9]+}}], [[TX]];
// PTX-LABEL: .entry ref_expect_tx_arrive_fused(

// 256 + 256 bytes in one arrive: the HFMA2 bit pattern of 512.
// SASS-LABEL: Function : ptxw_expect_tx_arrive_fused
// SASS-NOT:   {{SYNCS|MEMBAR}}
// SASS-DAG:   HFMA2{{(\.MMA)?}} R[[TX:[0-9]+]], -RZ, RZ, 0, 3.0517578125e-05 ;
// SASS-DAG:   ULEA UR[[BAR:[0-9]+]], UR{{[0-9]+}}, UR{{[0-9]+}}, 0x18 ;
// SASS-NOT:   {{SYNCS|MEMBAR}}
// SASS-COUNT-1: SYNCS.ARRIVE.TRANS64 RZ, [UR[[BAR]]], R[[TX]] ;
// SASS-NOT:   {{SYNCS|MEMBAR}}
// SASS-LABEL: Function : ref_expect_tx_arrive_fused
