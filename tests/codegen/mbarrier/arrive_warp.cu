// Every lane arrives on its warp's barrier (bars[warp]): the address is in a vector register.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_arrive_warp()
{
  __shared__ ptxw::cta_barrier bars[4];
  bars[threadIdx.x / 32].arrive();
}

extern "C" __global__ void ref_arrive_warp()
{
  __shared__ uint64_t bars[4];
  ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bars[threadIdx.x / 32]);
}

// PTX-LABEL: .entry ptxw_arrive_warp(
// PTX:       mov.u32 %r{{[0-9]+}}, %tid.x;
// PTX:       mbarrier.arrive.release.cta.shared::cta.b64 %rd{{[0-9]+}}, [%r{{[0-9]+}}];
// PTX-LABEL: .entry ref_arrive_warp(

// SASS-LABEL: Function : ptxw_arrive_warp
// SASS:       S2R R[[TID:[0-9]+]], SR_TID.X ;
// SASS:       SHF.R.U32.HI R[[OFF:[0-9]+]], RZ, 0x2, R[[TID]] ;
// SASS-NOT:   {{ELECT|BRA|MEMBAR|SYNCS}}
// SASS-COUNT-1: SYNCS.ARRIVE.TRANS64.A1T0 RZ, [R[[OFF]]+UR{{[0-9]+}}], RZ ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_arrive_warp
