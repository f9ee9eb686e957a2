// The CUDA programming guide's work-stealing vector-scalar kernel for thread blocks (section
// 4.12.2.1, "Cluster Launch Control"), written with ptxw's low-level API (open, started, request,
// wait().decode) and, as its twin, in plain cuda::ptx following the guide. The twin departs from
// the guide where ptxw's protocol differs, and only there:
//   - the request is made by the lane elect.sync picks in warp 0, not by thread 0 through
//     cg::invoke_one(cg::coalesced_threads(), ...) -- that compiles to a waterfall loop around the
//     try_cancel (the guide_ kernel below shows it);
//   - the leader that initialises the barrier is threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
//   - (as every twin) the same __shared__ layout as the ptxw kernel: result and barrier side by side
//     in one struct, where the guide declares two variables -- with two, ptxas addresses the barrier
//     from a symbol of its own and schedules the kernel differently;
//   - the response is read once, 16 bytes at a time, and released right after that read, on every
//     path (the guide fences after decoding, on the success path only): ptxw's wait() releases the
//     slot before it returns the response.
// REQUIRES: clc
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/clc.h>

#include "Inputs/guide.h"

#include <cooperative_groups.h>

namespace cg  = cooperative_groups;
namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_guide_thread_blocks(float* data, int n, ptxw::clc::context<ptxw::clc::hardware_t> ctx)
{
  __shared__ ptxw::clc::slot<ptxw::clc::cta_t> slot;
  ptxw_guide(slot, ctx, data, n, [] { __syncthreads(); });
}

extern "C" __global__ void ref_guide_thread_blocks(float* data, int n, ptxw::clc::context<ptxw::clc::hardware_t> ctx)
{
  (void) ctx;
  // Cluster launch control initialization (the result and its barrier side by side, as in ptxw's slot):
  __shared__ clc_storage storage;
  uint4& result = storage.result;
  uint64_t& bar = storage.bar;
  int phase     = 0;
  ref_init(storage);

  // Prologue:
  float alpha = compute_scalar();

  // Work-stealing loop:
  int bx = blockIdx.x; // Assuming 1D x-axis thread blocks.

  while (true)
  {
    // Protect result from overwrite in the next iteration,
    // (also ensure barrier initialization at 1st iteration):
    __syncthreads();

    // Cancellation request:
    if (ref_first_warp())
    {
      if (ref_elect_one())
      {
        // Acquire write of result in the async proxy:
        ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);

        ptx::clusterlaunchcontrol_try_cancel(&result, &bar);
        ptx::mbarrier_arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar, sizeof(uint4));
      }
    }

    // Computation:
    scale_block(data, n, alpha, bx);

    // Cancellation request synchronization, one read of the result, its release to the async
    // proxy, then decoding:
    if (!ref_decode_x(ref_wait(storage, phase, ptx::scope_cta), bx))
    {
      break;
    }
  }
}

// The guide's kernel as printed (no twin): thread 0 submits through cg::invoke_one.
extern "C" __global__ void guide_thread_blocks(float* data, int n)
{
  // Cluster launch control initialization:
  __shared__ uint4 result;
  __shared__ uint64_t bar;
  int phase = 0;

  if (cg::thread_block::thread_rank() == 0)
  {
    ptx::mbarrier_init(&bar, 1);
  }

  // Prologue:
  float alpha = compute_scalar();

  // Work-stealing loop:
  int bx = blockIdx.x; // Assuming 1D x-axis thread blocks.

  while (true)
  {
    // Protect result from overwrite in the next iteration,
    // (also ensure barrier initialization at 1st iteration):
    __syncthreads();

    // Cancellation request:
    if (cg::thread_block::thread_rank() == 0)
    {
      // Acquire write of result in the async proxy:
      ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);

      cg::invoke_one(cg::coalesced_threads(), [&]() {
        ptx::clusterlaunchcontrol_try_cancel(&result, &bar);
      });
      ptx::mbarrier_arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar, sizeof(uint4));
    }

    // Computation:
    int i = bx * blockDim.x + threadIdx.x;
    if (i < n)
    {
      data[i] *= alpha;
    }

    // Cancellation request synchronization:
    while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &bar, phase))
    {
    }
    phase ^= 1;

    // Cancellation request decoding:
    bool success = ptx::clusterlaunchcontrol_query_cancel_is_canceled(result);
    if (!success)
    {
      break;
    }

    bx = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x<int>(result);

    // Release read of result to the async proxy:
    ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_release, ptx::space_shared, ptx::scope_cluster);
  }
}

// PTX-LABEL: .entry ptxw_guide_thread_blocks(
// PTX:       mbarrier.init.shared.b64
// PTX:       setp.gt.u32 %p{{[0-9]+}}, %r{{[0-9]+}}, 31;
// PTX-NEXT:  bar.sync 0;
// PTX:       elect.sync _|p, %r{{[0-9]+}};
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier|bar.sync}}
// PTX:       fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;
// PTX-NOT:   {{fence|mbarrier|bar.sync}}
// PTX-COUNT-1: clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128
// PTX-NOT:   {{fence|clusterlaunchcontrol|bar.sync}}
// PTX:       mbarrier.arrive.expect_tx.relaxed.cta.shared::cta.b64
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier|bar.sync|ld.shared}}
// PTX:       st.global.f32
// PTX-NOT:   {{fence|clusterlaunchcontrol|bar.sync|ld.shared}}
// PTX:       mbarrier.try_wait.parity.acquire.cta.shared::cta.b64
// PTX-NOT:   {{fence|clusterlaunchcontrol|bar.sync|ld.shared}}
// PTX-COUNT-1: ld.shared.v2.u64
// PTX-NOT:   {{fence|clusterlaunchcontrol|bar.sync|ld.shared}}
// PTX:       fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;
// PTX-NOT:   {{fence|bar.sync|ld.shared|get_first_ctaid::[yz]}}
// PTX:       clusterlaunchcontrol.query_cancel.is_canceled.pred.b128
// PTX-NOT:   {{fence|bar.sync|ld.shared|get_first_ctaid::[yz]}}
// PTX:       clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128
// PTX-NOT:   {{fence|bar.sync|ld.shared|get_first_ctaid::[yz]}}
// PTX:       bra.uni [[LOOP:\$L__BB[0-9_]+]];
// PTX-NOT:   [[LOOP]]:
// PTX-LABEL: .entry ref_guide_thread_blocks(
// The guide's kernel: the release fence after decoding, on the success path only.
// PTX-LABEL: .entry guide_thread_blocks(
// PTX:       ld.shared.v2.u64
// PTX-NOT:   fence
// PTX:       clusterlaunchcontrol.query_cancel.is_canceled.pred.b128
// PTX-NOT:   fence
// PTX:       clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128
// PTX-NOT:   {{ld\.|st\.|bra}}
// PTX:       fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;
// PTX-NOT:   {{ld\.|st\.}}
// PTX:       bra.uni

// One UGETNEXTWORKID behind the ELECT branch and one BAR.SYNC per iteration; the response is one
// LDS.128, released (MEMBAR.ALL.CTA; FENCE.VIEW.ASYNC.S) before is_canceled is tested.
// SASS-LABEL: Function : ptxw_guide_thread_blocks{{$}}
// SASS:       SYNCS.EXCH.64
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY|BAR.SYNC}}
// SASS:       BAR.SYNC.DEFER_BLOCKING 0x0 ;
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY|BAR.SYNC|ELECT}}
// SASS:       ELECT P[[E:[0-9]]], URZ, PT ;
// SASS-NEXT:  @!P[[E]] BRA 0x{{[0-9a-f]+}} ;
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY|BAR.SYNC|ELECT}}
// SASS:       UGETNEXTWORKID.SELFCAST [UR{{[0-9]+}}], [UR{{[0-9]+}}] ;
// SASS-NEXT:  SYNCS.ARRIVE.TRANS64 RZ, [{{.*}}+0x10], R{{[0-9]+}} ;
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY|BAR.SYNC|ELECT|LDS}}
// SASS:       SYNCS.PHASECHK.TRANS64.TRYWAIT
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY|BAR.SYNC|ELECT|LDS}}
// SASS:       LDS.128 R[[#W:]], [R{{[0-9]+}}] ;
// SASS-NEXT:  MEMBAR.ALL.CTA ;
// SASS-NEXT:  FENCE.VIEW.ASYNC.S ;
// SASS-NEXT:  LOP3.LUT P[[C:[0-9]]], RZ, R[[#W+2]], 0x1, RZ, 0xc0, !PT ;
// SASS-NEXT:  @!P[[C]] EXIT ;
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY|BAR.SYNC|ELECT|LDS|MEMBAR|FENCE}}
// SASS:       BRA 0x{{[0-9a-f]+}} ;
// SASS-NEXT:  Function : ref_guide_thread_blocks{{$}}

// The guide's kernel: although cg::invoke_one elects one lane, ptxas predicates the try_cancel
// (@UP) and wraps it in a waterfall loop -- ELECT, UGETNEXTWORKID, BRA.U.ANY back to the ELECT --
// which issues it once per active lane. And the release fence follows the EXIT of the failure path.
// SASS-LABEL: Function : guide_thread_blocks{{$}}
// SASS:       BAR.SYNC.DEFER_BLOCKING 0x0 ;
// SASS:       ELECT P[[E:[0-9]]], URZ, PT ;
// SASS:       {{/\*0*}}[[HEAD:[1-9a-f][0-9a-f]*]]*/ @P[[E]] ELECT P{{[0-9]}}, URZ, PT ;
// SASS-NEXT:  @UP{{[0-9]}} UGETNEXTWORKID.SELFCAST [UR{{[0-9]+}}], [UR{{[0-9]+}}] ;
// SASS-NOT:   UGETNEXTWORKID
// SASS:       @P[[E]] BRA.U.ANY 0x[[HEAD]] ;
// SASS:       SYNCS.ARRIVE.TRANS64 RZ, [UR{{[0-9]+}}], R{{[0-9]+}} ;
// SASS:       LDS.128 R[[#W:]], [UR{{[0-9]+}}] ;
// SASS-NEXT:  LOP3.LUT P[[C:[0-9]]], RZ, R[[#W+2]], 0x1, RZ, 0xc0, !PT ;
// SASS-NEXT:  @!P[[C]] EXIT ;
// SASS-NEXT:  MEMBAR.ALL.CTA ;
// SASS-NEXT:  FENCE.VIEW.ASYNC.S ;
