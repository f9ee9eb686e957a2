// wait(ph) on a cluster_barrier: every try of the loop is .acquire.cluster, with CCTL.IVALL on success.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_wait_cluster()
{
  __shared__ ptxw::cluster_barrier bar;
  ptxw::phase ph;
  bar.wait(ph);
}

extern "C" __global__ void ref_wait_cluster()
{
  __shared__ uint64_t bar;
  while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cluster, &bar, 0u))
  {
  }
}

// PTX-LABEL: .entry ptxw_wait_cluster(
// PTX-DAG:   mov.{{[bu]}}32 [[PAR:%r[0-9]+]], 0;
// PTX-DAG:   [[SPIN:\$L__BB[0-9_]+]]:
// PTX:       mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 P_OUT, [%r{{[0-9]+}}], [[PAR]];
// PTX-NOT:   xor
// PTX:       bra{{(\.uni)?}} [[SPIN]];
// PTX-NOT:   xor
// PTX:       ret;
// PTX-LABEL: .entry ref_wait_cluster(

// The spin loop retries the same parity; the phase flips once, after the loop (nothing is left of
// it here, as the phase is dead): no SEL/LOP3 carrying it through the loop.
// SASS-LABEL: Function : ptxw_wait_cluster
// SASS-NOT:   {{SEL|LOP3|MEMBAR|NANOSLEEP}}
// SASS:       SHF.L.U32 R[[PAR:[0-9]+]], RZ, 0x1f, RZ ;
// SASS-NOT:   {{SEL|LOP3|MEMBAR|NANOSLEEP}}
// SASS:       SYNCS.PHASECHK.TRANS64.TRYWAIT P[[OK:[0-9]]], [UR{{[0-9]+}}], R[[PAR]] ;
// SASS-NEXT:  @P[[OK]] CCTL.IVALL ;
// SASS-NEXT:  @!P[[OK]] BRA
// SASS-NOT:   {{SEL|LOP3|MEMBAR|NANOSLEEP}}
// SASS-LABEL: Function : ref_wait_cluster
