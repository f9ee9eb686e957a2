// fence.proxy.async with no state space: generic -> async proxy, all state spaces.
// REQUIRES: fence-proxy-async
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/fence.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_proxy_async()
{
  ptxw::fence_proxy_async();
}

extern "C" __global__ void ref_proxy_async()
{
  ptx::fence_proxy_async();
}

// PTX-LABEL: .entry ptxw_proxy_async(
// PTX-NOT:   fence
// PTX:       fence.proxy.async;
// PTX-NOT:   fence
// PTX-LABEL: .entry ref_proxy_async(

// Covers shared::cluster too, so it is the GPU-scope membar, not the CTA one. Its SASS is the same
// as fence.proxy.async.shared::cluster's: only the PTX check tells the two apart.
// SASS-LABEL: Function : ptxw_proxy_async{{$}}
// SASS-NOT:   {{MEMBAR|FENCE}}
// SASS:       MEMBAR.ALL.GPU ;
// SASS-NEXT:  FENCE.VIEW.ASYNC.S ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_proxy_async{{$}}
