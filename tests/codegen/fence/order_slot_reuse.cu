// Ordering (R4): threads read a slot the async proxy wrote, fence_after_slot_read, synchronise, and
// the thread that refills the slot runs fence_before_slot_write before issuing the async write.
// REQUIRES: fence-sync-restrict
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <cuda/ptx> // the other instructions of the sequence (ptxw headers include only their own)
#include <ptxw/fence.h>
#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_slot_reuse(const int4* src, int* out)
{
  __shared__ alignas(16) int4 slot;
  __shared__ ptxw::cta_barrier bar;
  int v = slot.x;
  ptxw::fence_after_slot_read();
  __syncthreads();
  if (threadIdx.x == 0)
  {
    ptxw::fence_before_slot_write();
    ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, &slot, src, sizeof(slot), bar.native_handle());
  }
  out[threadIdx.x] = v;
}

extern "C" __global__ void ref_slot_reuse(const int4* src, int* out)
{
  __shared__ alignas(16) int4 slot;
  __shared__ uint64_t bar;
  int v = slot.x;
  ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_release, ptx::space_shared, ptx::scope_cluster);
  __syncthreads();
  if (threadIdx.x == 0)
  {
    ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);
    ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, &slot, src, sizeof(slot), &bar);
  }
  out[threadIdx.x] = v;
}

// PTX-LABEL: .entry ptxw_slot_reuse(
// PTX-NOT:   fence
// PTX:       ld.shared.u32 %r{{[0-9]+}}, [
// PTX-NOT:   fence
// PTX:       fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;
// PTX-NOT:   fence
// PTX:       bar.sync 0;
// PTX-NOT:   fence
// PTX:       fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;
// PTX-NOT:   fence
// PTX:       cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [
// PTX-NOT:   fence
// PTX-LABEL: .entry ref_slot_reuse(

// The acquire fence leaves only a NOP, first in the if block, before the copy.
// SASS-LABEL: Function : ptxw_slot_reuse{{$}}
// SASS-NOT:   {{MEMBAR|FENCE|UBLKCP}}
// SASS:       LDS R{{[0-9]+}}, [{{.+}}] ;
// SASS-NOT:   {{MEMBAR|FENCE|UBLKCP}}
// SASS:       MEMBAR.ALL.CTA ;
// SASS-NEXT:  FENCE.VIEW.ASYNC.S ;
// SASS-NOT:   {{MEMBAR|FENCE|UBLKCP}}
// SASS:       BAR.SYNC.DEFER_BLOCKING 0x0 ;
// SASS-NOT:   {{MEMBAR|FENCE|UBLKCP}}
// SASS:       NOP ;
// SASS-NOT:   {{MEMBAR|FENCE}}
// SASS:       UBLKCP.S.G [UR{{[0-9]+}}], [UR{{[0-9]+}}], UR{{[0-9]+}} ;
// SASS-NOT:   {{MEMBAR|FENCE|UBLKCP}}
// SASS-LABEL: Function : ref_slot_reuse{{$}}
