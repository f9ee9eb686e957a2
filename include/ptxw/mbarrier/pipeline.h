// ptxw/mbarrier/pipeline.h: a ring of Stages shared-memory stages between producers and consumers,
// each stage guarded by a "full" and an "empty" mbarrier -- the mainloop of every warp-specialized
// Hopper and Blackwell kernel (CUTLASS's PipelineTmaAsync and PipelineAsync) as a typed object.
//
//   using pipe = ptxw::pipeline<4, ptxw::bulk_producer, ptxw::consumer_warps<4>>;
//   __shared__ pipe::storage st;                          // the barriers (and checked mode's ledger)
//   __shared__ alignas(128) float tile[4][4096];
//   auto p = pipe::init(st);                              // every thread: init, publish (R7), sync
//   if (warp == 0) {
//     if (auto e = ptxw::elect_one_of_warp()) {           // one thread arms and copies (R3)
//       auto prod = p.producer(e);
//       for (int k = 0; k < n; ++k) {
//         auto s = prod.acquire();                        // a free stage: its consumers released it
//         s.arm(ptxw::tx_bytes{16384});                   // the bytes that will land
//         s.copy(tile[s.index()], src + k * 4096, ptxw::tx_bytes{16384});
//         prod.commit(std::move(s));
//       }
//     }
//   } else {
//     auto cons = p.consumer();                           // each warp a unit
//     for (int k = 0; k < n; ++k) {
//       auto s = cons.wait();                             // the stage's fill has landed
//       use(tile[s.index()]);
//       cons.release(std::move(s));                       // once read: the producer may refill it
//     }
//   }
//
// What the type decides, so that no user does (docs/pipelines.md):
//  - the arrival counts: a full barrier counts the producer's arrivals (ptxw/mbarrier/pipeline_roles.h),
//    an empty barrier one per consumer warp of every CTA whose producer writes into this stage;
//  - the starting phases: a producer's first round finds every stage free, a consumer's waits for
//    the first fill (ptxw/mbarrier/pipeline_state.h): no user ever writes a parity;
//  - the fences: init is published before any use (R7); a stage the async proxy refills after
//    generic reads is released and re-acquired through the slot fences (R4); generic stores into a
//    stage that the async proxy reads, and a TMA store out of a stage, are fenced (R29);
//  - who acts: a bulk producer is one elected thread (R3); a stage is used only through the token
//    its wait returned, which is handed back exactly once (R27).
// Checked mode (ptxw/mbarrier/pipeline_checks.h) reports what the types cannot see: a stage
// refilled while held (R27), arrivals or bytes the barriers were not set up for (R28), every role
// waiting (R30); each wait is bounded and one fault is one report, never a hang.
#pragma once

#include <ptxw/core/checked.h>
#include <ptxw/core/target.h>
#include <ptxw/fence.h>
#include <ptxw/mbarrier/pipeline_base.h>
#include <ptxw/mbarrier/pipeline_consumer.h>
#include <ptxw/mbarrier/pipeline_producer.h>

#if PTXW_CCCL_FAMILY_HEADERS
#  include <cuda/__ptx/instructions/barrier_cluster.h>
#  include <cuda/__ptx/instructions/get_sreg.h>
#endif

PTXW_NAMESPACE_BEGIN

template <unsigned Stages, class Producer, class Consumer, class Cluster>
class pipeline : public detail::pipeline_base<Stages, Producer, Consumer, Cluster>
{
  using base = detail::pipeline_base<Stages, Producer, Consumer, Cluster>;
  using base::bulk;
  using base::clustered;
  using base::empty_count;
  using base::full_arrivals;

public:
  // In __shared__ memory; its contents are the pipeline's.
  using typename base::storage;

private:
  storage* st_;

  __device__ explicit pipeline(storage& st) noexcept
      : st_(&st)
  {}

public:
  using producer_stage = detail::pipeline_producer_stage<base>;
  using consumer_stage = detail::pipeline_consumer_stage<base>;
  using producer_role  = detail::pipeline_producer<base>;
  using consumer_role  = detail::pipeline_consumer<base>;

  // Collective: every thread of the CTA -- for a cluster pipeline every thread of every CTA of the
  // cluster -- calls it once, from converged code. One thread initialises the barriers with the
  // derived counts; fence.mbarrier_init.release.cluster and the CTA's (the cluster's) barrier then
  // publish them before any arrive, wait or copy can touch them (R7), and for a cluster make sure
  // every peer runs before its shared memory is written (R8).
  __device__ static pipeline init(storage& st)
  {
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
    {
      for (unsigned s = 0; s < Stages; ++s)
      {
        st.full[s].init(arrivals{full_arrivals});
        st.empty[s].init(arrivals{empty_count});
      }
      st.reset();
#if PTXW_CHECKED
      if (clustered && ptx::get_sreg_cluster_nctarank() != Cluster::ctas)
      {
        checked::report(checked::default_sink<>, rule::whole_cluster, st.full[0].smem_addr(), 0,
                        ptx::get_sreg_cluster_nctarank(),
                        " (the launch's cluster is not the pipeline's cluster_multicast<X, Y>; detail: CTAs in the "
                        "launched cluster)");
      }
#endif
      fence_after_mbarrier_init();
    }
    if constexpr (clustered)
    {
      ptx::barrier_cluster_arrive(ptx::sem_release);
      ptx::barrier_cluster_wait();
    }
    else
    {
      __syncthreads();
    }
    return pipeline(st);
  }

  // The producer's handle. A bulk producer is one thread, the one elect_one_of_warp() or
  // elect_one() chose (R3); a store producer is each of its Threads threads.
  __device__ producer_role producer(elected e) const
  {
    static_assert(bulk || detail::dependent_false<Producer>,
                  PTXW_RULE(R3) "a store_producer's threads each take producer() without an elected lane");
    (void) e;
    return producer_role(st_);
  }
  template <class Deferred = void>
  __device__ producer_role producer() const
  {
    static_assert(!bulk || detail::dependent_false<Deferred>,
                  PTXW_RULE(R3) "a bulk_producer is one thread: producer(ptxw::elect_one_of_warp()) inside the "
                  "elected branch (several threads arming one stage over-arrive)");
    return producer_role(st_);
  }
  // A consumer warp's handle: every lane of each consumer warp takes one.
  __device__ consumer_role consumer() const
  {
    return consumer_role(st_);
  }
};

PTXW_NAMESPACE_END
