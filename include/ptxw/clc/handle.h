// ptxw/clc/handle.h: cluster launch control (clusterlaunchcontrol.try_cancel) with its protocol in the types.
//
//   __global__ void kernel(float* data, int n, ptxw::clc::context<> ctx)
//   {
//     __shared__ ptxw::clc::slot<ptxw::clc::cta_t> slot;   // 16-byte response + its mbarrier
//     auto clc = ptxw::clc::open(slot, ctx);               // collective
//     if (!clc.started()) return;                          // emulated_t: this block was canceled
//     unsigned bx = blockIdx.x;
//     while (true) {
//       __syncthreads();                                   // last response read by all (R4); init visible (R7)
//       clc.request(clc.elect());                          // one submitter per CTA (R3), armed (R5)
//       work(bx);
//       if (!clc.wait().decode([&](auto b) { bx = b.x(); })) break;  // block index only on success (R2)
//     }
//   }
//
// The backends (who answers requests) live in ptxw/clc/: hardware.h (try_cancel, sm_100+),
// emulated.h (the faithful emulation) and counter.h (Hopper's fast scheduler); checked mode's
// hooks in ptxw/clc/checks.h. The rules (docs/rules.md) and where they are enforced here:
//   R1 after an observed failure no request: the failure branch of decode() gets an exhausted
//      handle whose request() does not compile; any other request after a failure is checked mode's;
//   R2 a block index exists only inside decode()'s success callback; the raw escape hatch is
//      checked in checked mode;
//   R3 request() takes the CTA's one submitter, which only handle::elect() makes (one lane of the
//      CTA's first warp: one instruction, no per-lane loop); checked mode reports a second request
//      in one phase;
//   R4 a response is obtained only from wait(), which waits for the slot's phase, reads it once (one
//      ld.shared.v4) and, where the async proxy wrote it, releases it before returning; the slot's
//      contents are private; checked mode reports a request while readers have not finished;
//   R5 request() arms the requesting CTA's barrier (for the cluster form every CTA calls it and
//      rank 0 submits); checked mode names a CTA that never armed;
//   R6 waits use the handle's own ptxw::phase; a handle cannot be copied; checked mode reports a
//      thread behind or ahead of the slot's requests and turns a wait that never completes into a report;
//   R8 the cluster form's block index adds this CTA's position in its cluster; open() publishes the
//      barrier to the cluster;
//   R9 each backend compiles only where it runs (hardware_t from sm_100, its multicast form only on
//      sm_XXa/sm_XXf targets; the others from sm_90);
//   R14 a software backend's launch is the prepared grid or a prefix of it (checked mode).
#pragma once

#include <ptxw/clc/checks.h>
#include <ptxw/clc/counter.h>
#include <ptxw/clc/emulated.h>
#include <ptxw/clc/hardware.h>
#include <ptxw/clc/response.h>
#include <ptxw/clc/slot.h>
#include <ptxw/core/checked.h>
#include <ptxw/core/elect.h>

#if PTXW_CCCL_FAMILY_HEADERS
#  include <cuda/__ptx/instructions/get_sreg.h>
#endif

PTXW_NAMESPACE_BEGIN
namespace clc {
// The kernel parameter that carries everything a request needs beyond the slot: the backend's
// state for this launch (from ptxw::clc::scheduler::prepare; empty for the hardware), the backend
// the host launched for, and where checked mode reports (ptxw::checked::diagnostics::device_sink();
// null: print and trap).
template <class Backend = automatic_t>
struct context
{
  static_assert(detail::is_backend<Backend>, PTXW_RULE(R10) "the backend is ptxw::clc::automatic_t, "
                                             "hardware_t, emulated_t, counter_t or one with a PTXW_CLC_BACKEND row");
  typename detail::backend<detail::state_backend_t<Backend>>::state state;
  // The backend the host chose by the architecture and launched for; automatic where it chose none
  // (a launch of the whole grid, which every backend handles). Checked mode: R14 where another runs.
  backend_id prepared;
  const checked::sink* sink;

  // The grid whose block indices are handed out, in blocks: gridDim on hardware; with the
  // software backends the prepared grid, of which a resident-prefix launch (counter_t) is a prefix.
  __device__ dim3 grid() const
  {
    const uint3 g = detail::backend<detail::resolve_t<Backend>>::grid(state);
    return dim3(g.x, g.y, g.z);
  }
};

template <class Receivers, class Backend>
class handle;

// Defined at the end of this file.
template <class Receivers, class Backend>
__device__ handle<Receivers, Backend> open(slot<Receivers>& s, const context<Backend>& ctx,
                                      unsigned readers = blockDim.x * blockDim.y * blockDim.z);

// The CTA's one submitter (R3): one lane of its first warp, chosen by elect.sync. Made only by
// handle::elect(); true in that thread, false in every other.
class submitter : public ::ptxw::detail::chosen_lane
{
  bool first_warp_; // the submitter's warp: its lanes take part in the request's straight-line code

  template <class C, class B>
  friend class handle;

  struct by_election
  {};
  __device__ submitter(by_election, bool first_warp, bool won) noexcept
      : chosen_lane(won)
      , first_warp_(first_warp)
  {}

public:
  // Only handle::elect() makes one: a bool would let every thread that holds `true` submit.
  template <class T>
  PTXW_REFUSED(PTXW_RULE(R3) "a ptxw::clc::submitter comes only from handle.elect(), one lane of the "
               "CTA's first warp")
  submitter(T);
};

// One thread's end of cluster launch control: the slot, this thread's phase of its barrier, the
// backend's per-thread part and the context. Made by open(); never copied (it owns a ptxw::phase).
template <class Receivers, class Backend>
class handle
{
public:
  using backend_type = Backend;
  using cast_type    = Receivers;
  using backend_impl = detail::backend<detail::resolve_t<Backend>>;

private:
  using storage   = detail::slot_storage<Receivers>;
  using bar_scope = typename decltype(storage::bar)::scope_type;

  // Whether the backend runs on this target: the methods compile to nothing where it does not,
  // so that a wrong target makes one error, open()'s R9.
  static constexpr bool target_ok = backend_impl::template supported<Receivers>;

  storage* slot_;
  context<Backend> ctx_;
  phase ph_;
  backend_impl backend_;
  bool started_ = true;

  template <class R, class H>
  friend class response;
  template <class C, class B>
  friend __device__ handle<C, B> open(slot<C>&, const context<B>&, unsigned);

  __device__ handle(slot<Receivers>& user_slot, const context<Backend>& ctx, bool leader, unsigned readers)
      : slot_(&user_slot.storage_)
      , ctx_(ctx)
  {
    if constexpr (target_ok)
    {
      storage& s = *slot_;
      if (leader)
      {
        s.bar.init(arrivals{backend_impl::arrivals_per_phase});
        if constexpr (detail::is_cluster<Receivers>)
        {
          ::ptxw::fence_after_mbarrier_init();
        }
        detail::checks_open(s, readers, ctx.sink);
        detail::check_prepared(s, ctx.prepared, detail::id_of<detail::resolve_t<Backend>>, ctx.sink);
      }
      started_ = backend_.start(s, ctx.state, ctx.sink);
    }
  }

  // Waits for the slot's phase: bounded in checked mode (false when it ran out), else until done.
  __device__ bool wait_phase(decltype(storage::bar)& bar, phase& ph)
  {
#if PTXW_CHECKED
    return checked::bounded_spin(ctx_.sink, [&] {
      return bar.try_wait(ptx::sem_acquire, bar_scope{}, ph);
    });
#else
    bar.wait(ptx::sem_acquire, bar_scope{}, ph);
    return true;
#endif
  }

public:
  // R6: a copy would be a second, diverging phase of the slot's barrier.
  PTXW_REFUSED(PTXW_RULE(R6) "a cluster launch control handle owns its thread's ptxw::phase and cannot be "
               "copied; pass it by reference")
  handle(const handle&);
  handle& operator=(const handle&) = delete;

  // Whether this CTA runs: always on hardware (a canceled CTA never starts); with emulated_t,
  // false when another CTA claimed this one's cluster before it started -- return at once.
  __device__ bool started() const noexcept
  {
    return started_;
  }

  // Whether this CTA's own blockIdx is its first block (false only after an R14 report).
  __device__ bool owns_block() const noexcept
  {
    return backend_.owns_block();
  }

  // The CTA's one submitter (R3): one lane of its first warp. Call it from all threads, or from
  // any that include the first warp.
  __device__ submitter elect() const
  {
    const bool first_warp = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z) < 32u;
    if constexpr (target_ok) // else open()'s R9 is the one error
    {
      return submitter(submitter::by_election{}, first_warp, first_warp && static_cast<bool>(elect_one<Receivers>()));
    }
    else
    {
      return submitter(submitter::by_election{}, false, false);
    }
  }

  // Requests the next block, from the submitter elect() made -- after a barrier that follows the
  // previous wait() of every reader (__syncthreads; for cluster_t a cluster barrier). Every other
  // thread returns at once, so `clc.request(clc.elect())` from the whole CTA is one request.
  //
  // Checked mode: a second request for the same phase is reported (R3) and dropped; after an
  // observed failure (R1), or when readers never release the slot (R4), the request is answered
  // with a failure instead of a block, so every reader still gets a response and leaves its loop.
  __device__ void request(const submitter& s)
  {
    if constexpr (target_ok)
    {
      // The submitter's warp enters the backend's request (counter_t issues its atomic predicated,
      // so that no branch makes the compiler wait for its result); only the submitter's counts.
      if (s.first_warp_)
      {
        detail::verdict v = detail::verdict::drop;
        if (s.won_)
        {
          v = detail::before_request(*slot_, ph_, ctx_.sink);
        }
        backend_.request(*slot_, ctx_.state, v != detail::verdict::drop, v == detail::verdict::fail);
        if (v != detail::verdict::drop)
        {
          detail::after_request(*slot_);
        }
      }
    }
  }
  template <class T>
  PTXW_REFUSED(PTXW_RULE(R3) "request() takes the CTA's submitter, clc.elect(); ptxw::elect_one() "
               "elects a lane per warp, so every warp that reached the call would cancel a block")
  void request(const T&);

  // Waits for the slot's current phase, reads the response once and, where the async proxy wrote
  // it, releases the slot (fence_after_slot_read) before returning it. Every reader calls it.
  [[nodiscard]] __device__ response<Receivers, handle> wait()
  {
    uint4 raw = detail::failure_response();
    if constexpr (target_ok)
    {
      if (detail::before_wait(*slot_, ph_, ctx_.sink))
      {
        if (backend_.receive(*slot_, ctx_.state, ph_, raw, [this](auto& bar, phase& ph) {
              return wait_phase(bar, ph);
            }))
        {
          detail::after_read(*slot_);
        }
        else
        {
          detail::timed_out(*slot_, ph_, ctx_.sink);
          raw = detail::failure_response();
        }
      }
    }
    return response<Receivers, handle>(raw, this);
  }
};

// Collective: every thread of the CTA (for cluster_t: of every CTA of the cluster) calls it once,
// before any request. Thread 0 initialises the barrier (for cluster_t also publishing it to the
// cluster, R7); the backend decides whether this CTA runs (emulated_t claims its cluster and
// synchronises the CTA or cluster to share the outcome; the others do not synchronise: the
// barrier that precedes every request publishes the init). `readers`: threads that call wait()
// per response.
template <class Receivers, class Backend>
__device__ handle<Receivers, Backend> open(slot<Receivers>& s, const context<Backend>& ctx, unsigned readers)
{
  const bool leader = threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
  (void) handle<Receivers, Backend>::backend_impl::template check_target<Receivers>();
  return handle<Receivers, Backend>(s, ctx, leader, readers);
}

} // namespace clc
PTXW_NAMESPACE_END
