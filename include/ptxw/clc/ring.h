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
// Backends (ptxw/clc/backends.h) are used through their interface (ptxw/clc/backend.h): the
// hardware (sm_100+), the faithful emulation and counter_t (sm_90+). counter_t keeps the indices
// it claimed and not yet handed out in the slot; the ring passes them on from stage to stage, so
// that the scheduler's failure means the grid ran out.
//
// Checked mode (ptxw/clc/ring_checks.h): the scheduler's wait for a release is bounded and a stage
// some consumer never released is reported (R4, with the stage and the roles that did not release)
// and answered with a failure; a request after a failure (R1), a second scheduler (R3), a wait that
// never completes (R5, R6), a role out of range (R18), a token released twice or by another role
// (R4), a block read from a failure (R2) are reported. The cluster form (a leader CTA arming every
// CTA's stage before a multicast request) is not provided: Receivers is cta_t.
#pragma once

#include <ptxw/checked.h>
#include <ptxw/clc/handle.h>
#include <ptxw/clc/ring_checks.h>
#include <ptxw/elect.h>
#include <ptxw/mbarrier/pipeline_state.h>

#if PTXW_CCCL_FAMILY_HEADERS
#  include <cuda/__ptx/instructions/mbarrier_wait.h>
#endif

PTXW_NAMESPACE_BEGIN
namespace clc {
namespace detail {
// The depth a ring is built with: Depth where it is in range, else 1, so that a depth out of range
// makes one error, the ring's R18, and nothing else.
template <unsigned Depth>
inline constexpr unsigned ring_stages = ::ptxw::detail::stage_count_in_range<Depth> ? Depth : 1u;

template <unsigned Consumers>
inline constexpr bool consumer_count_in_range = Consumers >= 1 && Consumers <= 32;

// A backend that keeps the state of its requests in the slot (counter_t: the indices it claimed
// and has not handed out yet, its claims' pace). A ring passes it on from stage to stage: each
// stage keeping its own would end the ring at one stage's failure with indices left in another's.
template <class Backend>
inline constexpr bool requests_keep_slot_state = ::ptxw::detail::is_same_v<Backend, counter_t>;

template <unsigned Depth, class Receivers>
struct ring_storage
{
  slot_storage<Receivers> stage[Depth]; // the response and its "full" barrier, per stage
  barrier_for<Receivers> empty[Depth]; // completes when every consumer warp released the stage
#if PTXW_CHECKED
  ring_checks<Depth> checks;
#endif
};
} // namespace detail

template <unsigned Depth, unsigned Consumers, class Receivers, class Backend>
class ring_handle;
template <class Handle>
class ring_scheduler;
template <class Handle>
class ring_consumer;
template <class Receivers, class Decoder>
class ring_token;
template <unsigned Depth, unsigned Consumers, class Receivers = cta_t>
class ring;
template <unsigned Depth, unsigned Consumers, class Receivers, class Backend>
__device__ ring_handle<Depth, Consumers, Receivers, Backend> open(ring<Depth, Consumers, Receivers>&,
                                                                  const context<Backend>&);

// The shared-memory end of a response ring: Depth stages, each read by Consumers warps. Declare it
// __shared__ and pass it to open(); its contents are reachable only through the roles.
template <unsigned Depth, unsigned Consumers, class Receivers>
class ring
{
  static_assert(::ptxw::detail::stage_count_in_range<Depth>,
                PTXW_RULE(R18) "a cluster launch control ring has 1 to 32 stages (the template argument Depth)");
  static_assert(detail::consumer_count_in_range<Consumers>,
                PTXW_RULE(R18) "a cluster launch control ring is read by 1 to 32 consumer warps (the template "
                "argument Consumers): a stage nobody releases is never requested into again");
  static_assert(::ptxw::detail::is_same_v<Receivers, cta_t>,
                PTXW_RULE(R10) "a cluster launch control ring's responses go to ptxw::clc::cta_t; for a cluster "
                "use for_each_canceled_cluster or a clc::slot<cluster_t>");

  detail::ring_storage<detail::ring_stages<Depth>, Receivers> storage_;

  template <unsigned D, unsigned C, class R, class B>
  friend class ring_handle;
};

// The scheduler's one submitter (R3): one lane of the scheduler warp, chosen by elect.sync. Made
// only by ring_handle::elect(); true in that lane.
class ring_submitter
{
  bool won_;

  template <unsigned D, unsigned C, class R, class B>
  friend class ring_handle;
  template <class H>
  friend class ring_scheduler;

  struct by_election
  {};
  __device__ ring_submitter(by_election, bool won) noexcept
      : won_(won)
  {}

public:
  template <class T>
  PTXW_REFUSED(PTXW_RULE(R3) "a ptxw::clc::ring_submitter comes only from the ring's elect(), one lane of the "
               "scheduler warp")
  ring_submitter(T);

  __device__ explicit operator bool() const noexcept
  {
    return won_;
  }
};

// The index of a block canceled for the caller: it exists only inside a token's decode() callback
// (R2), or behind a maybe_block that holds one.
template <class Receivers>
class ring_block
{
  uint3 first_;

  template <class R, class D>
  friend class ring_token;
  template <class R>
  friend class maybe_block;

  struct by_decode
  {};
  __device__ ring_block(by_decode, uint3 first) noexcept
      : first_(first)
  {}

public:
  template <class T,
            class = ::ptxw::detail::enable_if_t<!::ptxw::detail::is_same_v<::ptxw::detail::remove_cvref_t<T>, ring_block>>>
  PTXW_REFUSED(PTXW_RULE(R2) "a ptxw::clc::ring_block comes only from a ring token's decode()")
  ring_block(T&&);

  __device__ uint3 first_ctaid() const noexcept
  {
    return first_;
  }
  __device__ uint3 ctaid() const noexcept
  {
    return first_;
  }
  __device__ unsigned x() const noexcept
  {
    return first_.x;
  }
  __device__ unsigned y() const noexcept
  {
    return first_.y;
  }
  __device__ unsigned z() const noexcept
  {
    return first_.z;
  }
};

// A block index or none, by value: `if (auto b = token.block()) use(b.x());`. Reading the index of
// none is R2: checked mode reports it and gives 0.
template <class Receivers>
class maybe_block : checked::carried_sink
{
  uint3 first_;
  bool has_;

  template <class R, class D>
  friend class ring_token;

  __device__ maybe_block(uint3 first, bool has, const checked::sink* sink) noexcept
      : checked::carried_sink(sink)
      , first_(first)
      , has_(has)
  {}

  __device__ uint3 get() const
  {
#if PTXW_CHECKED
    if (!has_)
    {
      checked::report(carried(), rule::no_decode_of_failure, 0, 0, 0,
                      " (the block index of a ring response that failed: look at the maybe_block first)");
      return {0u, 0u, 0u};
    }
#endif
    return first_;
  }

public:
  __device__ explicit operator bool() const noexcept
  {
    return has_;
  }
  __device__ uint3 first_ctaid() const
  {
    return get();
  }
  __device__ uint3 ctaid() const
  {
    return get();
  }
  __device__ unsigned x() const
  {
    return get().x;
  }
  __device__ unsigned y() const
  {
    return get().y;
  }
  __device__ unsigned z() const
  {
    return get().z;
  }
};

// One consumer warp's read of one stage: the response by value, and the one right to release the
// stage (ring_consumer::release). Move-only: a copy would be a second release.
template <class Receivers, class Decoder>
class ring_token : checked::carried_sink
{
  uint4 raw_;
  ::cuda::std::uint32_t stage_;
#if PTXW_CHECKED
  ::cuda::std::uint32_t step_;
  ::cuda::std::uint32_t role_;
  bool live_;
  bool read_; // false: the wait ran out (R5, R6) and read no response; its release arrives nowhere
#endif

  template <class H>
  friend class ring_consumer;

  __device__ ring_token(uint4 raw, ::cuda::std::uint32_t stage, ::cuda::std::uint32_t step, ::cuda::std::uint32_t role,
                        bool read, const checked::sink* sink) noexcept
      : checked::carried_sink(sink)
      , raw_(raw)
      , stage_(stage)
#if PTXW_CHECKED
      , step_(step)
      , role_(role)
      , live_(true)
      , read_(read)
#endif
  {
    (void) step, (void) role, (void) read;
  }

public:
  PTXW_REFUSED(PTXW_RULE(R4) "a ring token is the one right to release its stage and cannot be copied: "
               "pass it on with std::move, release it with consumer.release(std::move(token))")
  ring_token(const ring_token&);
  __device__ ring_token(ring_token&& o) noexcept
      : checked::carried_sink(o)
      , raw_(o.raw_)
      , stage_(o.stage_)
#if PTXW_CHECKED
      , step_(o.step_)
      , role_(o.role_)
      , live_(o.live_)
      , read_(o.read_)
#endif
  {
#if PTXW_CHECKED
    o.live_ = false;
#endif
  }
  PTXW_REFUSED(PTXW_RULE(R4) "a ring token is not assigned: each wait() makes its own")
  ring_token& operator=(const ring_token&);
  PTXW_REFUSED(PTXW_RULE(R4) "a ring token is not assigned: each wait() makes its own")
  ring_token& operator=(ring_token&&);

  // The stage this token releases.
  __device__ ::cuda::std::uint32_t stage() const noexcept
  {
    return stage_;
  }

  // clusterlaunchcontrol.query_cancel.is_canceled (or the software backends' same encoding).
  [[nodiscard]] __device__ bool is_canceled() const
  {
    return Decoder::canceled(raw_);
  }

  // Calls on_canceled(ptxw::clc::ring_block) if the response canceled a block for this CTA and
  // returns whether it did. false is the ring's end: every role sees it once.
  template <class OnCanceled>
  [[nodiscard]] __device__ bool decode(OnCanceled&& on_canceled) const
  {
    if (is_canceled())
    {
      on_canceled(ring_block<Receivers>(typename ring_block<Receivers>::by_decode{}, Decoder::first(raw_)));
      return true;
    }
    return false;
  }

  // The block as an optional-like value (R2: its index is read only where it holds one).
  [[nodiscard]] __device__ maybe_block<Receivers> block() const
  {
    const bool has = is_canceled();
    return maybe_block<Receivers>(has ? Decoder::first(raw_) : uint3{0u, 0u, 0u}, has, carried());
  }
};

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

  // Collective: thread (0,0,0) initialises every barrier; the backend decides whether this CTA
  // runs; one barrier of the CTA then publishes the inits to every role (R7).
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
          s.empty[i].init(arrivals{Consumers});
          s.stage[i].batch = {};
        }
#if PTXW_CHECKED
        detail::ring_checks_open(s.checks);
#endif
        detail::check_prepared(s.stage[0], ctx.prepared, detail::id_of<detail::resolve_t<Backend>>, ctx.sink);
      }
      started_ = backend_.start(s.stage[0], ctx.state, ctx.sink);
      __syncthreads();
    }
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

// The scheduler warp's role: requests into the ring, one stage after the other, until a failure.
template <class Handle>
class ring_scheduler
{
  using backend_impl = typename Handle::backend_impl;

  Handle* h_;
  pipeline_state<Handle::stages> st_; // the next stage; parity: of its empty barrier's phase

  template <unsigned D, unsigned C, class R, class B>
  friend class ring_handle;

  __device__ explicit ring_scheduler(Handle& h)
      : h_(&h)
      , st_(pipeline_state<Handle::stages>::for_producer())
  {}

  __device__ ::cuda::std::uint32_t step() const
  {
#if PTXW_CHECKED
    return st_.steps();
#else
    return 0;
#endif
  }

public:
  PTXW_REFUSED(PTXW_RULE(R6) "a ring scheduler owns its place in the ring and cannot be copied; pass it by "
               "reference")
  ring_scheduler(const ring_scheduler&);
  ring_scheduler& operator=(const ring_scheduler&) = delete;

  // One step, by every lane of the scheduler warp: waits until every consumer released the next
  // stage (R4), requests into it from the submitter (R3; armed, R5), waits for the answer and reads
  // it. Returns whether a block came; false is the failure, after which the scheduler requests no
  // more (R1: checked mode reports a request after it and answers it with a failure).
  [[nodiscard]] __device__ bool request(const ring_submitter& sub)
  {
    bool canceled = false;
    if constexpr (Handle::target_ok)
    {
      Handle& h                         = *h_;
      const ::cuda::std::uint32_t stage = st_.index();
      auto& slot                        = h.s_->stage[stage];
      const bool free_stage             = h.wait_parity(h.s_->empty[stage], st_.parity());
      detail::verdict v                 = free_stage ? detail::verdict::submit : detail::verdict::fail;
#if PTXW_CHECKED
      v = detail::verdict::drop;
      if (sub.won_)
      {
        v = detail::ring_before_request<Handle::stages, Handle::consumers>(h.s_->checks, h.stage_address(stage), stage,
                                                                           step(), free_stage, h.ctx_.sink);
      }
#endif
      // The lanes' reads of this stage's last response before the submitter's write into it.
      __syncwarp();
      h.backend_.request(slot, h.ctx_.state, sub.won_ && v != detail::verdict::drop, v == detail::verdict::fail);
#if PTXW_CHECKED
      if (sub.won_ && v != detail::verdict::drop)
      {
        detail::ring_after_request(h.s_->checks, stage);
      }
#endif
      uint4 raw = detail::failure_response();
      phase unused; // the ring's phases are st_'s; the backend's receive is handed a wait that uses them
      if (!h.backend_.receive(slot, h.ctx_.state, unused, raw, [&](auto& bar, phase&) {
            return h.wait_parity(bar, st_.parity() ^ 1u);
          }))
      {
#if PTXW_CHECKED
        if (sub.won_)
        {
          detail::ring_wait_timed_out(h.s_->checks, h.stage_address(stage), stage, step(), ~0u, h.ctx_.sink);
        }
#endif
        raw = detail::failure_response();
      }
      if constexpr (detail::requests_keep_slot_state<detail::resolve_t<typename Handle::backend_type>> && Handle::stages > 1)
      {
        if (sub.won_)
        {
          h.s_->stage[stage + 1 == Handle::stages ? 0u : stage + 1].batch = slot.batch;
        }
      }
      st_.advance();
      canceled = backend_impl::canceled(raw);
#if PTXW_CHECKED
      if (!canceled && sub.won_)
      {
        detail::ring_note_failure(h.s_->checks);
      }
#endif
    }
    return canceled;
  }
  template <class T>
  PTXW_REFUSED(PTXW_RULE(R3) "a ring request takes the scheduler's submitter, ring.elect(); a bool or "
               "ptxw::elect_one() would let any lane that holds one request")
  bool request(const T&);

  // request() until the failure: the scheduler warp's whole life.
  __device__ void run(const ring_submitter& sub)
  {
    while (request(sub))
    {
    }
  }
  template <class T>
  PTXW_REFUSED(PTXW_RULE(R3) "a ring request takes the scheduler's submitter, ring.elect(); a bool or "
               "ptxw::elect_one() would let any lane that holds one request")
  void run(const T&);
};

// A consumer warp's role: reads every response of the ring in order, releasing each stage after it.
template <class Handle>
class ring_consumer
{
  using backend_impl = typename Handle::backend_impl;
  using token        = typename Handle::token;
  using receivers    = typename Handle::receivers_type;

  Handle* h_;
  pipeline_state<Handle::stages> st_; // the next stage; parity: of its full barrier's phase
#if PTXW_CHECKED
  ::cuda::std::uint32_t role_;
  bool valid_;
#endif

  template <unsigned D, unsigned C, class R, class B>
  friend class ring_handle;

  __device__ ring_consumer(Handle& h, unsigned role)
      : h_(&h)
      , st_(pipeline_state<Handle::stages>::for_consumer())
#if PTXW_CHECKED
      , role_(role)
      , valid_(detail::ring_consumer_open<Handle::consumers>(h.stage_address(0), role, h.ctx_.sink))
#endif
  {
    (void) role;
  }

  __device__ ::cuda::std::uint32_t step() const
  {
#if PTXW_CHECKED
    return st_.steps();
#else
    return 0;
#endif
  }

  __device__ ::cuda::std::uint32_t role() const
  {
#if PTXW_CHECKED
    return role_;
#else
    return 0;
#endif
  }

public:
  PTXW_REFUSED(PTXW_RULE(R6) "a ring consumer owns its place in the ring and cannot be copied; pass it by "
               "reference")
  ring_consumer(const ring_consumer&);
  ring_consumer& operator=(const ring_consumer&) = delete;

  // Every lane of the warp: waits for the next stage's response, reads it once and releases the
  // slot to the async proxy (R4), and returns it as a token, which release() takes back.
  [[nodiscard]] __device__ token wait()
  {
    uint4 raw                         = detail::failure_response();
    const ::cuda::std::uint32_t stage = st_.index();
    const ::cuda::std::uint32_t at    = step();
    bool read                         = true;
    if constexpr (Handle::target_ok)
    {
      Handle& h = *h_;
      phase unused; // the ring's phases are st_'s
      if (!h.backend_.receive(h.s_->stage[stage], h.ctx_.state, unused, raw, [&](auto& bar, phase&) {
            return h.wait_parity(bar, st_.parity());
          }))
      {
#if PTXW_CHECKED
        const unsigned lanes = __activemask();
        if (ptx::get_sreg_laneid() == static_cast<unsigned>(__ffs(lanes) - 1))
        {
          detail::ring_wait_timed_out(h.s_->checks, h.stage_address(stage), stage, at, role(), h.ctx_.sink);
        }
#endif
        raw  = detail::failure_response();
        read = false;
      }
    }
    st_.advance();
    return token(raw, stage, at, role(), read, h_->ctx_.sink);
  }

  // Every lane of the warp, with the token its wait() returned: one lane arrives on the stage's
  // empty barrier for the warp (release semantics), after every lane's read (__syncwarp). Checked
  // mode records the release before that arrival, and a token whose wait ran out (R5, R6: it read
  // nothing) releases nothing: its arrival would complete the stage's release of the round before.
  __device__ void release(token&& t)
  {
    if constexpr (Handle::target_ok)
    {
      Handle& h = *h_;
      __syncwarp();
      if (elect_one<receivers>())
      {
#if PTXW_CHECKED
        if (!valid_
            || !detail::ring_release(h.s_->checks, h.stage_address(t.stage_), t.stage_, t.step_, role_, t.role_, t.live_,
                                     t.read_, h.ctx_.sink))
        {
          t.live_ = false;
          return;
        }
#endif
        h.s_->empty[t.stage_].arrive();
      }
#if PTXW_CHECKED
      t.live_ = false;
#endif
    }
  }
  template <class T>
  PTXW_REFUSED(PTXW_RULE(R4) "release() takes the token back by rvalue, consumer.release(std::move(token)): "
               "a token released by lvalue could be released again")
  void release(T&);

  // The consumer warp's whole life: f(dim3) with the CTA's own block first (where it owns it),
  // then with every block of the ring in order, until the failure. Each stage is released right
  // after it was read, before f runs.
  template <class F>
  __device__ void for_each(F&& f)
  {
    if (h_->owns_block())
    {
      f(dim3(blockIdx.x, blockIdx.y, blockIdx.z));
    }
    while (true)
    {
      token t = wait();
      uint3 b{};
      const bool more = t.decode([&](const ring_block<receivers>& blk) { b = blk.ctaid(); });
      release(static_cast<token&&>(t));
      if (!more)
      {
        break;
      }
      f(dim3(b.x, b.y, b.z));
    }
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
