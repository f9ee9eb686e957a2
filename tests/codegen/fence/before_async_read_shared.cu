// fence_before_async_read(space_shared): the fence after generic writes to this CTA's shared memory
// that an async-proxy operation (a TMA store, cp.async.bulk shared->global) reads later.
// REQUIRES: fence-proxy-async
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/fence.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_before_async_read_shared()
{
  ptxw::fence_before_async_read(ptx::space_shared);
}

extern "C" __global__ void ref_before_async_read_shared()
{
  ptx::fence_proxy_async(ptx::space_shared);
}

// PTX-LABEL: .entry ptxw_before_async_read_shared(
// PTX-NOT:   fence
// PTX:       fence.proxy.async.shared::cta;
// PTX-NOT:   fence
// PTX-LABEL: .entry ref_before_async_read_shared(

// The protocol step is fence.proxy.async.shared::cta: CTA-scope membar + shared view fence.
// SASS-LABEL: Function : ptxw_before_async_read_shared{{$}}
// SASS-NOT:   {{MEMBAR|FENCE}}
// SASS:       MEMBAR.ALL.CTA ;
// SASS-NEXT:  FENCE.VIEW.ASYNC.S ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_before_async_read_shared{{$}}
