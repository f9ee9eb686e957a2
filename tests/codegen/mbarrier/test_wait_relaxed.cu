// mbarrier.test_wait.parity.relaxed.cta.
// REQUIRES: mbarrier-tx, mbarrier-relaxed
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_test_wait_relaxed(int* out)
{
  __shared__ ptxw::cta_barrier bar;
  ptxw::phase ph;
  *out = bar.test_wait(ptx::sem_relaxed, ptx::scope_cta, ph);
}

extern "C" __global__ void ref_test_wait_relaxed(int* out)
{
  __shared__ uint64_t bar;
  *out = ptx::mbarrier_test_wait_parity(ptx::sem_relaxed, ptx::scope_cta, &bar, 0u);
}

// PTX-LABEL: .entry ptxw_test_wait_relaxed(
// PTX-DAG:   mov.{{[bu]}}32 [[PAR:%r[0-9]+]], 0;
// PTX:       mbarrier.test_wait.parity.relaxed.cta.shared::cta.b64 P_OUT, [%r{{[0-9]+}}], [[PAR]];
// PTX-LABEL: .entry ref_test_wait_relaxed(

// SASS-LABEL: Function : ptxw_test_wait_relaxed
// SASS:       SHF.L.U32 R[[PAR:[0-9]+]], RZ, 0x1f, RZ ;
// SASS-NOT:   SYNCS
// SASS:       SYNCS.PHASECHK.TRANS64 P[[OK:[0-9]]], [UR{{[0-9]+}}], R[[PAR]] ;
// SASS-NOT:   {{SYNCS|MEMBAR|BRA|CCTL|NANOSLEEP}}
// SASS:       SEL R[[RES:[0-9]+]], RZ, 0x1, !P[[OK]] ;
// SASS-NEXT:  STG.E desc[UR{{[0-9]+}}][R{{[0-9]+}}.64], R[[RES]] ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_test_wait_relaxed
