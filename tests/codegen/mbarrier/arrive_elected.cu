// One elected lane per warp arrives (elect.sync): a single SYNCS.ARRIVE, no per-lane waterfall loop.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

// elect.sync (cuda::ptx in CCCL 3.0.1 has no binding for it): true in exactly one lane of the warp.
__device__ inline bool elect_one_lane()
{
  uint32_t elected;
  asm volatile("{\n\t.reg .pred P;\n\telect.sync _|P, 0xffffffff;\n\tselp.b32 %0, 1, 0, P;\n}" : "=r"(elected));
  return elected != 0;
}

extern "C" __global__ void ptxw_arrive_elected()
{
  __shared__ ptxw::cta_barrier bar;
  if (elect_one_lane())
  {
    bar.arrive();
  }
}

extern "C" __global__ void ref_arrive_elected()
{
  __shared__ uint64_t bar;
  if (elect_one_lane())
  {
    ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar);
  }
}

// PTX-LABEL: .entry ptxw_arrive_elected(
// PTX:       elect.sync _|P, 0xffffffff;
// PTX:       mbarrier.arrive.release.cta.shared::cta.b64 %rd{{[0-9]+}}, [%r{{[0-9]+}}];
// PTX-LABEL: .entry ref_arrive_elected(

// SASS-LABEL: Function : ptxw_arrive_elected
// SASS:       ELECT P[[E:[0-9]]], URZ, PT ;
// SASS-NEXT:  @!P[[E]] EXIT ;
// SASS-NOT:   {{ELECT|BRA|MEMBAR|SYNCS}}
// SASS-COUNT-1: SYNCS.ARRIVE.TRANS64.A1T0 RZ, [UR{{[0-9]+}}], RZ ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_arrive_elected
