// mbarrier.arrive.expect_tx with the defaults: .release.cta, constant bytes.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_arrive_expect_tx()
{
  __shared__ ptxw::cta_barrier bar;
  bar.arrive_expect_tx(ptxw::tx_bytes{1024});
}

extern "C" __global__ void ref_arrive_expect_tx()
{
  __shared__ uint64_t bar;
  ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, 1024);
}

// PTX-LABEL: .entry ptxw_arrive_expect_tx(
// PTX:       mov.{{[bu]}}32 [[TX:%r[0-9]+]], 1024;
// PTX:       mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %rd{{[0-9]+}}, [%r{{[0-9]+}}], [[TX]];
// PTX-LABEL: .entry ref_arrive_expect_tx(

// SASS-LABEL: Function : ptxw_arrive_expect_tx
// SASS-NOT:   {{MEMBAR|SYNCS}}
// SASS:       HFMA2{{(\.MMA)?}} R[[TX:[0-9]+]], -RZ, RZ, 0, 6.103515625e-05 ;
// SASS-NOT:   {{MEMBAR|ERRBAR|SYNCS}}
// SASS:       SYNCS.ARRIVE.TRANS64 RZ, [UR{{[0-9]+}}], R[[TX]] ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_arrive_expect_tx
