// mbarrier.arrive with the defaults: .release at the barrier's own scope (.cta).
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_arrive()
{
  __shared__ ptxw::cta_barrier bar;
  bar.arrive();
}

extern "C" __global__ void ref_arrive()
{
  __shared__ uint64_t bar;
  ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar);
}

// PTX-LABEL: .entry ptxw_arrive(
// PTX:       mbarrier.arrive.release.cta.shared::cta.b64
// PTX-LABEL: .entry ref_arrive(

// SASS-LABEL: Function : ptxw_arrive
// SASS-NOT:   MEMBAR
// SASS:       SYNCS.ARRIVE.TRANS64.A1T0 RZ, [UR{{[0-9]+}}], RZ ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_arrive
