// mbarrier.init with an arrival count from a kernel parameter (a register operand).
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_init_runtime(unsigned count)
{
  __shared__ ptxw::cta_barrier bar;
  bar.init(ptxw::arrivals{count});
}

extern "C" __global__ void ref_init_runtime(unsigned count)
{
  __shared__ uint64_t bar;
  ptx::mbarrier_init(&bar, count);
}

// PTX-LABEL: .entry ptxw_init_runtime(
// PTX:       ld.param.u32 [[COUNT:%r[0-9]+]], [ptxw_init_runtime_param_0];
// PTX:       mbarrier.init.shared.b64 [%r{{[0-9]+}}], [[COUNT]];
// PTX-LABEL: .entry ref_init_runtime(

// SASS-LABEL: Function : ptxw_init_runtime
// SASS:       {{ULDC|LDCU}} UR[[COUNT:[0-9]+]], c[0x0][{{0x210|0x380}}] ;
// SASS:       UIADD3 UR{{[0-9]+}}, {{(UPT, UPT, )?}}-UR[[COUNT]], 0x100000, URZ ;
// SASS-NOT:   {{MEMBAR|SYNCS}}
// SASS:       SYNCS.EXCH.64 URZ, [UR{{[0-9]+}}], UR{{[0-9]+}} ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_init_runtime
