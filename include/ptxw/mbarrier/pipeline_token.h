// ptxw/mbarrier/pipeline_token.h: what a ptxw::pipeline's two sides share -- a role's handle (the
// pipeline's storage and the role's place in the ring, rule R6) and a stage token (the stage it
// stands for and, in checked mode, the fill and whether the token was handed back, rule R27).
//
// A token is move-only: a move leaves the source spent, so a second hand-over through it is seen
// (checked mode) and a copy does not compile. The producer's and the consumer's handles and tokens
// add what their side needs (ptxw/mbarrier/pipeline_producer.h, pipeline_consumer.h).
#pragma once

#include <ptxw/core/checked.h>
#include <ptxw/core/target.h>
#include <ptxw/mbarrier/pipeline_base.h>

PTXW_NAMESPACE_BEGIN
namespace detail {

// A role's handle: where the ring is for this role, one state per role and thread (not copied);
// a producer's first round finds the stages free, a consumer's waits for their first fill.
// Only the pipeline makes one (its producer() and consumer()); the roles inherit this constructor.
template <class Base, bool Producer>
class pipeline_role
{
  template <unsigned, class, class, class>
  friend class ::ptxw::pipeline;

protected:
  typename Base::storage* st_;
  typename Base::state_type state_;

  __device__ explicit pipeline_role(typename Base::storage* st) noexcept
      : st_(st)
      , state_(Producer ? Base::state_type::for_producer() : Base::state_type::for_consumer())
  {}

  // The stage a wait found ready, and the round of it the role waited for.
  struct next_stage
  {
    ::cuda::std::uint32_t index;
    ::cuda::std::uint32_t round;
  };

  // The role's one wait: on its barrier of the next stage (the producer on the stage's empty
  // barrier, at the pipeline's wait scope; a consumer on its full barrier, at CTA scope: what
  // completes a fill arrives in this CTA), then the role moves on to the stage after it.
  __device__ next_stage wait_next()
  {
    const ::cuda::std::uint32_t s = state_.index();
    if constexpr (Producer)
    {
      Base::wait_for(st_, st_->empty[s], 0, state_, typename Base::wait_scope{});
    }
    else
    {
      Base::wait_for(st_, st_->full[s], 1, state_, ptx::scope_cta);
    }
    const next_stage next{s, state_.round()};
    state_.advance();
    return next;
  }

public:
  // Where the role is: the stage and parity of its next acquire or wait.
  __device__ const typename Base::state_type& state() const noexcept
  {
    return state_;
  }
};

class pipeline_token
{
  ::cuda::std::uint32_t index_;
#if PTXW_CHECKED
  bool live_                   = true;
  ::cuda::std::uint32_t round_ = 0;
#endif

protected:
  __device__ pipeline_token(::cuda::std::uint32_t index, ::cuda::std::uint32_t round) noexcept
      : index_(index)
  {
#if PTXW_CHECKED
    round_ = round;
#else
    (void) round;
#endif
  }
  __device__ pipeline_token(pipeline_token&& o) noexcept
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
  pipeline_token& operator=(const pipeline_token&) = delete;

#if PTXW_CHECKED
  // The token's one hand-over: true the first time.
  __device__ bool hand_over() noexcept
  {
    const bool was = live_;
    live_          = false;
    return was;
  }

  // Not handed over yet: a token that ends so was dropped.
  __device__ bool pending() const noexcept
  {
    return live_;
  }
#endif

public:
  // The stage, to index the user's buffers: tile[s.index()].
  __device__ ::cuda::std::uint32_t index() const noexcept
  {
    return index_;
  }

  // The fill this token is for (checked mode: counted from 0; unchecked 0, nothing reads it).
  __device__ ::cuda::std::uint32_t fill() const noexcept
  {
#if PTXW_CHECKED
    return round_;
#else
    return 0;
#endif
  }
};

} // namespace detail
PTXW_NAMESPACE_END
