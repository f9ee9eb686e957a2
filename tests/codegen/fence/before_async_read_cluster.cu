// fence_before_async_read(space_cluster): the fence after generic writes to shared memory that an
// async-proxy operation of any CTA of the cluster reads later.
// REQUIRES: fence-proxy-async
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/fence.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_before_async_read_cluster()
{
  ptxw::fence_before_async_read(ptx::space_cluster);
}

extern "C" __global__ void ref_before_async_read_cluster()
{
  ptx::fence_proxy_async(ptx::space_cluster);
}

// PTX-LABEL: .entry ptxw_before_async_read_cluster(
// PTX-NOT:   fence
// PTX:       fence.proxy.async.shared::cluster;
// PTX-NOT:   fence
// PTX-LABEL: .entry ref_before_async_read_cluster(

// The protocol step is fence.proxy.async.shared::cluster: GPU-scope membar + shared view fence.
// SASS-LABEL: Function : ptxw_before_async_read_cluster{{$}}
// SASS-NOT:   {{MEMBAR|FENCE}}
// SASS:       MEMBAR.ALL.GPU ;
// SASS-NEXT:  FENCE.VIEW.ASYNC.S ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_before_async_read_cluster{{$}}
