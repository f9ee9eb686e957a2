// mbarrier.arrive.relaxed.cta: no release fence.
// REQUIRES: mbarrier-tx, mbarrier-relaxed
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_arrive_relaxed()
{
  __shared__ ptxw::cta_barrier bar;
  bar.arrive(ptx::sem_relaxed, ptx::scope_cta);
}

extern "C" __global__ void ref_arrive_relaxed()
{
  __shared__ uint64_t bar;
  ptx::mbarrier_arrive(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar);
}

// PTX-LABEL: .entry ptxw_arrive_relaxed(
// PTX:       mbarrier.arrive.relaxed.cta.shared::cta.b64 %rd{{[0-9]+}}, [%r{{[0-9]+}}];
// PTX-LABEL: .entry ref_arrive_relaxed(

// SASS-LABEL: Function : ptxw_arrive_relaxed
// SASS-NOT:   {{MEMBAR|ERRBAR|SYNCS}}
// SASS:       SYNCS.ARRIVE.TRANS64.A1T0 RZ, [UR{{[0-9]+}}], RZ ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_arrive_relaxed
