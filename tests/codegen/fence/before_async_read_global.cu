// fence_before_async_read(space_global): the fence after generic writes to global memory that an
// async-proxy operation (a TMA load, cp.async.bulk global->shared) reads later.
// REQUIRES: fence-proxy-async
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/fence.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_before_async_read_global()
{
  ptxw::fence_before_async_read(ptx::space_global);
}

extern "C" __global__ void ref_before_async_read_global()
{
  ptx::fence_proxy_async(ptx::space_global);
}

// PTX-LABEL: .entry ptxw_before_async_read_global(
// PTX-NOT:   fence
// PTX:       fence.proxy.async.global;
// PTX-NOT:   fence
// PTX-LABEL: .entry ref_before_async_read_global(

// The protocol step is fence.proxy.async.global and nothing more.
// SASS-LABEL: Function : ptxw_before_async_read_global{{$}}
// SASS-NOT:   {{MEMBAR|FENCE}}
// SASS:       FENCE.VIEW.ASYNC.G ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_before_async_read_global{{$}}
