// fence.proxy.async.global: generic writes to global memory -> async-proxy accesses.
// REQUIRES: fence-proxy-async
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/fence.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_proxy_async_global()
{
  ptxw::fence_proxy_async(ptx::space_global);
}

extern "C" __global__ void ref_proxy_async_global()
{
  ptx::fence_proxy_async(ptx::space_global);
}

// PTX-LABEL: .entry ptxw_proxy_async_global(
// PTX-NOT:   fence
// PTX:       fence.proxy.async.global;
// PTX-NOT:   fence
// PTX-LABEL: .entry ref_proxy_async_global(

// Global only: the global view fence alone, no MEMBAR and no shared-memory view fence.
// SASS-LABEL: Function : ptxw_proxy_async_global{{$}}
// SASS-NOT:   {{MEMBAR|FENCE}}
// SASS:       FENCE.VIEW.ASYNC.G ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_proxy_async_global{{$}}
