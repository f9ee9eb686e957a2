// ptxw/mbarrier/pipeline_state.h: where one role of a ring of Stages barriers is -- the stage it
// uses next and the parity of the phase it waits for there (rule R6), as one object.
//
// A ring of S stages has S barriers per direction; a role steps through them in order, and after
// the last stage its parity flips. An array of ptxw::phase indexed by the stage (one per barrier)
// is what the PTX ISA describes, but indexed by a run-time stage it lives on the stack; the stage
// index and one parity bit carry the same information in two registers, for every S (CUTLASS's
// PipelineState). Like ptxw::phase it cannot be built from integers or copied: it is made for a
// role -- a producer's first round waits on free stages (the phase before a fresh barrier's first,
// which the PTX ISA counts as complete), a consumer's on the first fill -- and it advances only
// after that role finished a step. Checked mode also counts the steps, so reports name the round.
#pragma once

#include <ptxw/core/checked.h>
#include <ptxw/core/target.h>

PTXW_NAMESPACE_BEGIN
namespace detail {
// The stage counts a ring may have: the state is a stage index and a parity bit for every count;
// more than 32 stages of even 128 bytes exceed nothing useful and are a typo more often than not.
template <unsigned Stages>
inline constexpr bool stage_count_in_range = Stages >= 1 && Stages <= 32;
} // namespace detail

template <unsigned Stages>
class pipeline_state
{
  static_assert(detail::stage_count_in_range<Stages>,
                PTXW_RULE(R18) "a pipeline has 1 to 32 stages (the template argument Stages)");

  ::cuda::std::uint32_t index_  = 0;
  ::cuda::std::uint32_t parity_ = 0;
#if PTXW_CHECKED
  ::cuda::std::uint32_t steps_ = 0;
#endif

  struct start_tag
  {};
  __device__ pipeline_state(start_tag, ::cuda::std::uint32_t parity) noexcept
      : parity_(parity)
  {}

public:
  static constexpr unsigned stages = Stages;

  // A producer's state: its first round finds every stage free.
  __device__ static pipeline_state for_producer() noexcept
  {
    return pipeline_state(start_tag{}, 1u);
  }
  // A consumer's state: its first round waits for each stage's first fill.
  __device__ static pipeline_state for_consumer() noexcept
  {
    return pipeline_state(start_tag{}, 0u);
  }

  // Returned by value from the two factories above (guaranteed elision), never copied after.
  PTXW_REFUSED(PTXW_RULE(R6) "a ptxw::pipeline_state is not copied (a copy is a second, diverging idea of "
               "where the ring is): pass it by reference")
  pipeline_state(const pipeline_state&);
  PTXW_REFUSED(PTXW_RULE(R6) "a ptxw::pipeline_state is not assigned: it advances one step at a time")
  pipeline_state& operator=(const pipeline_state&);
  // Dao-AILab/flash-attention #1317: a ring started on the wrong phase. No parity is ever written.
  template <class... T>
  PTXW_REFUSED(PTXW_RULE(R6) "a ptxw::pipeline_state is not made from a parity or index: "
               "pipeline_state<S>::for_producer() starts on free stages, for_consumer() on the first fill")
  pipeline_state(T...);

  // The stage the role uses next.
  __device__ ::cuda::std::uint32_t index() const noexcept
  {
    return index_;
  }
  // The parity of the phase the role waits for at that stage.
  __device__ ::cuda::std::uint32_t parity() const noexcept
  {
    return parity_;
  }

  // One step: the next stage, and past the last one the next round (the other parity). A
  // compare and a select, no division, whatever Stages is.
  __device__ void advance() noexcept
  {
    if constexpr (Stages == 1)
    {
      parity_ ^= 1u;
    }
    else
    {
      ++index_;
      if (index_ == Stages)
      {
        index_ = 0;
        parity_ ^= 1u;
      }
    }
#if PTXW_CHECKED
    ++steps_;
#endif
  }

  // Steps taken so far, for checked mode's reports (the round is steps() / Stages); 0 without
  // checked mode, which does not count them.
  __device__ ::cuda::std::uint32_t steps() const noexcept
  {
#if PTXW_CHECKED
    return steps_;
#else
    return 0;
#endif
  }

  // The round the next step is in: steps() / Stages.
  __device__ ::cuda::std::uint32_t round() const noexcept
  {
    return steps() / Stages;
  }
};

PTXW_NAMESPACE_END
