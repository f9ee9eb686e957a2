// try_wait with a suspend_hint and (relaxed, cluster): the four-operand relaxed form.
// REQUIRES: mbarrier-tx, mbarrier-relaxed
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_try_wait_hint_relaxed_cluster(int* out)
{
  __shared__ ptxw::cluster_barrier bar;
  ptxw::phase ph;
  *out = bar.try_wait(ptx::sem_relaxed, ptx::scope_cluster, ph, ptxw::suspend_hint{1000});
}

extern "C" __global__ void ref_try_wait_hint_relaxed_cluster(int* out)
{
  __shared__ uint64_t bar;
  *out = ptx::mbarrier_try_wait_parity(ptx::sem_relaxed, ptx::scope_cluster, &bar, 0u, 1000u);
}

// PTX-LABEL: .entry ptxw_try_wait_hint_relaxed_cluster(
// PTX-DAG:   mov.{{[bu]}}32 [[PAR:%r[0-9]+]], 0;
// PTX-DAG:   mov.{{[bu]}}32 [[NS:%r[0-9]+]], 1000;
// PTX:       mbarrier.try_wait.parity.relaxed.cluster.shared::cta.b64 P_OUT, [%r{{[0-9]+}}], [[PAR]], [[NS]];
// PTX-LABEL: .entry ref_try_wait_hint_relaxed_cluster(

// SASS-LABEL: Function : ptxw_try_wait_hint_relaxed_cluster
// SASS:       SHF.L.U32 R[[PAR:[0-9]+]], RZ, 0x1f, RZ ;
// SASS-NOT:   SYNCS
// SASS:       SYNCS.PHASECHK.TRANS64.TRYWAIT P[[OK:[0-9]]], [R[[BAR:[0-9]+]]+URZ], R[[PAR]] ;
// SASS-NEXT:  @!P[[OK]] NANOSLEEP.SYNCS 0x3e8 ;
// SASS-NEXT:  @!P[[OK]] SYNCS.PHASECHK.TRANS64 P[[OK]], [R[[BAR]]+URZ], R[[PAR]] ;
// SASS-NOT:   {{SYNCS|MEMBAR|BRA|CCTL}}
// SASS:       SEL R[[RES:[0-9]+]], RZ, 0x1, !P[[OK]] ;
// SASS-NEXT:  STG.E desc[UR{{[0-9]+}}][R{{[0-9]+}}.64], R[[RES]] ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_try_wait_hint_relaxed_cluster
