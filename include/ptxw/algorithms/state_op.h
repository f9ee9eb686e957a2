// ptxw/algorithms/state_op.h: what for_each_with_state (algorithms/for_each_with_state.h) takes of its op --
// a per-CTA `state`, an optional setup() and flush() -- and what the state must be (R18).
#pragma once

#include <ptxw/algorithms/policy.h>

#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include <cstddef>

PTXW_NAMESPACE_BEGIN
namespace device::detail {
// ---- the op's interface, and what its state must be (R18) ----
template <class Op, class = void>
inline constexpr bool has_state = false;
template <class Op>
inline constexpr bool has_state<Op, ::cuda::std::void_t<typename Op::state>> = true;

template <class Op, bool = has_state<Op>>
struct state_of
{
  struct type // stands in where the op has none, so that the one error is R18's
  {};
};
template <class Op>
struct state_of<Op, true>
{
  using type = typename Op::state;
};
template <class Op>
using state_t = typename state_of<Op>::type;

template <class Op, class = void>
inline constexpr bool has_setup = false;
template <class Op>
inline constexpr bool has_setup<Op, ::cuda::std::void_t<decltype(::cuda::std::declval<Op&>().setup(
                                      ::cuda::std::declval<state_t<Op>&>()))>> = true;
template <class Op, class = void>
inline constexpr bool has_flush = false;
template <class Op>
inline constexpr bool has_flush<Op, ::cuda::std::void_t<decltype(::cuda::std::declval<Op&>().flush(
                                      ::cuda::std::declval<state_t<Op>&>()))>> = true;

// The most dynamic shared memory a CTA may opt into on architecture `arch` (900, 1000, ...), less
// 1 KiB for the scheduler's own __shared__ variables: 227 KiB on sm_90, sm_100, sm_103 and sm_110,
// 99 KiB on sm_120 and sm_121.
constexpr std::size_t max_state_bytes(int arch)
{
  return (arch / 10 >= 120 ? 101376u : 232448u) - 1024u;
}

template <class Op>
inline constexpr bool state_op_ok =
  has_state<Op> && ::cuda::std::is_trivially_default_constructible_v<state_t<Op>>
  && ::cuda::std::is_trivially_destructible_v<state_t<Op>> && alignof(state_t<Op>) <= 16;

// The op's state, checked (R18); whether it passed, so that nothing is instantiated for an op that
// did not (one error, not a cascade).
template <class Op>
constexpr bool check_state_op()
{
  static_assert(has_state<Op>, PTXW_RULE(R18) "a for_each_with_state op names its per-CTA state: a type Op::state");
  using state = state_t<Op>;
  static_assert(::cuda::std::is_trivially_default_constructible_v<state>
                  && ::cuda::std::is_trivially_destructible_v<state>,
                PTXW_RULE(R18) "an op's state is trivially default-constructible and destructible (it lives in "
                               "shared memory that setup() initialises)");
  static_assert(alignof(state) <= 16, PTXW_RULE(R18) "an op's state is aligned to at most 16 bytes");
  return state_op_ok<Op>;
}

template <class Op>
__device__ void setup_of(Op& op, state_t<Op>& s)
{
  if constexpr (has_setup<Op>)
  {
    op.setup(s);
  }
  else
  {
    (void) op, (void) s;
  }
}
template <class Op>
__device__ void flush_of(Op& op, state_t<Op>& s)
{
  if constexpr (has_flush<Op>)
  {
    op.flush(s);
  }
  else
  {
    (void) op, (void) s;
  }
}
} // namespace device::detail
PTXW_NAMESPACE_END
