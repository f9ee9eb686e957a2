// ptxw/core/elect.h: one lane of a warp, chosen by elect.sync (rule R3).
//
// A uniform instruction such as clusterlaunchcontrol.try_cancel, issued by code that several lanes
// may reach, compiles to a loop that issues it once per active lane (ELECT ... BRA.U.ANY in SASS):
// several requests where one was meant. Behind elect.sync, ptxas emits it exactly once:
//
//   if (ptxw::elected e = ptxw::elect_one()) bar.arrive();
//
// One lane per warp is not one thread per CTA: the cluster launch control request takes the CTA's
// submitter, handle::elect() (ptxw/clc/handle.h), built on this.
#pragma once

#include <ptxw/core/checked.h>
#include <ptxw/isa/elect.h>

PTXW_NAMESPACE_BEGIN

namespace detail {
// What the tokens of R3 share -- ptxw::elected, clc::submitter, clc::ring_submitter: whether this
// lane is the one its election chose, read as `if (token)`. Each is made only by its own election
// and refuses a bool with its own message.
class chosen_lane
{
protected:
  bool won_;

  __device__ explicit chosen_lane(bool won) noexcept
      : won_(won)
  {}

public:
  // True on the one lane the election chose.
  __device__ explicit operator bool() const noexcept
  {
    return won_;
  }
};
} // namespace detail

class elected : public detail::chosen_lane
{
  struct by_elect_sync
  {};
  __device__ elected(by_elect_sync, bool won) noexcept
      : chosen_lane(won)
  {}

public:
  // Only elect() makes one: a bool would let every lane that holds `true` act as the one.
  template <class T>
  PTXW_REFUSED(PTXW_RULE(R3) "a ptxw::elected comes only from ptxw::elect_one() (elect.sync picks one "
               "lane); it cannot be made from a bool")
  elected(T);
  PTXW_REFUSED(PTXW_RULE(R3) "a ptxw::elected comes only from ptxw::elect_one() (elect.sync picks one "
               "lane)")
  elected();

  // elect.sync (isa/elect.h): one lane of the calling threads of a warp.
  template <class Deferred = void>
  static __device__ elected elect()
  {
    return elected(by_elect_sync{}, detail::isa::elect_sync<Deferred>());
  }

  // elect.sync with the full mask: every lane of the warp must call it, converged (checked mode
  // reports a warp that does not, R3, and elects among the lanes that do).
  template <class Deferred = void>
  static __device__ elected elect_warp()
  {
#if PTXW_CHECKED
    if (__activemask() != 0xffffffffu)
    {
      const bool first = (__activemask() & ((1u << (threadIdx.x % 32u)) - 1u)) == 0;
      if (first)
      {
        checked::report(checked::default_sink<>, rule::one_submitter, 0, 0, __activemask(),
                        " (elect_one_of_warp() called by part of a warp; detail: the lanes that called)");
      }
      return elected(by_elect_sync{}, detail::isa::elect_sync<Deferred>());
    }
#endif
    return elected(by_elect_sync{}, detail::isa::elect_sync_warp<Deferred>());
  }
};

// One lane of the calling threads of a warp: elected::elect().
template <class Deferred = void>
__device__ elected elect_one()
{
  return elected::elect<Deferred>();
}

// One lane of a whole, converged warp: elected::elect_warp(). Where every lane calls (a producer
// warp, a consumer warp after __syncwarp) it is the cheaper form: no mask to compute, and ptxas
// issues a uniform instruction behind it once, without a per-lane loop.
template <class Deferred = void>
__device__ elected elect_one_of_warp()
{
  return elected::elect_warp<Deferred>();
}

PTXW_NAMESPACE_END