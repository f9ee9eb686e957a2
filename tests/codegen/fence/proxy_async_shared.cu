// fence.proxy.async.shared::cta: generic accesses to this CTA's shared memory -> async proxy.
// REQUIRES: fence-proxy-async
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/fence.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_proxy_async_shared()
{
  ptxw::fence_proxy_async(ptx::space_shared);
}

extern "C" __global__ void ref_proxy_async_shared()
{
  ptx::fence_proxy_async(ptx::space_shared);
}

// PTX-LABEL: .entry ptxw_proxy_async_shared(
// PTX-NOT:   fence
// PTX:       fence.proxy.async.shared::cta;
// PTX-NOT:   fence
// PTX-LABEL: .entry ref_proxy_async_shared(

// CTA shared memory: a CTA-scope membar (MEMBAR.ALL.GPU here would mean the wrong space).
// SASS-LABEL: Function : ptxw_proxy_async_shared{{$}}
// SASS-NOT:   {{MEMBAR|FENCE}}
// SASS:       MEMBAR.ALL.CTA ;
// SASS-NEXT:  FENCE.VIEW.ASYNC.S ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_proxy_async_shared{{$}}
