// ptxw/mbarrier/phase.h: the phase a thread waits for next on one mbarrier (rule R6).
//
// mbarrier.try_wait.parity and test_wait.parity take the parity of the phase to wait for. Passing a
// stale or hand-computed parity returns at once on an old phase, or never. A ptxw::phase starts at
// parity 0 (a freshly initialised barrier is in phase 0), cannot be built from an integer, cannot
// be copied (a copy is a second, diverging idea of where the barrier is), and only flips inside a
// wait that observed its phase complete -- exactly once per completed wait. It belongs to one
// thread (a local variable) and one barrier; checked mode reports a phase in shared memory and a
// phase that waits on a second barrier.
#pragma once

#include <ptxw/core/checked.h>
#include <ptxw/core/target.h>
#include <ptxw/isa/mapa.h>
#include <ptxw/mbarrier/counts.h>

PTXW_NAMESPACE_BEGIN
template <class Scope>
class mbarrier;

class phase
{
  // Checked mode counts completed waits (the parity is the low bit), so diagnostics can name the
  // phase; otherwise it is the parity itself.
  ::cuda::std::uint32_t state_ = 0;
#if PTXW_CHECKED
  // The barrier of this phase's first wait (shared::cta address); ~0u before it.
  ::cuda::std::uint32_t barrier_ = ~0u;
#endif

  template <class Scope>
  friend class mbarrier;

  struct state_tag
  {};
  __device__ phase(state_tag, ::cuda::std::uint32_t state) noexcept
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

  // Checked mode, before each wait on the barrier at shared::cta address `barrier` (R6). A phase in
  // shared memory was never initialised and is flipped by every thread that waits; a phase used
  // on a second barrier flips once per wait on either and leaves both behind. Unchecked: nothing.
  __device__ void check_use(::cuda::std::uint32_t barrier) noexcept
  {
#if PTXW_CHECKED
    if (__isShared(this)) // folds to false for a local phase: no cost there
    {
      checked::report(checked::default_sink<>, rule::parity, barrier, state_, detail::isa::smem_addr(this),
                      " (a ptxw::phase in shared memory: declare it as a local variable; detail: its address)");
    }
    else if (barrier_ == ~0u)
    {
      barrier_ = barrier;
    }
    else if (barrier_ != barrier)
    {
      checked::report(checked::default_sink<>, rule::parity, barrier, state_, barrier_,
                      " (one ptxw::phase waits on two barriers: one phase per barrier; detail: the barrier of its "
                      "first wait)");
    }
#else
    (void) barrier;
#endif
  }

public:
  // Not constexpr, on purpose: nvcc then warns (#20054, "dynamic initialization is not supported")
  // about `__shared__ ptxw::phase`, whose initialiser would never run; checked mode reports it.
  __device__ phase() noexcept {}

  // R6: a copy is a second, diverging idea of where the barrier is. A phase passed to a wait before
  // the (sem, scope) pair lands here too, copied into the by-value `sem`.
  PTXW_REFUSED(PTXW_RULE(R6) "a ptxw::phase is not copied or moved (a copy is a second, diverging idea of "
               "where the barrier is): pass it by reference, ptxw::phase&; a wait takes the (sem, scope) pair "
               "first, then the phase")
  phase(const phase&);
  PTXW_REFUSED(PTXW_RULE(R6) "a ptxw::phase is not assigned (it flips only in a completed wait): use one "
               "phase per barrier, for the barrier's whole life")
  phase& operator=(const phase&);
  template <class T>
  PTXW_REFUSED(PTXW_RULE(R6) "a ptxw::phase is not made from an integer: `ptxw::phase ph;` waits for a "
               "fresh barrier's first phase, `ptxw::phase::preceding()` for the one before it (a producer's "
               "first wait on a free slot)")
  phase(T);

  // The phase before a fresh barrier's first: a wait on it succeeds at once (PTX counts the
  // immediately preceding phase as complete). A producer's first wait on an "empty" barrier, whose
  // slots start out free:  ptxw::phase empty_ph = ptxw::phase::preceding();
  __device__ static phase preceding() noexcept
  {
#if PTXW_CHECKED
    return phase(state_tag{}, ~0u);
#else
    return phase(state_tag{}, 1u);
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
PTXW_ONLY(phase_arg, phase&,
          PTXW_RULE(R6) "waits take a ptxw::phase lvalue, which flips once per completed wait; a parity "
          "integer or a temporary phase is how waits end up on the wrong phase");
} // namespace detail

PTXW_NAMESPACE_END
