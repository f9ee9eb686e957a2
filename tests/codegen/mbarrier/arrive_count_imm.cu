// mbarrier.arrive with a constant ptxw::arrivals{4}: the constant is materialised into the count register.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_arrive_count_imm()
{
  __shared__ ptxw::cta_barrier bar;
  bar.arrive(ptxw::arrivals{4});
}

extern "C" __global__ void ref_arrive_count_imm()
{
  __shared__ uint64_t bar;
  ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, 4);
}

// PTX-LABEL: .entry ptxw_arrive_count_imm(
// PTX:       mov.{{[bu]}}32 [[N:%r[0-9]+]], 4;
// PTX:       mbarrier.arrive.release.cta.shared::cta.b64 %rd{{[0-9]+}}, [%r{{[0-9]+}}], [[N]];
// PTX-LABEL: .entry ref_arrive_count_imm(

// SASS-LABEL: Function : ptxw_arrive_count_imm
// SASS:       HFMA2{{(\.MMA)?}} R[[N:[0-9]+]], -RZ, RZ, 0, 2.384185791015625e-07 ;
// SASS-NOT:   {{MEMBAR|ERRBAR|SYNCS}}
// SASS:       SYNCS.ARRIVE.TRANS64.ART0 RZ, [UR{{[0-9]+}}], R[[N]] ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_arrive_count_imm
