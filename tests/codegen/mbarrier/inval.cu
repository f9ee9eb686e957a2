// mbarrier.inval on a shared::cta barrier.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_inval()
{
  __shared__ ptxw::cta_barrier bar;
  bar.inval();
}

extern "C" __global__ void ref_inval()
{
  __shared__ uint64_t bar;
  asm volatile("mbarrier.inval.shared::cta.b64 [%0];" : : "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&bar)))
               : "memory");
}

// PTX-LABEL: .entry ptxw_inval(
// PTX:       mbarrier.inval.shared::cta.b64 [%r{{[0-9]+}}];
// PTX-LABEL: .entry ref_inval(

// SASS-LABEL: Function : ptxw_inval
// SASS-NOT:   {{MEMBAR|SYNCS}}
// SASS:       SYNCS.CCTL.IV [UR{{[0-9]+}}] ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_inval
