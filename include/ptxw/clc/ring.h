// ptxw/clc/ring.h: a ring of cluster launch control responses for warp-specialised kernels -- one
// scheduler role requests blocks ahead of time, Consumers warps read each response, every type
// carrying its step of the protocol.
//
//   __global__ void kernel(..., ptxw::clc::context<> ctx)        // 4 warps: a scheduler, 3 consumers
//   {
//     __shared__ ptxw::clc::ring<2, 3> ring;                     // depth 2, 3 consumer warps
//     auto clc = ptxw::clc::open(ring, ctx);                     // collective
//     if (!clc.started()) return;                                // emulated_t: this CTA was canceled
//     const unsigned warp = threadIdx.x / 32;
//     if (warp == 0)
//       clc.scheduler().run(clc.elect());                        // requests until the failure
//     else
//       clc.consumer(warp - 1).for_each([&](dim3 b) { work(b, warp - 1); });
//   }
//
// A stage is a response slot with its "full" barrier (what clc::slot holds) and an "empty" barrier
// that each consumer warp arrives on once it has read the response. The roles, as the CUDA
// programming guide's section on Cluster Launch Control and the PTX ISA (clusterlaunchcontrol,
// mbarrier, membar/fence.proxy) have the protocol, and where each rule is kept:
//   scheduler   one warp; elect() picks its one submitter (R3). For each step: wait until every
//               consumer released the stage (R4: the empty barrier's acquire, then
//               fence_before_slot_write inside the backend's request), request into it -- the
//               submitter arms the stage's barrier for the 16 bytes (R5) -- then read the answer
//               itself, as every warp of CUTLASS's PipelineCLCFetchAsync scheduler does, and stop at
//               the first failure (R1: one request in flight, so nothing is requested after a failure
//               and nothing succeeds after one in ring order);
//   consumer    Consumers warps, each a role in [0, Consumers): wait() waits for the stage's
//               response, reads it once (one 16-byte load), releases it to the async proxy
//               (fence_after_slot_read) and returns a move-only token that holds it by value;
//               release(std::move(token)) then arrives on the empty barrier -- release semantics,
//               after __syncwarp, one lane for the warp -- so a release without the read before it
//               cannot be written (R4); the block index exists only in the token's decode() callback
//               or as the optional-like value of block() (R2);
//   counts      the empty barrier's arrival count is Consumers (one per warp), the full barrier's
//               the backend's; nothing is typed by hand. Depth and Consumers are 1 to 32 (R18);
//   phases      each role keeps a ptxw::pipeline_state<Depth> (a stage index and a parity in two
//               registers, R6); the scheduler's empty and full parities differ by one.
// Every role sees the same responses in the same order and the failure exactly once.
//
// How far ahead: the consumers release a stage once they have read it, before their work, so the
// scheduler keeps Depth responses ready beyond the block the roles work on. One request in flight
// keeps up while a block lasts longer than a request (on counter_t one atomic, or none when the
// batch serves it); Depth is also how far the roles may drift apart and how many blocks each CTA
// still holds when the grid runs out (the end's imbalance). Depth 1 is a queue's one claim ahead.
// Several requests are not kept in flight: a later one may succeed after an earlier one failed
// (the emulation's spurious failures; on hardware the guide does not rule it out), and its block
// would have to reach every role past the failure (docs/clc-ring.md, "Performance").
//
// Backends (ptxw/clc/backend_table.h) are used through their interface (ptxw/clc/backend_interface.h): the
// hardware (sm_100+), the faithful emulation and counter_t (sm_90+). On counter_t each request
// claims one index (claims::one, ptxw/clc/backend_interface.h): the scheduler's lookahead hides the claim,
// and a range of indices would be blocks the CTA holds back from the others.
//
// Checked mode (ptxw/clc/ring_checks.h): the scheduler's wait for a release is bounded and a stage
// some consumer never released is reported (R4, with the stage and the roles that did not release)
// and answered with a failure; a request after a failure (R1), a second scheduler (R3), a wait that
// never completes (R5, R6), a role out of range (R18), a token released twice or by another role
// (R4), a block read from a failure (R2) are reported.
//
// The cluster form, clc::ring<Depth, Consumers, cluster_t>, in a launch in clusters: every CTA of
// the cluster holds the stages and runs the same roles; one request of the leader CTA (cluster
// rank 0) cancels a whole cluster and its answer lands in every CTA's copy of the stage (the
// multicast try_cancel on hardware, one delivery per CTA on Hopper's backends). The rules where
// the field's multicast rings went wrong:
//   arming      every CTA's scheduler arms its own copy of each stage (R5): the answer's bytes
//               complete a phase only with that arrival, and the leader's arming alone leaves the
//               other CTAs waiting forever (facebookexperimental/triton #908); a CTA that never
//               arms is reported by its consumers' bounded waits in checked mode (R5);
//   releases    every lane of the consumers of every CTA releases to the leader's empty barrier
//               (release.cluster arrive; ring_consumer.h says why every lane), whose count is
//               Consumers x 32 x the cluster's CTAs: the leader requests only once every copy was
//               read (R4);
//   block       the token's ctaid() adds this CTA's place in its cluster to the first CTA (R8);
//   init, end   open() publishes the inits with a cluster barrier (R7); after the failure the
//               leader's scheduler waits for every stage's last releases, so that no CTA arrives
//               on a leader that has left.
//
// The parts, one header each: ring_storage.h (clc::ring, its stages), ring_token.h (what a consumer
// reads), ring_scheduler.h and ring_consumer.h (the roles); here, the handle that open() makes.
#pragma once

#include <ptxw/clc/handle.h>
#include <ptxw/clc/ring_checks.h>
#include <ptxw/clc/ring_consumer.h>
#include <ptxw/clc/ring_scheduler.h>
#include <ptxw/clc/ring_storage.h>
#include <ptxw/clc/ring_token.h>
#include <ptxw/core/checked.h>
#include <ptxw/core/elect.h>
#include <ptxw/mbarrier/pipeline_state.h>

#if PTXW_CCCL_FAMILY_HEADERS
#  include <cuda/__ptx/instructions/mbarrier_wait.h>
#endif

PTXW_NAMESPACE_BEGIN
namespace clc {

// One thread's end of a ring: the storage, the context and the backend's per-thread part. Made by
// open(); never copied. Its roles: scheduler() in the scheduler warp, consumer(role) in each
// consumer warp.
template <unsigned Depth, unsigned Consumers, class Receivers, class Backend>
class ring_handle
{
public:
  using backend_type                 = Backend;
  using receivers_type               = Receivers;
  using backend_impl                 = detail::backend<detail::resolve_t<Backend>>;
  static constexpr unsigned stages   = detail::ring_stages<Depth>;
  static constexpr unsigned consumers = Consumers;
  using token                        = ring_token<Receivers, backend_impl>;

private:
  using storage   = detail::ring_storage<stages, Receivers>;
  using bar_scope = typename detail::barrier_for<Receivers>::scope_type;

  // Where the backend does not run, the methods compile to nothing: open()'s R9 is the one error.
  static constexpr bool target_ok = backend_impl::template supported<Receivers>;

  storage* s_;
  context<Backend> ctx_;
  backend_impl backend_;
  bool started_ = true;

  template <class H>
  friend class ring_scheduler;
  template <class H>
  friend class ring_consumer;
  template <unsigned D, unsigned C, class R, class B>
  friend __device__ ring_handle<D, C, R, B> open(ring<D, C, R>&, const context<B>&);

  // Collective (in the cluster form: of every CTA of the cluster): thread (0,0,0) initialises every
  // barrier; the backend decides whether this CTA runs; one barrier of the CTA, or of the cluster,
  // then publishes the inits to every role (R7) -- in the cluster form also to the other CTAs'
  // consumers, which release to the leader's empty barriers, and to the leader's deliveries.
  __device__ ring_handle(ring<Depth, Consumers, Receivers>& r, const context<Backend>& ctx)
      : s_(&r.storage_)
      , ctx_(ctx)
  {
    if constexpr (target_ok)
    {
      storage& s = *s_;
      if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
      {
        for (unsigned i = 0; i < stages; ++i)
        {
          s.stage[i].bar.init(arrivals{backend_impl::arrivals_per_phase});
          s.empty[i].init(arrivals{detail::releases_per_stage<Consumers, Receivers>()});
          s.stage[i].batch = {};
        }
        if constexpr (detail::is_cluster<Receivers>)
        {
          ::ptxw::fence_after_mbarrier_init();
        }
#if PTXW_CHECKED
        detail::ring_checks_open(s.checks);
#endif
        detail::check_prepared(s.stage[0], ctx.prepared, detail::id_of<detail::resolve_t<Backend>>, ctx.sink);
      }
      started_ = backend_.start(s.stage[0], ctx.state, ctx.sink);
      if constexpr (detail::is_cluster<Receivers>)
      {
        detail::cluster_sync();
      }
      else
      {
        __syncthreads();
      }
    }
  }

  // Whether this CTA's scheduler waits for the releases and submits: the CTA's own in the CTA
  // form, the leader's (cluster rank 0) in the cluster form.
  __device__ static bool leads()
  {
    return !detail::is_cluster<Receivers> || detail::cluster_rank<Receivers>() == 0;
  }

  // Waits for the phase of `parity` on `bar`: bounded in checked mode (false when it ran out).
  template <class Bar>
  __device__ bool wait_parity(Bar& bar, ::cuda::std::uint32_t parity) const
  {
#if PTXW_CHECKED
    return checked::bounded_spin(ctx_.sink, [&] {
      return ptx::mbarrier_try_wait_parity(ptx::sem_acquire, bar_scope{}, bar.native_handle(), parity);
    });
#else
    while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, bar_scope{}, bar.native_handle(), parity))
    {
    }
    return true;
#endif
  }

  __device__ ::cuda::std::uint32_t stage_address(::cuda::std::uint32_t stage) const
  {
    return detail::slot_address(s_->stage[stage]);
  }

public:
  PTXW_REFUSED(PTXW_RULE(R6) "a ring handle owns its thread's part of the backend and cannot be copied; pass "
               "it by reference")
  ring_handle(const ring_handle&);
  ring_handle& operator=(const ring_handle&) = delete;

#if PTXW_CHECKED
  // Checked mode, cluster form: a role whose bounded wait ran out (a report) ends early, and its
  // CTA could leave while the leader still delivers an answer into it -- distributed shared memory
  // of a CTA that exited must not be touched. So no CTA leaves before the whole cluster is done:
  // every thread, leaving the handle's scope, passes a cluster barrier. Unchecked, every wait
  // completes and each CTA reads the last answer before it leaves: no barrier.
  __device__ ~ring_handle()
  {
    if constexpr (target_ok && detail::is_cluster<Receivers>)
    {
      detail::cluster_sync();
    }
  }
#endif

  // Whether this CTA runs: always on hardware; with emulated_t false when another CTA claimed it
  // before it started -- return at once.
  __device__ bool started() const noexcept
  {
    return started_;
  }

  // Whether this CTA's own blockIdx is its first block (false only after an R14 report).
  __device__ bool owns_block() const noexcept
  {
    return backend_.owns_block();
  }

  // The scheduler's one submitter (R3): call it from every lane of the scheduler warp.
  __device__ ring_submitter elect() const
  {
    if constexpr (target_ok)
    {
      return ring_submitter(ring_submitter::by_election{}, static_cast<bool>(elect_one<Receivers>()));
    }
    else
    {
      return ring_submitter(ring_submitter::by_election{}, false);
    }
  }

  // The scheduler role: every lane of one warp.
  __device__ ring_scheduler<ring_handle> scheduler()
  {
    return ring_scheduler<ring_handle>(*this);
  }

  // Consumer role `role`, in [0, Consumers) (R18: checked mode reports one out of range): every
  // lane of one warp.
  __device__ ring_consumer<ring_handle> consumer(unsigned role)
  {
    return ring_consumer<ring_handle>(*this, role);
  }
};

// Collective: every thread of the CTA calls it once, before any role. Thread 0 initialises the
// barriers; the backend decides whether this CTA runs; a barrier of the CTA publishes the inits.
template <unsigned Depth, unsigned Consumers, class Receivers, class Backend>
__device__ ring_handle<Depth, Consumers, Receivers, Backend> open(ring<Depth, Consumers, Receivers>& r,
                                                                  const context<Backend>& ctx)
{
  (void) ring_handle<Depth, Consumers, Receivers, Backend>::backend_impl::template check_target<Receivers>();
  return ring_handle<Depth, Consumers, Receivers, Backend>(r, ctx);
}

} // namespace clc
PTXW_NAMESPACE_END
