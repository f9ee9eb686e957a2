// fence_after_slot_read(): a thread is done reading a slot the async proxy writes (R4), which is
// fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster.
// REQUIRES: fence-sync-restrict
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/fence.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_after_slot_read()
{
  ptxw::fence_after_slot_read();
}

extern "C" __global__ void ref_after_slot_read()
{
  ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_release, ptx::space_shared, ptx::scope_cluster);
}

// PTX-LABEL: .entry ptxw_after_slot_read(
// PTX-NOT:   fence
// PTX:       fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;
// PTX-NOT:   fence
// PTX-LABEL: .entry ref_after_slot_read(

// SASS-LABEL: Function : ptxw_after_slot_read{{$}}
// SASS-NOT:   {{MEMBAR|FENCE}}
// SASS:       MEMBAR.ALL.CTA ;
// SASS-NEXT:  FENCE.VIEW.ASYNC.S ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_after_slot_read{{$}}
