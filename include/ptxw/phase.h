// ptxw/phase.h: the phase a thread waits for next on one mbarrier (rule R6).
//
// mbarrier.try_wait.parity and test_wait.parity take the parity of the phase to wait for. Passing a
// stale or hand-computed parity returns at once on an old phase, or never. A ptxw::phase starts at
// parity 0 (a freshly initialised barrier is in phase 0), cannot be built from an integer, cannot
// be copied (a copy is a second, diverging idea of where the barrier is), and only flips inside a
// wait that observed its phase complete -- exactly once per completed wait.
#pragma once

#include <ptxw/checked.h>
#include <ptxw/target.h>

PTXW_NAMESPACE_BEGIN
template <class Scope>
class mbarrier;

class phase
{
  // Checked mode counts completed waits (the parity is the low bit), so diagnostics can name the
  // phase; otherwise it is the parity itself.
  ::cuda::std::uint32_t state_ = 0;

  template <class Scope>
  friend class mbarrier;

  __device__ explicit phase(::cuda::std::uint32_t state) noexcept
      : state_(state)
  {}

  __device__ void advance() noexcept
  {
#if PTXW_CHECKED
    ++state_;
#else
    state_ ^= 1u;
#endif
  }

public:
  phase() = default;
  // R6: a copy would be a second, diverging idea of where the barrier is. (Passing a phase where
  // a (sem, scope) pair goes -- qualifiers come first -- also lands here.)
  phase(const phase&)            = delete;
  phase& operator=(const phase&) = delete;

  // The phase before a fresh barrier's first: a wait on it succeeds at once (PTX counts the
  // immediately preceding phase as complete). A producer's first wait on an "empty" barrier, whose
  // slots start out free:  ptxw::phase empty_ph = ptxw::phase::preceding();
  __device__ static phase preceding() noexcept
  {
#if PTXW_CHECKED
    return phase(~0u);
#else
    return phase(1u);
#endif
  }

  // The parity passed to the next try_wait/test_wait: 0 or 1.
  __device__ ::cuda::std::uint32_t parity() const noexcept
  {
#if PTXW_CHECKED
    return state_ & 1u;
#else
    return state_;
#endif
  }

#if PTXW_CHECKED
  // Waits completed so far (checked mode only).
  __device__ ::cuda::std::uint32_t count() const noexcept
  {
    return state_;
  }
#endif
};

namespace detail {
// Ph, as deduced by a forwarding reference, is a non-const phase lvalue.
template <class Ph>
inline constexpr bool is_phase_lvalue = is_same_v<Ph, phase&>;
} // namespace detail

PTXW_NAMESPACE_END