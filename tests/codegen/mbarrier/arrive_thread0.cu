// Thread 0 alone arrives with a count for its warp: a single SYNCS.ARRIVE, no per-lane waterfall loop.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_arrive_thread0()
{
  __shared__ ptxw::cta_barrier bar;
  if (threadIdx.x == 0)
  {
    bar.arrive(ptxw::arrivals{32});
  }
}

extern "C" __global__ void ref_arrive_thread0()
{
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
  {
    ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, 32);
  }
}

// PTX-LABEL: .entry ptxw_arrive_thread0(
// PTX:       mov.{{[bu]}}32 [[N:%r[0-9]+]], 32;
// PTX:       mbarrier.arrive.release.cta.shared::cta.b64 %rd{{[0-9]+}}, [%r{{[0-9]+}}], [[N]];
// PTX-LABEL: .entry ref_arrive_thread0(

// SASS-LABEL: Function : ptxw_arrive_thread0
// SASS:       ISETP.NE.AND P[[NOT0:[0-9]]], PT, R{{[0-9]+}}, RZ, PT ;
// SASS-NEXT:  @P[[NOT0]] EXIT ;
// SASS-NOT:   {{ELECT|BRA|MEMBAR|SYNCS}}
// SASS:       HFMA2{{(\.MMA)?}} R[[N:[0-9]+]], -RZ, RZ, 0, 1.9073486328125e-06 ;
// SASS-NOT:   {{ELECT|BRA|MEMBAR|SYNCS}}
// SASS-COUNT-1: SYNCS.ARRIVE.TRANS64.ART0 RZ, [UR{{[0-9]+}}], R[[N]] ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_arrive_thread0
