// fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster, the acquire form of the
// sync_restrict proxy fence, spelled with cuda::ptx tags.
// REQUIRES: fence-sync-restrict
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/fence.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_proxy_async_generic_acquire()
{
  ptxw::fence_proxy_async_generic(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);
}

extern "C" __global__ void ref_proxy_async_generic_acquire()
{
  ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);
}

// PTX-LABEL: .entry ptxw_proxy_async_generic_acquire(
// PTX-NOT:   fence
// PTX:       fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;
// PTX-NOT:   fence
// PTX-LABEL: .entry ref_proxy_async_generic_acquire(

// ptxas 13.0 emits no fence for it: no MEMBAR, no FENCE.VIEW, only a NOP where it stood (an empty
// kernel is LDC + EXIT). The PTX above is what shows the fence is there.
// SASS-LABEL: Function : ptxw_proxy_async_generic_acquire{{$}}
// SASS-NOT:   {{MEMBAR|FENCE}}
// SASS:       NOP ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_proxy_async_generic_acquire{{$}}
