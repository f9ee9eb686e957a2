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

#include <ptxw/checked.h>
#include <ptxw/detail/isa/bar.h>
#include <ptxw/detail/isa/mapa.h>
#include <ptxw/elect.h>
#include <ptxw/fence.h>
#include <ptxw/mbarrier/barrier.h>
#include <ptxw/mbarrier/counts.h>
#include <ptxw/mbarrier/pipeline_checks.h>
#include <ptxw/mbarrier/pipeline_roles.h>
#include <ptxw/mbarrier/pipeline_state.h>
#include <ptxw/target.h>

#include <cuda/std/type_traits>

#if PTXW_CCCL_FAMILY_HEADERS
#  include <cuda/__ptx/instructions/barrier_cluster.h>
#  include <cuda/__ptx/instructions/cp_async_bulk.h>
#  include <cuda/__ptx/instructions/cp_async_bulk_commit_group.h>
#  include <cuda/__ptx/instructions/cp_async_bulk_wait_group.h>
#  include <cuda/__ptx/instructions/get_sreg.h>
#  include <cuda/__ptx/instructions/generated/cp_async_bulk_multicast.h>
#endif

PTXW_NAMESPACE_BEGIN

template <unsigned Stages, class Producer, class Consumer, class Cluster = one_cta>
class pipeline
{
  static_assert(detail::stage_count_in_range<Stages>,
                PTXW_RULE(R18) "a pipeline has 1 to 32 stages (the template argument Stages)");
  static_assert(detail::is_producer_role<Producer>,
                PTXW_RULE(R10) "the producer is ptxw::bulk_producer or ptxw::store_producer<Threads>");
  static_assert(detail::is_consumer_role<Consumer>,
                PTXW_RULE(R10) "the consumer is ptxw::consumer_warps<Warps> or ptxw::consumer_warpgroups<N>");
  // The roles' own range checks (R18) fire here, with the pipeline, not at a first use.
  static_assert(sizeof(Producer) + sizeof(Consumer) + sizeof(Cluster) >= 3, "");
  static_assert(detail::is_cluster_shape<Cluster>,
                PTXW_RULE(R10) "the cluster is ptxw::one_cta or ptxw::cluster_multicast<X, Y>");
  static_assert(Cluster::ctas == 1 || Producer::async_writes,
                PTXW_RULE(R12) "a multicast pipeline is filled by bulk copies (ptxw::bulk_producer): generic "
                "stores reach only their own CTA's stage");
  static_assert(detail::supports<90, 800, Producer>, PTXW_RULE(R9) "ptxw::pipeline needs sm_90 or newer "
                                                     "(mbarrier.try_wait.parity, expect_tx, the async proxy)");

  static constexpr bool clustered = Cluster::ctas > 1;
  static constexpr bool bulk      = Producer::async_writes;
  // Generic reads of a stage the async proxy refills: released through the slot fences (R4).
  static constexpr bool slot_fences = bulk && detail::is_same_v<typename Consumer::reads, reads_generic>;
  // Generic stores into a stage the async proxy reads: fenced before the hand-over (R29).
  static constexpr bool store_fence = !bulk && detail::is_same_v<typename Consumer::reads, reads_async>;

  using wait_scope = ::cuda::std::conditional_t<clustered, ptx::scope_cluster_t, ptx::scope_cta_t>;

public:
  using barrier_type = ::cuda::std::conditional_t<clustered, cluster_barrier, cta_barrier>;
  using state_type   = pipeline_state<Stages>;
  static constexpr unsigned stages = Stages;
  // Arrivals that complete a fill (full barrier) and a release (empty barrier) of one stage.
  static constexpr unsigned full_arrivals  = Producer::arrivals;
  static constexpr unsigned empty_arrivals = Consumer::units * Cluster::peers;

  // In __shared__ memory; its contents are the pipeline's.
  struct storage : detail::pipeline_ledger<Stages>
  {
    barrier_type full[Stages];
    barrier_type empty[Stages];
  };

private:
  storage* st_;

  __device__ explicit pipeline(storage& st) noexcept
      : st_(&st)
  {}

  __device__ static constexpr detail::pipeline_roles_size roles() noexcept
  {
    return {full_arrivals, empty_arrivals, bulk ? 1u : Producer::arrivals, Consumer::threads};
  }

  __device__ static ::cuda::std::uint32_t round(const state_type& state) noexcept
  {
#if PTXW_CHECKED
    return state.steps() / Stages;
#else
    (void) state;
    return 0;
#endif
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
    st->wait(role, state.index(), bar.smem_addr(), roles(), round(state), [&] {
      return ptx::mbarrier_try_wait_parity(ptx::sem_acquire, scope, bar.native_handle(), parity);
    });
  }

public:
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
        st.empty[s].init(arrivals{empty_arrivals});
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

  class producer_stage;
  class consumer_stage;
  class producer_role;
  class consumer_role;

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

  // A stage the producer acquired: filled through it, then committed. Move-only (R27).
  class producer_stage
  {
    friend class producer_role;
    barrier_type* full_;
    ::cuda::std::uint32_t index_;
    bool armed_ = false;
#if PTXW_CHECKED
    bool live_                    = true;
    bool untracked_               = false;
    ::cuda::std::uint32_t bytes_  = 0; // armed
    ::cuda::std::uint32_t copied_ = 0; // copies issued through this stage that land in this CTA
    ::cuda::std::uint32_t round_  = 0; // the fill
#endif

    __device__ producer_stage(barrier_type* full, ::cuda::std::uint32_t index, ::cuda::std::uint32_t round) noexcept
        : full_(full)
        , index_(index)
    {
#if PTXW_CHECKED
      round_ = round;
#else
      (void) round;
#endif
    }

  public:
    PTXW_REFUSED(PTXW_RULE(R27) "a stage is not copied: it is committed once, producer.commit(std::move(stage))")
    producer_stage(const producer_stage&);
    __device__ producer_stage(producer_stage&& o) noexcept
        : full_(o.full_)
        , index_(o.index_)
        , armed_(o.armed_)
#if PTXW_CHECKED
        , live_(o.live_)
        , untracked_(o.untracked_)
        , bytes_(o.bytes_)
        , copied_(o.copied_)
        , round_(o.round_)
#endif
    {
#if PTXW_CHECKED
      o.live_ = false;
#endif
    }
    producer_stage& operator=(const producer_stage&) = delete;

#if PTXW_CHECKED
    __device__ ~producer_stage()
    {
      if (live_)
      {
        checked::report(checked::default_sink<>, rule::stage_ownership, full_->smem_addr(), 0, index_,
                        " (an acquired stage never committed: its consumers wait forever; detail: the stage)");
      }
    }
#endif

    // The stage, to index the user's buffers: tile[s.index()].
    __device__ ::cuda::std::uint32_t index() const noexcept
    {
      return index_;
    }

    // Bulk producers: the bytes that will land in this CTA's stage in this fill, from every copy
    // (a multicast pipeline: the peers' copies into this CTA too). It is the producer's arrival:
    // mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [full], bytes;
    // A stage that receives no copy is committed without arming.
    __device__ void arm(detail::tx_bytes_arg bytes)
    {
      static_assert(bulk || detail::dependent_false<Producer>,
                    PTXW_RULE(R11) "a store_producer's stages carry no transaction bytes: arm() is for bulk copies");
      armed_ = true;
#if PTXW_CHECKED
      // Checked: expect the bytes now and arrive at commit, once the copies are counted, so that a
      // copy of more bytes than armed cannot complete the fill early (it is reported and expected).
      bytes_ = bytes.arg.value;
      full_->expect_tx(ptx::sem_relaxed, ptx::scope_cta, bytes.arg);
#else
      full_->arrive_expect_tx(ptx::sem_release, ptx::scope_cta, bytes.arg);
#endif
    }

    // cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size, [full];
    template <class T>
    __device__ void copy(T* dst, const T* src, detail::tx_bytes_arg bytes)
    {
      static_assert(bulk || detail::dependent_false<T>, PTXW_RULE(R10) "copy() is a bulk_producer's");
      note_copy(bytes.arg.value);
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, dst, src, bytes.arg.value, full_->native_handle());
    }

    // The same copy into this stage of every CTA of `cta_mask` (bit r: cluster rank r), each
    // completing the bytes on its own full barrier of this stage:
    // cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [dst], [src], size, [full], mask;
    template <class T>
    __device__ void copy(T* dst, const T* src, detail::tx_bytes_arg bytes, ::cuda::std::uint16_t cta_mask)
    {
      static_assert(clustered || detail::dependent_false<T>,
                    PTXW_RULE(R12) "a multicast copy needs a pipeline of ptxw::cluster_multicast<X, Y>");
#if PTXW_CHECKED
      if (cta_mask & (1u << ptx::get_sreg_cluster_ctarank()))
      {
        note_copy(bytes.arg.value);
      }
#endif
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, dst, src, bytes.arg.value, full_->native_handle(), cta_mask);
    }

    // For copies issued elsewhere (CuTe's TMA atoms, cp.async.bulk.tensor): the barrier word they
    // complete. Checked mode then cannot compare the armed bytes with the copies.
    __device__ ::cuda::std::uint64_t* native_handle() noexcept
    {
#if PTXW_CHECKED
      untracked_ = true;
#endif
      return full_->native_handle();
    }

  private:
    __device__ void note_copy(::cuda::std::uint32_t bytes)
    {
#if PTXW_CHECKED
      copied_ += bytes;
#else
      (void) bytes;
#endif
    }
  };

  // A stage a consumer unit waited for: read through it, then released. Move-only (R27).
  class consumer_stage
  {
    friend class consumer_role;
    ::cuda::std::uint32_t index_;
#if PTXW_CHECKED
    bool live_                   = true;
    ::cuda::std::uint32_t round_ = 0; // the fill
#endif
    __device__ consumer_stage(::cuda::std::uint32_t index, ::cuda::std::uint32_t round) noexcept
        : index_(index)
    {
#if PTXW_CHECKED
      round_ = round;
#else
      (void) round;
#endif
    }

  public:
    PTXW_REFUSED(PTXW_RULE(R27) "a stage is not copied: it is released once, consumer.release(std::move(stage))")
    consumer_stage(const consumer_stage&);
    __device__ consumer_stage(consumer_stage&& o) noexcept
        : index_(o.index_)
#if PTXW_CHECKED
        , live_(o.live_)
        , round_(o.round_)
#endif
    {
#if PTXW_CHECKED
      o.live_ = false;
#endif
    }
    consumer_stage& operator=(const consumer_stage&) = delete;

#if PTXW_CHECKED
    __device__ ~consumer_stage()
    {
      if (live_)
      {
        checked::report(checked::default_sink<>, rule::stage_ownership, 0, 0, index_,
                        " (a stage waited for and never released: its producer waits forever; detail: the stage)");
      }
    }
#endif

    __device__ ::cuda::std::uint32_t index() const noexcept
    {
      return index_;
    }
  };

  class producer_role
  {
    friend class pipeline;
    storage* st_;
    state_type state_ = state_type::for_producer();

    __device__ explicit producer_role(storage* st) noexcept
        : st_(st)
    {}

  public:
    PTXW_REFUSED(PTXW_RULE(R6) "a producer handle is not copied (two copies are two diverging ideas of where "
                 "the ring is): pass it by reference")
    producer_role(const producer_role&);

    // Waits until the next stage is free: every consumer unit of every peer CTA released its last
    // fill (the phase before a fresh barrier's first counts as complete for the first round). The
    // role then moves on: a second acquire before the first commit is the next stage (two fills in
    // flight), never the same one.
    // mbarrier.try_wait.parity.acquire.{cta,cluster}.shared::cta.b64 ok, [empty], parity;
    [[nodiscard]] __device__ producer_stage acquire()
    {
      const ::cuda::std::uint32_t s = state_.index();
      barrier_type& empty           = st_->empty[s];
      wait_for(st_, empty, 0, state_, wait_scope{});
      const ::cuda::std::uint32_t r = round(state_);
      st_->refills(s, empty.smem_addr(), r);
      if constexpr (slot_fences)
      {
        fence_before_slot_write(); // R4: after the consumers' fence_after_slot_read
      }
      state_.advance();
      return producer_stage(&st_->full[s], s, r);
    }

    PTXW_REFUSED(PTXW_RULE(R27) "a stage is committed once, by its token: producer.commit(std::move(stage))")
    void commit(const producer_stage&);

    // Hands the stage to the consumers. Bulk: the arrival was arm()'s (a stage never armed is
    // handed over with a plain arrival: no copy, no bytes). Store: each thread fences its stores
    // for async-proxy readers (R29) and arrives.
    __device__ void commit(producer_stage&& stage)
    {
      if constexpr (store_fence)
      {
        fence_before_async_read(ptx::space_shared); // R29: this thread's stores, before the arrival
      }
#if PTXW_CHECKED
      if (!stage.live_)
      {
        checked::report(checked::default_sink<>, rule::stage_ownership, stage.full_->smem_addr(), round(state_),
                        stage.index_, " (a stage committed twice; detail: the stage)");
        return;
      }
      stage.live_ = false;
      if (stage.armed_ && !stage.untracked_ && (clustered ? stage.copied_ > stage.bytes_ : stage.copied_ != stage.bytes_))
      {
        st_->report(rule::stage_accounting, stage.full_->smem_addr(), round(state_), stage.copied_,
                    " (copies into a stage carry other bytes than it was armed with; detail: bytes copied)");
        if (stage.copied_ > stage.bytes_)
        {
          stage.full_->expect_tx(ptx::sem_relaxed, ptx::scope_cta, tx_bytes{stage.copied_ - stage.bytes_});
        }
      }
      else if (!stage.armed_ && stage.copied_ != 0)
      {
        st_->report(rule::armed_barrier, stage.full_->smem_addr(), round(state_), stage.copied_,
                    " (copies into a stage committed without arm(): consumers would read it before they land; "
                    "detail: bytes copied)");
        stage.full_->expect_tx(ptx::sem_relaxed, ptx::scope_cta, tx_bytes{stage.copied_});
      }
      st_->armed(stage.index_, stage.bytes_);
      if (st_->counted_fill(stage.index_, stage.full_->smem_addr(), stage.round_, roles()))
      {
        stage.full_->arrive(ptx::sem_release, ptx::scope_cta);
      }
#else
      if (!bulk || !stage.armed_)
      {
        stage.full_->arrive(ptx::sem_release, ptx::scope_cta);
      }
#endif
    }

    // Where the producer is: the stage and parity of its next acquire.
    __device__ const state_type& state() const noexcept
    {
      return state_;
    }
  };

  class consumer_role
  {
    friend class pipeline;
    storage* st_;
    state_type state_ = state_type::for_consumer();

    __device__ explicit consumer_role(storage* st) noexcept
        : st_(st)
    {}

  public:
    PTXW_REFUSED(PTXW_RULE(R6) "a consumer handle is not copied (two copies are two diverging ideas of where "
                 "the ring is): pass it by reference")
    consumer_role(const consumer_role&);

    // Waits until the next stage's fill landed: every producer arrival and every armed byte. The
    // role then moves on: a consumer may hold several stages (K and V of attention) and releases
    // each through its own token.
    // mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 ok, [full], parity;
    [[nodiscard]] __device__ consumer_stage wait()
    {
      const ::cuda::std::uint32_t s = state_.index();
      barrier_type& full            = st_->full[s];
      wait_for(st_, full, 1, state_, ptx::scope_cta);
      if (ledger_lane())
      {
        st_->took(s);
      }
      const ::cuda::std::uint32_t r = round(state_);
      state_.advance();
      return consumer_stage(s, r);
    }

    PTXW_REFUSED(PTXW_RULE(R27) "a stage is released once, by its token: consumer.release(std::move(stage))")
    void release(const consumer_stage&);

    // This warp is done with the stage: its lanes' reads are ordered before one arrival per peer
    // CTA on that CTA's empty barrier of this stage (lane i arrives at peer i).
    //   one CTA:  mbarrier.arrive.release.cta.shared::cta.b64 _, [empty];
    //   cluster:  mbarrier.arrive.release.cluster.shared::cluster.b64 _, [mapa(empty, peer)];
    __device__ void release(consumer_stage&& stage)
    {
      const ::cuda::std::uint32_t s = stage.index_;
#if PTXW_CHECKED
      if (!stage.live_)
      {
        if (ledger_lane())
        {
          checked::report(checked::default_sink<>, rule::stage_ownership, st_->empty[s].smem_addr(), round(state_), s,
                          " (a stage released twice; detail: the stage)");
        }
        return;
      }
      stage.live_                    = false;
      const ::cuda::std::uint32_t fill = stage.round_;
#else
      const ::cuda::std::uint32_t fill = 0; // read by checked mode only
#endif
      if constexpr (slot_fences)
      {
        fence_after_slot_read(); // R4: this lane's generic reads before the async refill
      }
      __syncwarp();
      if (ledger_lane())
      {
        st_->released(s);
      }
      if constexpr (clustered)
      {
        const ::cuda::std::uint32_t lane = ptx::get_sreg_laneid();
        if (lane < Cluster::peers)
        {
          const ::cuda::std::uint32_t peer = Cluster::peer(ptx::get_sreg_cluster_ctarank(), lane);
          if (st_->counted_release(s, peer, true, st_->empty[s].smem_addr(), fill, roles()))
          {
            st_->empty[s].remote(cta_rank{peer}).arrive(ptx::sem_release, ptx::scope_cluster);
          }
        }
      }
      else if (elected e = elect_one_of_warp())
      {
        if (st_->counted_release(s, 0, false, st_->empty[s].smem_addr(), fill, roles()))
        {
          st_->empty[s].arrive(ptx::sem_release, ptx::scope_cta);
        }
      }
    }

    // A TMA store out of the stage, by every consumer thread (the consumer warps are Consumer::threads
    // consecutive threads): each thread's generic writes into the stage are fenced for the async
    // proxy (R29), the consumer warps meet at named barrier Id, and one thread copies `bytes` from
    // `src` (in the stage) to `dst` and waits until the copy has read the stage, so the release
    // that follows cannot let a refill overwrite what the store still reads.
    //   fence.proxy.async.shared::cta; bar.sync Id, threads;
    //   cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size; cp.async.bulk.commit_group;
    //   cp.async.bulk.wait_group.read 0;
    template <unsigned Id = 1, class T>
    __device__ void store(const consumer_stage& stage, T* dst, const T* src, detail::tx_bytes_arg bytes)
    {
      static_assert(Id >= 1 && Id < 16, PTXW_RULE(R18) "a named barrier id is 1 to 15 (0 is __syncthreads')");
      (void) stage;
      fence_before_async_read(ptx::space_shared);
      detail::isa::bar_sync(Id, Consumer::threads);
      const unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
      if (tid % Consumer::threads == 0)
      {
        ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, dst, src, bytes.arg.value);
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>{});
      }
    }

    __device__ const state_type& state() const noexcept
    {
      return state_;
    }
  };
};

PTXW_NAMESPACE_END
