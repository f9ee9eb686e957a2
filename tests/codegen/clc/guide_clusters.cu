// The CUDA programming guide's work-stealing vector-scalar kernel for thread block clusters
// (section 4.12.2.2), written with ptxw's low-level API on a ptxw::clc::slot<cluster_t> and, as its
// twin, in plain cuda::ptx following the guide. The twin departs from the guide where ptxw's
// protocol differs, and only there:
//   - the request is made by the lane elect.sync picks in warp 0 (of cluster rank 0 for the
//     try_cancel, of every CTA for the arming), not by cg::invoke_one(cg::coalesced_threads(), ...)
//     under cg::cluster_group::thread_rank() == 0 and cg::thread_block::thread_rank() == 0;
//   - the leader that initialises the barrier is threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
//   - (as every twin) the same __shared__ layout as the ptxw kernel: result and barrier side by side
//     in one struct, where the guide declares two variables -- with two, ptxas addresses the barrier
//     from a symbol of its own and schedules the kernel differently;
//   - the response is read once, 16 bytes at a time, and released right after that read, on every
//     path (the guide fences after decoding, on the success path only).
// Like the guide, the twin reads the cluster rank and the CTA's position in its cluster through
// cooperative_groups (__clusterRelativeBlockRank, __clusterRelativeBlockIdx), which the compiler
// may hoist out of the loop. The multicast try_cancel is inline asm in the twin: CCCL 3.0.1 emits it
// only for sm_100a and sm_110a.
// REQUIRES: clc-multicast
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/clc.h>

#include "Inputs/guide.h"

#include <cooperative_groups.h>

namespace cg  = cooperative_groups;
namespace ptx = cuda::ptx;

extern "C" __global__ void __cluster_dims__(2, 1, 1)
  ptxw_guide_clusters(float* data, int n, ptxw::clc::context<ptxw::clc::hardware_t> ctx)
{
  __shared__ ptxw::clc::slot<ptxw::clc::cluster_t> slot;
  ptxw_guide(slot, ctx, data, n, [] { cg::cluster_group::sync(); });
}

extern "C" __global__ void __cluster_dims__(2, 1, 1)
  ref_guide_clusters(float* data, int n, ptxw::clc::context<ptxw::clc::hardware_t> ctx)
{
  (void) ctx;
  // Cluster launch control initialization:
  __shared__ clc_storage storage;
  uint4& result = storage.result;
  uint64_t& bar = storage.bar;
  int phase     = 0;

  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
  {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster); // CGA-level fence.
  }

  // Prologue:
  float alpha = compute_scalar();

  // Work-stealing loop:
  int bx = blockIdx.x; // Assuming 1D x-axis thread blocks.

  while (true)
  {
    // Protect result from overwrite in the next iteration,
    // (also ensure all thread blocks have started at 1st iteration):
    cg::cluster_group::sync();

    if (ref_first_warp())
    {
      if (ref_elect_one())
      {
        // Cancellation request by a single cluster thread:
        if (cg::cluster_group::block_rank() == 0)
        {
          // Acquire write of result in the async proxy:
          ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);

          asm volatile("clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes."
                       "multicast::cluster::all.b128 [%0], [%1];"
                       :
                       : "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&result))),
                         "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&bar)))
                       : "memory");
        }

        // Cancellation completion tracked by each thread block:
        ptx::mbarrier_arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cluster, ptx::space_shared, &bar, sizeof(uint4));
      }
    }

    // Computation:
    scale_block(data, n, alpha, bx);

    // Cancellation request synchronization, one read of the result, its release to the async
    // proxy, then decoding:
    if (!ref_decode_x(ref_wait(storage, phase, ptx::scope_cluster), bx))
    {
      break;
    }
    bx += cg::cluster_group::block_index().x; // Add local offset.
  }
}

// PTX-LABEL: .entry ptxw_guide_clusters(
// PTX:       mbarrier.init.shared.b64
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier|barrier.cluster}}
// PTX:       fence.mbarrier_init.release.cluster;
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier}}
// PTX:       barrier.cluster.arrive;
// PTX-NEXT:  barrier.cluster.wait;
// PTX:       elect.sync _|p, %r{{[0-9]+}};
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier|barrier.cluster}}
// PTX:       setp.ne.s32 [[NOT0:%p[0-9]+]], %r{{[0-9]+}}, 0;
// PTX-NEXT:  @[[NOT0]] bra [[ARM:\$L__BB[0-9_]+]];
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier|barrier.cluster}}
// PTX:       fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;
// PTX-NOT:   {{fence|mbarrier|barrier.cluster}}
// PTX-COUNT-1: clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier|barrier.cluster}}
// PTX:       [[ARM]]:
// PTX-NOT:   {{fence|clusterlaunchcontrol|barrier.cluster}}
// PTX:       mbarrier.arrive.expect_tx.relaxed.cluster.shared::cta.b64
// PTX-NOT:   {{fence|clusterlaunchcontrol|mbarrier|barrier.cluster|ld.shared}}
// PTX:       st.global.f32
// PTX-NOT:   {{fence|clusterlaunchcontrol|barrier.cluster|ld.shared}}
// PTX:       mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64
// PTX-NOT:   {{fence|clusterlaunchcontrol|barrier.cluster|ld.shared}}
// PTX-COUNT-1: ld.shared.v2.u64
// PTX-NOT:   {{fence|clusterlaunchcontrol|barrier.cluster|ld.shared}}
// PTX:       fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;
// PTX-NOT:   {{fence|barrier.cluster|ld.shared|get_first_ctaid::[yz]}}
// PTX:       clusterlaunchcontrol.query_cancel.is_canceled.pred.b128
// PTX-NOT:   {{fence|barrier.cluster|ld.shared|get_first_ctaid::[yz]}}
// PTX:       clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128
// PTX-NOT:   {{fence|barrier.cluster|ld.shared|get_first_ctaid::[yz]}}
// PTX:       bra.uni [[LOOP:\$L__BB[0-9_]+]];
// PTX-NOT:   [[LOOP]]:
// PTX-LABEL: .entry ref_guide_clusters(

// One cluster barrier (UCGABAR_ARV / UCGABAR_WAIT) per iteration; cluster rank 0 (a uniform branch)
// issues one UGETNEXTWORKID.BROADCAST behind the ELECT branch, every CTA arms its own barrier; the
// cluster-scope wait adds CCTL.IVALL; one LDS.128, released before is_canceled is tested.
// SASS-LABEL: Function : ptxw_guide_clusters{{$}}
// SASS:       SYNCS.EXCH.64
// SASS-NEXT:  @!P{{[0-9]}} NOP ;
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY|UCGABAR}}
// SASS:       UCGABAR_ARV ;
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY|UCGABAR|ELECT}}
// SASS:       UCGABAR_WAIT ;
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY|UCGABAR|ELECT}}
// SASS:       ELECT P[[E:[0-9]]], URZ, PT ;
// SASS-NEXT:  @!P[[E]] BRA 0x{{[0-9a-f]+}} ;
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY|UCGABAR|ELECT|SYNCS}}
// SASS:       BRA.U UP{{[0-9]}}, 0x{{[0-9a-f]+}} ;
// SASS-NOT:   {{UGETNEXTWORKID|BRA|UCGABAR|ELECT|SYNCS}}
// SASS:       UGETNEXTWORKID.BROADCAST [UR{{[0-9]+}}], [UR{{[0-9]+}}] ;
// SASS-NEXT:  SYNCS.ARRIVE.TRANS64 RZ, [{{.*}}+0x10], R{{[0-9]+}} ;
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY|UCGABAR|ELECT|LDS}}
// SASS:       SYNCS.PHASECHK.TRANS64.TRYWAIT P[[OK:[0-9]]], [{{.*}}+0x10], R{{[0-9]+}} ;
// SASS-NEXT:  @P[[OK]] CCTL.IVALL ;
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY|UCGABAR|ELECT|LDS}}
// SASS:       LDS.128 R[[#W:]], [R{{[0-9]+}}] ;
// SASS-NEXT:  MEMBAR.ALL.CTA ;
// SASS-NEXT:  FENCE.VIEW.ASYNC.S ;
// SASS-NEXT:  LOP3.LUT P[[C:[0-9]]], RZ, R[[#W+2]], 0x1, RZ, 0xc0, !PT ;
// SASS-NEXT:  @!P[[C]] EXIT ;
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY|UCGABAR|ELECT|LDS|MEMBAR|FENCE}}
// SASS:       BRA 0x{{[0-9a-f]+}} ;
// SASS-NEXT:  Function : ref_guide_clusters{{$}}
