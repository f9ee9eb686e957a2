// ptxw::pipeline against CUTLASS's PipelineTmaAsync<4> (CUTLASS 4.2.0, `ptxw setup`'s nvidia-cutlass),
// the ring both are written for: one elected producer thread arming each stage and filling it with a
// 1-D bulk copy, four consumer warps waiting for it and releasing it. The ptxw twin's consumers are
// reads_async, CUTLASS's protocol (no proxy fence at the release; pipeline.cu checks the
// reads_generic ring against a hand-written one).
//
// The twins are not the same protocol in SASS, so `ptxw sass-equal --no-more` does not hold; what
// differs (ptxas 13.0, sm_90a) is checked below as per-kernel counts of the barrier, fence and copy
// opcodes, and whether each ptxw kernel has at most as many instructions in all as its CUTLASS twin:
//  - the consumer's release: ptxw's consumer_warps arrive once per warp (__syncwarp, elect.sync, one
//    mbarrier.arrive.release.cta.shared::cta: SYNCS.ARRIVE.TRANS64.A1T0, empty barrier count 4);
//    CUTLASS's consumer_release arrives from each of the 128 consumer threads through mapa to the
//    shared::cluster window (PRMT + SYNCS.ARRIVE.TRANS64.RED.A1T0, empty barrier count 128);
//  - every wait: CUTLASS passes a suspend-time hint (0x989680) to mbarrier.try_wait, which becomes
//    TRYWAIT, NANOSLEEP.SYNCS and a plain SYNCS.PHASECHK.TRANS64; ptxw's wait is a TRYWAIT loop;
//  - set-up: CUTLASS's constructor reads the warp index (SHFL.IDX) and initialises from an elected
//    lane of warp 0 (one more ELECT); ptxw's init is thread 0's.
//  - in a 2x1 cluster, each consumer releases to both CTAs through the shared::cluster window:
//    ptxw's reads_async consumers with mbarrier.arrive.relaxed.cluster, CUTLASS's with
//    mbarrier.arrive.shared::cluster (release at CTA scope); both are SYNCS.ARRIVE.TRANS64.RED with
//    no fence, where a generic reader's release.cluster adds MEMBAR.ALL.GPU (generic_consumer_2x1).
// The bulk copy (UBLKCP.S.G), the armed arrival (SYNCS.ARRIVE.TRANS64), the init (8 SYNCS.EXCH.64
// and FENCE.VIEW.ASYNC.S) and the CTA barrier are the same in both. One role a kernel, ptxw has
// fewer instructions (producer 68 against 74, consumers 269 against 274). The whole ring has 3 more
// (348 against 345): before the producer's elect.sync, reached by warp 0 only, ptxas puts a
// divergence check (BRA.DIV to a WARPSYNC.COLLECTIVE fallback) where CUTLASS's ring has WARPSYNC.ALL.
// (With ptxw::elect_one(), elect.sync on __activemask(), it also computed the mask (VOTE.ANY) and
// wrapped UBLKCP in a per-lane loop: elect_one_of_warp() has neither.)
// REQUIRES: mbarrier-tx, cutlass, target-sm_90a
// RUN: %ptxw-compile %s -o %t -- %cutlass-include
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: awk '/^Function : /{ f = $3; next } /^ *[/][*][0-9a-f]+[*][/]/ { op = $2 ~ /^@/ ? $3 : $2; \
// RUN:        if (op != "NOP") total[f]++; if (op ~ /^(SYNCS|UBLKCP|FENCE|MEMBAR)/) n[f " " op]++ } \
// RUN:      END { for (x in n) print x, n[x]; for (f in total) if (f ~ /^ptxw_/) { r = "ref_" substr(f, 6); \
// RUN:            print "~" substr(f, 6), (total[f] <= total[r] ? "ptxw at most cutlass" : "ptxw MORE than cutlass") } }' \
// RUN:   %t.sass | env LC_ALL=C sort | FileCheck %s --check-prefix=COUNTS

#include <cuda/ptx>
#include <ptxw/mbarrier.h>

#include "Inputs/pipeline_ring.h"

#include <cute/arch/copy_sm90_tma.hpp>
#include <cutlass/pipeline/sm90_pipeline.hpp>

constexpr unsigned kStages    = 4;
// As CUTLASS's sm90 mainloops use it: Params (role, leader, consumer threads, bytes a fill), the
// constructor initialising the barriers and fencing the init, the producer's state from
// make_producer_start_state, producer_acquire arming the full barrier, cute's 1-D bulk copy onto
// producer_get_barrier, and every consumer thread releasing. Role as in Inputs/pipeline_ring.h.
template <int Role, class ClusterShape = cute::Shape<cute::_1, cute::_1, cute::_1>>
__device__ __forceinline__ void ref_body(const float4* src, float4* dst, int n)
{
  const bool producer = Role == 2 ? threadIdx.x < 32 : Role == 0;
  using pipe = cutlass::PipelineTmaAsync<kStages>;
  // The barriers have no default constructor (CUTLASS kernels cast their shared memory).
  __shared__ alignas(pipe::SharedStorage) unsigned char st_bytes[sizeof(pipe::SharedStorage)];
  auto& st = *reinterpret_cast<pipe::SharedStorage*>(st_bytes);
  __shared__ alignas(128) float4 tile[kStages][kTile];
  pipe::Params params;
  params.transaction_bytes = sizeof(tile[0]);
  params.role              = producer ? pipe::ThreadCategory::Producer : pipe::ThreadCategory::Consumer;
  params.is_leader         = threadIdx.x == 0;
  params.num_consumers     = 32 * kConsumers;
  pipe pipeline(st, params, ClusterShape{});
  if constexpr (cute::size(ClusterShape{}) > 1)
  {
    cute::cluster_sync();
  }
  else
  {
    __syncthreads();
  }
  if (producer)
  {
    if (cute::elect_one_sync())
    {
      auto state = cutlass::make_producer_start_state<pipe>();
      for (int k = blockIdx.x; k < n; k += gridDim.x)
      {
        pipeline.producer_acquire(state);
        cute::SM90_BULK_COPY_G2S::copy(src + k * kTile, pipeline.producer_get_barrier(state), tile[state.index()],
                                       sizeof(tile[0]));
        ++state;
      }
    }
  }
  else
  {
    cutlass::PipelineState<kStages> state;
    for (int k = blockIdx.x; k < n; k += gridDim.x)
    {
      pipeline.consumer_wait(state);
      for (unsigned i = threadIdx.x - 32; i < kTile; i += 32 * kConsumers)
      {
        dst[k * kTile + i] = tile[state.index()][i];
      }
      pipeline.consumer_release(state);
      ++state;
    }
  }
}

// One kernel per role, where ptxas has no room to allocate registers of the two loops differently in
// the twins, and the whole ring as the benchmark runs it (benchmarks/pipeline_stream.cu).
extern "C" __global__ void ptxw_producer(const float4* src, float4* dst, int n)
{
  ring_on_ptxw<kStages, ptxw::reads_async, 0>(src, dst, n);
}
extern "C" __global__ void ref_producer(const float4* src, float4* dst, int n)
{
  ref_body<0>(src, dst, n);
}
extern "C" __global__ void ptxw_consumer(const float4* src, float4* dst, int n)
{
  ring_on_ptxw<kStages, ptxw::reads_async, 1>(src, dst, n);
}
extern "C" __global__ void ref_consumer(const float4* src, float4* dst, int n)
{
  ref_body<1>(src, dst, n);
}
// The consumers of a 2x1 cluster, whose producers multicast into both CTAs: each releases to both
// CTAs' empty barriers through the shared::cluster window. Async-proxy readers arrive relaxed at
// cluster scope, as CUTLASS's (mbarrier.arrive.shared::cluster, release at CTA scope) does without a
// fence; a release at cluster scope would put MEMBAR.ALL.GPU before every warp's arrival.
extern "C" __global__ void __cluster_dims__(2, 1, 1) ptxw_consumer_2x1(const float4* src, float4* dst, int n)
{
  ring_on_ptxw<kStages, ptxw::reads_async, 1, ptxw::cluster_multicast<2>>(src, dst, n);
}
extern "C" __global__ void __cluster_dims__(2, 1, 1) ref_consumer_2x1(const float4* src, float4* dst, int n)
{
  ref_body<1, cute::Shape<cute::_2, cute::_1, cute::_1>>(src, dst, n);
}
// The same consumers reading with generic loads (no CUTLASS twin: CUTLASS's protocol is the async
// one): every lane's reads are ordered before each peer's refill by its own release at cluster
// scope, one arrival per peer CTA: the two MEMBAR.ALL.GPU and two remote arrivals in the loop that
// the counts below show beside the init's fence.
extern "C" __global__ void __cluster_dims__(2, 1, 1) generic_consumer_2x1(const float4* src, float4* dst, int n)
{
  ring_on_ptxw<kStages, ptxw::reads_generic, 1, ptxw::cluster_multicast<2>>(src, dst, n);
}
extern "C" __global__ void ptxw_ring(const float4* src, float4* dst, int n)
{
  ring_on_ptxw<kStages, ptxw::reads_async, 2>(src, dst, n);
}
extern "C" __global__ void ref_ring(const float4* src, float4* dst, int n)
{
  ref_body<2>(src, dst, n);
}

// PTX-LABEL: .entry ptxw_producer(
// PTX:       mbarrier.try_wait.parity.acquire.cta.shared::cta.b64
// PTX:       mbarrier.arrive.expect_tx.release.cta.shared::cta.b64
// PTX:       cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
// PTX-LABEL: .entry ref_producer(
// PTX:       mbarrier.try_wait.parity.shared::cta.b64 P1, [%r{{[0-9]+}}], %r{{[0-9]+}}, %r{{[0-9]+}};
// PTX:       mbarrier.arrive.expect_tx.shared::cta.b64 _,
// PTX:       cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
// PTX-LABEL: .entry ptxw_consumer(
// PTX:       mov.{{[bu]}}32 [[FOUR:%r[0-9]+]], 4;
// PTX-NEXT:  // begin inline asm
// PTX-NEXT:  mbarrier.init.shared.b64 [%r{{[0-9]+}}], [[FOUR]];
// PTX:       mbarrier.try_wait.parity.acquire.cta.shared::cta.b64
// PTX:       elect.sync
// PTX:       mbarrier.arrive.release.cta.shared::cta.b64
// PTX-LABEL: .entry ref_consumer(
// PTX:       mov.{{[bu]}}32 [[ALL:%r[0-9]+]], 128;
// PTX:       mbarrier.init.shared::cta.b64 [%r{{[0-9]+}}], [[ALL]];
// PTX:       mbarrier.try_wait.parity.shared::cta.b64 P1,
// PTX:       mapa.shared::cluster.u32
// PTX-NEXT:  mbarrier.arrive.shared::cluster.b64 _, [remAddr32];
// PTX-LABEL: .entry ptxw_consumer_2x1(
// PTX:       barrier.cluster.wait;
// PTX:       mbarrier.try_wait.parity.acquire.cta.shared::cta.b64
// PTX:       mapa.shared::cluster.u32
// PTX:       mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _,
// PTX-LABEL: .entry ref_consumer_2x1(
// PTX:       barrier.cluster.wait.aligned;
// PTX:       mapa.shared::cluster.u32
// PTX-NEXT:  mbarrier.arrive.shared::cluster.b64 _, [remAddr32];
// PTX-LABEL: .entry generic_consumer_2x1(
// PTX:       fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;
// PTX:       mbarrier.arrive.release.cluster.shared::cluster.b64 _,

// COUNTS-NOT:  {{.}}
// COUNTS:      generic_consumer_2x1 FENCE.VIEW.ASYNC.S 2
// COUNTS-NEXT: generic_consumer_2x1 MEMBAR.ALL.CTA 4
// COUNTS-NEXT: generic_consumer_2x1 MEMBAR.ALL.GPU 3
// COUNTS-NEXT: generic_consumer_2x1 SYNCS.ARRIVE.TRANS64.RED.A1T0 2
// COUNTS-NEXT: generic_consumer_2x1 SYNCS.EXCH.64 8
// COUNTS-NEXT: generic_consumer_2x1 SYNCS.PHASECHK.TRANS64.TRYWAIT 2
// COUNTS-NEXT: ptxw_consumer FENCE.VIEW.ASYNC.S 1
// COUNTS-NEXT: ptxw_consumer SYNCS.ARRIVE.TRANS64.A1T0 1
// COUNTS-NEXT: ptxw_consumer SYNCS.EXCH.64 8
// COUNTS-NEXT: ptxw_consumer SYNCS.PHASECHK.TRANS64.TRYWAIT 2
// COUNTS-NEXT: ptxw_consumer_2x1 FENCE.VIEW.ASYNC.S 1
// COUNTS-NEXT: ptxw_consumer_2x1 MEMBAR.ALL.CTA 1
// COUNTS-NEXT: ptxw_consumer_2x1 MEMBAR.ALL.GPU 1
// COUNTS-NEXT: ptxw_consumer_2x1 SYNCS.ARRIVE.TRANS64.RED.A1T0 1
// COUNTS-NEXT: ptxw_consumer_2x1 SYNCS.EXCH.64 8
// COUNTS-NEXT: ptxw_consumer_2x1 SYNCS.PHASECHK.TRANS64.TRYWAIT 2
// COUNTS-NEXT: ptxw_producer FENCE.VIEW.ASYNC.S 1
// COUNTS-NEXT: ptxw_producer SYNCS.ARRIVE.TRANS64 1
// COUNTS-NEXT: ptxw_producer SYNCS.EXCH.64 8
// COUNTS-NEXT: ptxw_producer SYNCS.PHASECHK.TRANS64.TRYWAIT 2
// COUNTS-NEXT: ptxw_producer UBLKCP.S.G 1
// COUNTS-NEXT: ptxw_ring FENCE.VIEW.ASYNC.S 1
// COUNTS-NEXT: ptxw_ring SYNCS.ARRIVE.TRANS64 1
// COUNTS-NEXT: ptxw_ring SYNCS.ARRIVE.TRANS64.A1T0 1
// COUNTS-NEXT: ptxw_ring SYNCS.EXCH.64 8
// COUNTS-NEXT: ptxw_ring SYNCS.PHASECHK.TRANS64.TRYWAIT 4
// COUNTS-NEXT: ptxw_ring UBLKCP.S.G 1
// COUNTS-NEXT: ref_consumer FENCE.VIEW.ASYNC.S 1
// COUNTS-NEXT: ref_consumer SYNCS.ARRIVE.TRANS64.RED.A1T0 1
// COUNTS-NEXT: ref_consumer SYNCS.EXCH.64 8
// COUNTS-NEXT: ref_consumer SYNCS.PHASECHK.TRANS64 1
// COUNTS-NEXT: ref_consumer SYNCS.PHASECHK.TRANS64.TRYWAIT 2
// COUNTS-NEXT: ref_consumer_2x1 FENCE.VIEW.ASYNC.S 1
// COUNTS-NEXT: ref_consumer_2x1 MEMBAR.ALL.CTA 1
// COUNTS-NEXT: ref_consumer_2x1 MEMBAR.ALL.GPU 1
// COUNTS-NEXT: ref_consumer_2x1 SYNCS.ARRIVE.TRANS64.RED.A1T0 1
// COUNTS-NEXT: ref_consumer_2x1 SYNCS.EXCH.64 8
// COUNTS-NEXT: ref_consumer_2x1 SYNCS.PHASECHK.TRANS64 1
// COUNTS-NEXT: ref_consumer_2x1 SYNCS.PHASECHK.TRANS64.TRYWAIT 2
// COUNTS-NEXT: ref_producer FENCE.VIEW.ASYNC.S 1
// COUNTS-NEXT: ref_producer SYNCS.ARRIVE.TRANS64 1
// COUNTS-NEXT: ref_producer SYNCS.EXCH.64 8
// COUNTS-NEXT: ref_producer SYNCS.PHASECHK.TRANS64 1
// COUNTS-NEXT: ref_producer SYNCS.PHASECHK.TRANS64.TRYWAIT 1
// COUNTS-NEXT: ref_producer UBLKCP.S.G 1
// COUNTS-NEXT: ref_ring FENCE.VIEW.ASYNC.S 1
// COUNTS-NEXT: ref_ring SYNCS.ARRIVE.TRANS64 1
// COUNTS-NEXT: ref_ring SYNCS.ARRIVE.TRANS64.RED.A1T0 1
// COUNTS-NEXT: ref_ring SYNCS.EXCH.64 8
// COUNTS-NEXT: ref_ring SYNCS.PHASECHK.TRANS64 2
// COUNTS-NEXT: ref_ring SYNCS.PHASECHK.TRANS64.TRYWAIT 4
// COUNTS-NEXT: ref_ring UBLKCP.S.G 1
// COUNTS-NEXT: ~consumer ptxw at most cutlass
// COUNTS-NEXT: ~consumer_2x1 ptxw at most cutlass
// COUNTS-NEXT: ~producer ptxw at most cutlass
// The divergence check above.
// COUNTS-NEXT: ~ring ptxw MORE than cutlass
// COUNTS-EMPTY:
