// A wait on ptxw::phase::preceding() is a try_wait.parity with parity 1 (the phase before a fresh
// barrier's first), and the phase object moves on to parity 0.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_wait_preceding(unsigned* out)
{
  __shared__ ptxw::cta_barrier bar;
  ptxw::phase ph = ptxw::phase::preceding();
  bar.wait(ph);
  *out = ph.parity();
}

extern "C" __global__ void ref_wait_preceding(unsigned* out)
{
  __shared__ uint64_t bar;
  unsigned parity = 1;
  while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &bar, parity))
  {
  }
  parity ^= 1;
  *out = parity;
}

// PTX-LABEL: .entry ptxw_wait_preceding(
// PTX:       mov.{{[bu]}}32 [[PARITY:%r[0-9]+]], 1;
// PTX:       mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 {{.*}}, [[PARITY]];
// PTX-LABEL: .entry ref_wait_preceding(

// The parity is the constant 1 in bit 31, and the stored phase is the constant 0.
// SASS-LABEL: Function : ptxw_wait_preceding
// SASS:       SYNCS.PHASECHK.TRANS64.TRYWAIT P{{[0-9]}}, [UR{{[0-9]+}}], R{{[0-9]+}} ;
// SASS:       STG.E desc[UR{{[0-9]+}}][R{{[0-9]+}}.64], RZ ;
// SASS-LABEL: Function : ref_wait_preceding
