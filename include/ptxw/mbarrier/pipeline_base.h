// ptxw/mbarrier/pipeline_base.h: what the roles of a ptxw::pipeline (ptxw/mbarrier/pipeline.h) share
// -- the checks of its template arguments, what follows from them (the counts, which fences the
// protocol needs, the scope of a wait), its shared-memory storage and its one wait.
#pragma once

#include <ptxw/core/checked.h>
#include <ptxw/core/target.h>
#include <ptxw/mbarrier/barrier.h>
#include <ptxw/mbarrier/pipeline_checks.h>
#include <ptxw/mbarrier/pipeline_roles.h>
#include <ptxw/mbarrier/pipeline_state.h>

#include <cuda/std/type_traits>

#if PTXW_CCCL_FAMILY_HEADERS
#  include <cuda/__ptx/instructions/get_sreg.h>
#endif

PTXW_NAMESPACE_BEGIN
template <unsigned Stages, class Producer, class Consumer, class Cluster = one_cta>
class pipeline;

namespace detail {
template <unsigned Stages, class Producer, class Consumer, class Cluster>
struct pipeline_base
{
  static_assert(stage_count_in_range<Stages>,
                PTXW_RULE(R18) "a pipeline has 1 to 32 stages (the template argument Stages)");
  static_assert(is_producer_role<Producer>,
                PTXW_RULE(R10) "the producer is ptxw::bulk_producer or ptxw::store_producer<Threads>");
  static_assert(is_consumer_role<Consumer>,
                PTXW_RULE(R10) "the consumer is ptxw::consumer_warps<Warps> or ptxw::consumer_warpgroups<N>");
  // The roles' own range checks (R18) fire here, with the pipeline, not at a first use.
  static_assert(sizeof(Producer) + sizeof(Consumer) + sizeof(Cluster) >= 3, "");
  static_assert(is_cluster_shape<Cluster>,
                PTXW_RULE(R10) "the cluster is ptxw::one_cta or ptxw::cluster_multicast<X, Y>");
  static_assert(Cluster::ctas == 1 || Producer::async_writes,
                PTXW_RULE(R12) "a multicast pipeline is filled by bulk copies (ptxw::bulk_producer): generic "
                "stores reach only their own CTA's stage");
  static_assert(supports<90, 800, Producer>, PTXW_RULE(R9) "ptxw::pipeline needs sm_90 or newer "
                                                     "(mbarrier.try_wait.parity, expect_tx, the async proxy)");

  using producer = Producer;
  using consumer = Consumer;
  using cluster  = Cluster;

  static constexpr bool clustered = Cluster::ctas > 1;
  static constexpr bool bulk      = Producer::async_writes;
  // Generic reads of a stage the async proxy refills: released through the slot fences (R4).
  static constexpr bool slot_fences = bulk && is_same_v<typename Consumer::reads, reads_generic>;
  // Generic stores into a stage the async proxy reads: fenced before the hand-over (R29).
  static constexpr bool store_fence = !bulk && is_same_v<typename Consumer::reads, reads_async>;

  using wait_scope = ::cuda::std::conditional_t<clustered, ptx::scope_cluster_t, ptx::scope_cta_t>;
  // A consumer warp's arrival on a peer CTA's empty barrier. Generic reads of the stage are ordered
  // before the peer's refill by a release at cluster scope. Async-proxy reads (reads_async: wgmma
  // operands, a TMA store's source) have completed when the warp releases (wgmma.wait_group,
  // cp.async.bulk.wait_group.read), and a release fence in the generic proxy orders none of them
  // (PTX ISA, "Proxies" in the memory consistency model): the arrival carries no data and is
  // relaxed, which ptxas emits without the fence a cluster-scope release costs. Toolchains before
  // PTX ISA 8.6 have no relaxed arrive and keep the release.
  using peer_release_sem =
    ::cuda::std::conditional_t<is_same_v<typename Consumer::reads, reads_async> && supports<90, 860, Consumer>,
                               ptx::sem_relaxed_t, ptx::sem_release_t>;

  // Who arrives for a consumer warp's release. Generic reads: every lane, each arrival the release
  // of that lane's own reads (CUTLASS's PipelineAsync does the same). One lane's arrival after
  // __syncwarp orders them too under the PTX memory model, but compute-sanitizer's racecheck orders
  // only an arriving thread's own accesses before the waiter's: it then reports every later fill
  // of the stage against the other lanes' reads, and a user's racecheck run is no longer readable.
  // Async-proxy reads are none racecheck sees and have completed at the release: one lane arrives
  // for the warp.
  static constexpr unsigned release_lanes = is_same_v<typename Consumer::reads, reads_generic> ? 32 : 1;

  using barrier_type = ::cuda::std::conditional_t<clustered, cluster_barrier, cta_barrier>;
  using state_type   = pipeline_state<Stages>;
  static constexpr unsigned stages = Stages;
  // Arrivals that complete a fill (full barrier) and a release (empty barrier) of one stage; the
  // ledger of checked mode counts releases by warp (empty_arrivals), the barrier by lane.
  static constexpr unsigned full_arrivals  = Producer::arrivals;
  static constexpr unsigned empty_arrivals = Consumer::units * Cluster::peers;
  static constexpr unsigned empty_count    = empty_arrivals * release_lanes;

  // In __shared__ memory; its contents are the pipeline's.
  struct storage : pipeline_ledger<Stages>
  {
    barrier_type full[Stages];
    barrier_type empty[Stages];
  };

  __device__ static constexpr pipeline_roles_size roles() noexcept
  {
    return {full_arrivals, empty_arrivals, bulk ? 1u : Producer::arrivals, Consumer::threads};
  }


  // Checked mode's unit leader: one lane of each consumer warp updates the ledger.
  __device__ static bool ledger_lane() noexcept
  {
    return checked::on && ptx::get_sreg_laneid() == 0;
  }

  // mbarrier.try_wait.parity.acquire.{cta,cluster}.shared::cta.b64 until the phase of `parity`
  // completed; in checked mode bounded, and the ledger names the cause (R28, R30).
  template <class Scope>
  __device__ static void wait_for(storage* st, barrier_type& bar, unsigned role, const state_type& state, Scope scope)
  {
    const ::cuda::std::uint32_t parity = state.parity();
    st->wait(role, state.index(), bar.smem_addr(), roles(), state.round(), [&] {
      return ptx::mbarrier_try_wait_parity(ptx::sem_acquire, scope, bar.native_handle(), parity);
    });
  }
};
} // namespace detail
PTXW_NAMESPACE_END
