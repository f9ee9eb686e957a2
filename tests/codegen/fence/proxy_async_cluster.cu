// fence.proxy.async.shared::cluster: generic accesses to cluster shared memory -> async proxy.
// REQUIRES: fence-proxy-async
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/fence.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_proxy_async_cluster()
{
  ptxw::fence_proxy_async(ptx::space_cluster);
}

extern "C" __global__ void ref_proxy_async_cluster()
{
  ptx::fence_proxy_async(ptx::space_cluster);
}

// PTX-LABEL: .entry ptxw_proxy_async_cluster(
// PTX-NOT:   fence
// PTX:       fence.proxy.async.shared::cluster;
// PTX-NOT:   fence
// PTX-LABEL: .entry ref_proxy_async_cluster(

// Shared memory of other CTAs of the cluster: the GPU-scope membar, then the shared view fence.
// The same SASS as the generic fence.proxy.async: only the PTX check tells the two apart.
// SASS-LABEL: Function : ptxw_proxy_async_cluster{{$}}
// SASS-NOT:   {{MEMBAR|FENCE}}
// SASS:       MEMBAR.ALL.GPU ;
// SASS-NEXT:  FENCE.VIEW.ASYNC.S ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_proxy_async_cluster{{$}}
