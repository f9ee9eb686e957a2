// ptxw/phase.h: the phase a thread waits for next on one mbarrier (rule R6).
//
// mbarrier.try_wait.parity and test_wait.parity take the parity of the phase to wait for. Passing a
// stale or hand-computed parity returns at once on an old phase, or never. A ptxw::phase starts at
// parity 0 (a freshly initialised barrier is in phase 0), cannot be built from an integer, and
// only flips inside a wait that observed its phase complete -- exactly once per completed wait.
#pragma once

#include <ptxw/target.h>

namespace ptxw {

template <class Scope>
class mbarrier;

class phase
{
  ::cuda::std::uint32_t parity_ = 0;

  template <class Scope>
  friend class mbarrier;

  __device__ void advance() noexcept
  {
    parity_ ^= 1u;
  }

public:
  phase() = default;

  // The parity passed to the next try_wait/test_wait: 0 or 1.
  __device__ ::cuda::std::uint32_t parity() const noexcept
  {
    return parity_;
  }
};

namespace detail {
template <class Ph>
inline constexpr bool is_phase_lvalue =
  ::cuda::std::is_lvalue_reference_v<Ph> && ::cuda::std::is_same_v<remove_cvref_t<Ph>, phase>
  && !::cuda::std::is_const_v<::cuda::std::remove_reference_t<Ph>>;
} // namespace detail

} // namespace ptxw
