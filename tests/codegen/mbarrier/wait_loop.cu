// A loop of waits: the parity is a loop-carried register flipped once per completed wait.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_wait_loop(unsigned* out, int n)
{
  __shared__ ptxw::cta_barrier bar;
  ptxw::phase ph;
  for (int i = 0; i < n; ++i)
  {
    bar.wait(ph);
  }
  *out = ph.parity();
}

extern "C" __global__ void ref_wait_loop(unsigned* out, int n)
{
  __shared__ uint64_t bar;
  uint32_t parity = 0;
  for (int i = 0; i < n; ++i)
  {
    while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &bar, parity))
    {
    }
    parity ^= 1u;
  }
  *out = parity;
}

// PTX-LABEL: .entry ptxw_wait_loop(
// PTX:       [[SPIN:\$L__BB[0-9_]+]]:
// PTX:       mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 P_OUT, [%r{{[0-9]+}}], [[PAR:%r[0-9]+]];
// PTX-NOT:   xor
// PTX:       bra{{(\.uni)?}} [[SPIN]];
// PTX:       xor.b32 [[PAR]], [[PAR]], 1;
// PTX:       st.global.u32 [%rd{{[0-9]+}}], [[PAR]];
// PTX-LABEL: .entry ref_wait_loop(

// The spin loop is SHF + TRYWAIT + branch; the parity register flips (LOP3 xor 1) once per
// completed wait, outside it, and is what the kernel stores.
// SASS-LABEL: Function : ptxw_wait_loop
// SASS:       SHF.L.U32 R[[BIT:[0-9]+]], R[[PAR:[0-9]+]], 0x1f, RZ ;
// SASS-NEXT:  SYNCS.PHASECHK.TRANS64.TRYWAIT P[[OK:[0-9]]], [UR{{[0-9]+}}], R[[BIT]] ;
// SASS-NEXT:  @!P[[OK]] BRA
// SASS:       LOP3.LUT R[[PAR]], R[[PAR]], 0x1, RZ, 0x3c, !PT ;
// SASS:       STG.E desc[UR{{[0-9]+}}][R{{[0-9]+}}.64], R[[PAR]] ;
// SASS-NOT:   {{SEL|LOP3}}
// SASS-LABEL: Function : ref_wait_loop
