// fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster, the release form of the
// sync_restrict proxy fence, spelled with cuda::ptx tags.
// REQUIRES: fence-sync-restrict
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/fence.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_proxy_async_generic_release()
{
  ptxw::fence_proxy_async_generic(ptx::sem_release, ptx::space_shared, ptx::scope_cluster);
}

extern "C" __global__ void ref_proxy_async_generic_release()
{
  ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_release, ptx::space_shared, ptx::scope_cluster);
}

// PTX-LABEL: .entry ptxw_proxy_async_generic_release(
// PTX-NOT:   fence
// PTX:       fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;
// PTX-NOT:   fence
// PTX-LABEL: .entry ref_proxy_async_generic_release(

// Same SASS as fence.proxy.async.shared::cta: CTA-scope membar + shared view fence.
// SASS-LABEL: Function : ptxw_proxy_async_generic_release{{$}}
// SASS-NOT:   {{MEMBAR|FENCE}}
// SASS:       MEMBAR.ALL.CTA ;
// SASS-NEXT:  FENCE.VIEW.ASYNC.S ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_proxy_async_generic_release{{$}}
