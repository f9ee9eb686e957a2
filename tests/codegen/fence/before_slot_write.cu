// fence_before_slot_write(): the thread about to issue the async write into a slot (R4), which is
// fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster.
// REQUIRES: fence-sync-restrict
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/fence.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_before_slot_write()
{
  ptxw::fence_before_slot_write();
}

extern "C" __global__ void ref_before_slot_write()
{
  ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);
}

// PTX-LABEL: .entry ptxw_before_slot_write(
// PTX-NOT:   fence
// PTX:       fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;
// PTX-NOT:   fence
// PTX-LABEL: .entry ref_before_slot_write(

// No fence in SASS (see proxy_async_generic_acquire.cu): only the NOP it leaves, which
// fence.mbarrier_init leaves too; the PTX check is what pins the instruction.
// SASS-LABEL: Function : ptxw_before_slot_write{{$}}
// SASS-NOT:   {{MEMBAR|FENCE}}
// SASS:       NOP ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_before_slot_write{{$}}
