// try_wait advances the phase only on success: the parity after one try_wait is its result.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_try_wait_advance(unsigned* out)
{
  __shared__ ptxw::cta_barrier bar;
  ptxw::phase ph;
  bar.try_wait(ph);
  *out = ph.parity();
}

extern "C" __global__ void ref_try_wait_advance(unsigned* out)
{
  __shared__ uint64_t bar;
  uint32_t parity = 0;
  if (ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &bar, parity))
  {
    parity ^= 1u;
  }
  *out = parity;
}

// PTX-LABEL: .entry ptxw_try_wait_advance(
// PTX:       mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 P_OUT, [%r{{[0-9]+}}], %r{{[0-9]+}};
// PTX-NEXT:  selp.b32 [[OK:%r[0-9]+]], 1, 0, P_OUT;
// PTX:       setp.ne.s32 [[P:%p[0-9]+]], [[OK]], 0;
// PTX-NEXT:  selp.u32 [[PAR:%r[0-9]+]], 1, 0, [[P]];
// PTX:       st.global.u32 [%rd{{[0-9]+}}], [[PAR]];
// PTX-LABEL: .entry ref_try_wait_advance(

// The stored parity is the try_wait predicate itself: 1 after a completed phase, else still 0.
// SASS-LABEL: Function : ptxw_try_wait_advance
// SASS:       SHF.L.U32 R[[PAR:[0-9]+]], RZ, 0x1f, RZ ;
// SASS:       SYNCS.PHASECHK.TRANS64.TRYWAIT P[[OK:[0-9]]], [UR{{[0-9]+}}], R[[PAR]] ;
// SASS-NOT:   {{SYNCS|BRA|LOP3}}
// SASS:       SEL R[[RES:[0-9]+]], RZ, 0x1, !P[[OK]] ;
// SASS-NEXT:  STG.E desc[UR{{[0-9]+}}][R{{[0-9]+}}.64], R[[RES]] ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_try_wait_advance
