// mbarrier.arrive with ptxw::arrivals{n} from a kernel parameter: .release.cta with a count register.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_arrive_count(unsigned n)
{
  __shared__ ptxw::cta_barrier bar;
  bar.arrive(ptxw::arrivals{n});
}

extern "C" __global__ void ref_arrive_count(unsigned n)
{
  __shared__ uint64_t bar;
  ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, n);
}

// PTX-LABEL: .entry ptxw_arrive_count(
// PTX:       ld.param.u32 [[N:%r[0-9]+]], [ptxw_arrive_count_param_0];
// PTX:       mbarrier.arrive.release.cta.shared::cta.b64 %rd{{[0-9]+}}, [%r{{[0-9]+}}], [[N]];
// PTX-LABEL: .entry ref_arrive_count(

// SASS-LABEL: Function : ptxw_arrive_count
// SASS:       LDC R[[N:[0-9]+]], c[0x0][{{0x210|0x380}}] ;
// SASS-NOT:   {{MEMBAR|ERRBAR|SYNCS}}
// SASS:       SYNCS.ARRIVE.TRANS64.ART0 RZ, [UR{{[0-9]+}}], R[[N]] ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_arrive_count
