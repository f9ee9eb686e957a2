// mbarrier.try_wait.parity on a cluster_barrier defaults to .acquire.cluster, which invalidates L1 (CCTL.IVALL).
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_try_wait_cluster(int* out)
{
  __shared__ ptxw::cluster_barrier bar;
  ptxw::phase ph;
  *out = bar.try_wait(ph);
}

extern "C" __global__ void ref_try_wait_cluster(int* out)
{
  __shared__ uint64_t bar;
  *out = ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cluster, &bar, 0u);
}

// PTX-LABEL: .entry ptxw_try_wait_cluster(
// PTX-DAG:   mov.{{[bu]}}32 [[PAR:%r[0-9]+]], 0;
// PTX:       mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 P_OUT, [%r{{[0-9]+}}], [[PAR]];
// PTX-LABEL: .entry ref_try_wait_cluster(

// SASS-LABEL: Function : ptxw_try_wait_cluster
// SASS:       SHF.L.U32 R[[PAR:[0-9]+]], RZ, 0x1f, RZ ;
// SASS-NOT:   SYNCS
// SASS:       SYNCS.PHASECHK.TRANS64.TRYWAIT P[[OK:[0-9]]], [UR{{[0-9]+}}], R[[PAR]] ;
// SASS-NEXT:  @P[[OK]] CCTL.IVALL ;
// SASS-NOT:   {{SYNCS|MEMBAR|BRA|NANOSLEEP}}
// SASS:       SEL R[[RES:[0-9]+]], RZ, 0x1, !P[[OK]] ;
// SASS-NEXT:  STG.E desc[UR{{[0-9]+}}][R{{[0-9]+}}.64], R[[RES]] ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_try_wait_cluster
