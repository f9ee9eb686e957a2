// mbarrier.init with a constant arrival count: SYNCS.EXCH.64 of the initial word computed from the constant.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_init()
{
  __shared__ ptxw::cta_barrier bar;
  bar.init(ptxw::arrivals{128});
}

extern "C" __global__ void ref_init()
{
  __shared__ uint64_t bar;
  ptx::mbarrier_init(&bar, 128);
}

// PTX-LABEL: .entry ptxw_init(
// PTX:       mov.{{[bu]}}32 [[COUNT:%r[0-9]+]], 128;
// PTX:       mbarrier.init.shared.b64 [%r{{[0-9]+}}], [[COUNT]];
// PTX-LABEL: .entry ref_init(

// The phase word is built from 2^20 - count, then written with one SYNCS.EXCH.64.
// SASS-LABEL: Function : ptxw_init
// SASS:       UMOV UR[[COUNT:[0-9]+]], 0x80 ;
// SASS:       UIADD3 UR{{[0-9]+}}, {{(UPT, UPT, )?}}-UR[[COUNT]], 0x100000, URZ ;
// SASS-NOT:   {{MEMBAR|SYNCS}}
// SASS:       SYNCS.EXCH.64 URZ, [UR{{[0-9]+}}], UR{{[0-9]+}} ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_init
