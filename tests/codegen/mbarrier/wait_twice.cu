// Two consecutive waits on one phase object: the first waits on parity 0, the second on parity 1.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_wait_twice()
{
  __shared__ ptxw::cta_barrier bar;
  ptxw::phase ph;
  bar.wait(ph);
  bar.wait(ph);
}

extern "C" __global__ void ref_wait_twice()
{
  __shared__ uint64_t bar;
  while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &bar, 0u))
  {
  }
  while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &bar, 1u))
  {
  }
}

// PTX-LABEL: .entry ptxw_wait_twice(
// PTX:       mov.{{[bu]}}32 [[PAR0:%r[0-9]+]], 0;
// PTX:       mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 P_OUT, [%r{{[0-9]+}}], [[PAR0]];
// PTX-NOT:   xor
// PTX:       mov.{{[bu]}}32 [[PAR1:%r[0-9]+]], 1;
// PTX:       mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 P_OUT, [%r{{[0-9]+}}], [[PAR1]];
// PTX-NOT:   xor
// PTX-LABEL: .entry ref_wait_twice(

// Parity 0 then parity 1 (bit 31 of the operand), each a constant; sm_12x builds the 1 with HFMA2.
// SASS-LABEL: Function : ptxw_wait_twice
// SASS-NOT:   {{SEL|LOP3}}
// SASS:       SHF.L.U32 R[[PAR0:[0-9]+]], RZ, 0x1f, RZ ;
// SASS:       SYNCS.PHASECHK.TRANS64.TRYWAIT P{{[0-9]}}, [UR[[BAR:[0-9]+]]], R[[PAR0]] ;
// SASS-NOT:   {{SEL|LOP3}}
// SASS-SM9X:  IMAD.MOV.U32 R[[ONE:[0-9]+]], RZ, RZ, 0x1 ;
// SASS-SM10X: IMAD.MOV.U32 R[[ONE:[0-9]+]], RZ, RZ, 0x1 ;
// SASS-SM11X: IMAD.MOV.U32 R[[ONE:[0-9]+]], RZ, RZ, 0x1 ;
// SASS-SM12X: HFMA2 R[[ONE:[0-9]+]], -RZ, RZ, 0, 5.9604644775390625e-08 ;
// SASS:       SHF.L.U32 R[[PAR1:[0-9]+]], R[[ONE]], 0x1f, RZ ;
// SASS-NOT:   {{SEL|LOP3}}
// SASS:       SYNCS.PHASECHK.TRANS64.TRYWAIT P{{[0-9]}}, [UR[[BAR]]], R[[PAR1]] ;
// SASS-NOT:   {{SEL|LOP3}}
// SASS-LABEL: Function : ref_wait_twice
