// wait(ph, hint): the wait loop forwards the hint to every try_wait, with the default qualifiers
// (.acquire at the barrier's scope).
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_wait_hint()
{
  __shared__ ptxw::cta_barrier bar;
  ptxw::phase ph;
  bar.wait(ph, ptxw::suspend_hint{500});
}

extern "C" __global__ void ref_wait_hint()
{
  __shared__ uint64_t bar;
  while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &bar, 0u, 500u))
  {
  }
}

// PTX-LABEL: .entry ptxw_wait_hint(
// PTX-DAG:   mov.{{[bu]}}32 [[PAR:%r[0-9]+]], 0;
// PTX-DAG:   mov.{{[bu]}}32 [[NS:%r[0-9]+]], 500;
// PTX-DAG:   [[SPIN:\$L__BB[0-9_]+]]:
// PTX:       mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 P_OUT, [%r{{[0-9]+}}], [[PAR]], [[NS]];
// PTX-NOT:   xor
// PTX:       bra{{(\.uni)?}} [[SPIN]];
// PTX-NOT:   xor
// PTX:       ret;
// PTX-LABEL: .entry ref_wait_hint(

// The spin loop retries the same parity; the phase flips once, after the loop (nothing is left of
// it here, as the phase is dead): no SEL/LOP3 carrying it through the loop.
// SASS-LABEL: Function : ptxw_wait_hint
// SASS-NOT:   {{SEL|LOP3|MEMBAR|CCTL}}
// SASS:       SHF.L.U32 R[[PAR:[0-9]+]], RZ, 0x1f, RZ ;
// SASS-NOT:   {{SEL|LOP3|MEMBAR|CCTL}}
// SASS:       SYNCS.PHASECHK.TRANS64.TRYWAIT P[[OK:[0-9]]], [R{{[0-9]+}}+URZ], R[[PAR]] ;
// SASS-NEXT:  @!P[[OK]] BRA
// SASS-NOT:   {{SEL|LOP3|MEMBAR|CCTL}}
// SASS:       @!P{{[0-9]}} NANOSLEEP.SYNCS 0x1f4 ;
// SASS-NOT:   {{SEL|LOP3|MEMBAR|CCTL}}
// SASS-LABEL: Function : ref_wait_hint
