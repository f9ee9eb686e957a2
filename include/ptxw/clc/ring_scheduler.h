// ptxw/clc/ring_scheduler.h: the scheduler role of a response ring (ptxw/clc/ring.h) -- its one
// submitter (R3) and the warp that waits for each stage's release, requests into it and reads the
// answer, until the first failure (R1, R4, R5).
#pragma once

#include <ptxw/clc/handle.h>
#include <ptxw/clc/ring_checks.h>
#include <ptxw/clc/ring_storage.h>
#include <ptxw/core/checked.h>
#include <ptxw/core/elect.h>
#include <ptxw/mbarrier/pipeline_state.h>

PTXW_NAMESPACE_BEGIN
namespace clc {

// The scheduler's one submitter (R3): one lane of the scheduler warp, chosen by elect.sync. Made
// only by ring_handle::elect(); true in that lane.
class ring_submitter : public ::ptxw::detail::chosen_lane
{
  template <unsigned D, unsigned C, class R, class B>
  friend class ring_handle;
  template <class H>
  friend class ring_scheduler;

  struct by_election
  {};
  __device__ ring_submitter(by_election, bool won) noexcept
      : chosen_lane(won)
  {}

public:
  template <class T>
  PTXW_REFUSED(PTXW_RULE(R3) "a ptxw::clc::ring_submitter comes only from the ring's elect(), one lane of the "
               "scheduler warp")
  ring_submitter(T);
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
    return st_.steps();
  }

  // The cluster form's leader, after the failure: waits for every stage's last release, the
  // failure's included, so that no consumer of another CTA arrives on its empty barriers after
  // the leader has left (distributed shared memory of a CTA that exited must not be touched).
  // Stages never requested into complete at once: their wait is for the phase before the first.
  // `report`: false where checked mode answered the failure itself after a report of its own,
  // whose consequence a release that never comes is.
  __device__ void drain(const ring_submitter& sub, bool report)
  {
    Handle& h = *h_;
    for (unsigned i = 0; i < Handle::stages; ++i)
    {
      const ::cuda::std::uint32_t stage = st_.index();
      if (!h.wait_parity(h.s_->empty[stage], st_.parity()))
      {
#if PTXW_CHECKED
        if (sub.won_ && report)
        {
          detail::ring_unreleased<Handle::stages, Handle::consumers, typename Handle::receivers_type>(
            h.s_->checks, h.stage_address(stage), stage, step(), h.ctx_.sink);
        }
#endif
        break; // one report; every later wait would run out as well
      }
      st_.advance();
    }
    (void) sub, (void) report;
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
      // Only the submitting CTA waits for the releases: in the cluster form every CTA's consumers
      // release to the leader, and another CTA's scheduler only arms its own copy of the stage,
      // which its read of the stage's last answer has already seen complete.
      const bool free_stage = !Handle::leads() || h.wait_parity(h.s_->empty[stage], st_.parity());
      detail::verdict v     = free_stage ? detail::verdict::submit : detail::verdict::fail;
#if PTXW_CHECKED
      v = detail::verdict::drop;
      if (sub.won_)
      {
        v = detail::ring_before_request<Handle::stages, Handle::consumers, typename Handle::receivers_type>(
          h.s_->checks, h.stage_address(stage), stage, step(), Handle::leads(), free_stage, h.ctx_.sink);
      }
#endif
      // The lanes' reads of this stage's last response before the submitter's write into it.
      __syncwarp();
      h.backend_.template request<detail::claims::one>(slot, h.ctx_.state, sub.won_ && v != detail::verdict::drop,
                                                      v == detail::verdict::fail);
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
      st_.advance();
      canceled = backend_impl::canceled(raw);
#if PTXW_CHECKED
      if (!canceled && sub.won_)
      {
        detail::ring_note_failure(h.s_->checks);
      }
#endif
      if (!canceled && detail::is_cluster<typename Handle::receivers_type> && Handle::leads())
      {
        drain(sub, v == detail::verdict::submit);
      }
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

} // namespace clc
PTXW_NAMESPACE_END
