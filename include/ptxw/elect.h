// ptxw/elect.h: one lane of a warp, chosen by elect.sync (rule R3).
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

#include <ptxw/detail/qualifiers.h>
#include <ptxw/target.h>

PTXW_NAMESPACE_BEGIN

class elected
{
  bool won_;

  struct by_elect_sync
  {};
  __device__ elected(by_elect_sync, bool won) noexcept
      : won_(won)
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

  // elect.sync _|p, membermask;  // PTX ISA 80, SM_90. membermask: the lanes active at the call,
  // so it may be called from one warp or from one thread; ptxas folds the mask into ELECT.
  template <class Dep = void>
  static __device__ elected elect()
  {
    using none                = detail::dependent_t<detail::qualifiers::none_t, Dep>;
    ::cuda::std::uint32_t won = 0;
    if constexpr (detail::qualifiers::check<detail::qualifiers::elect_sync, none, none, none>())
    {
      asm volatile("{\n\t.reg .pred p;\n\telect.sync _|p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                   : "=r"(won)
                   : "r"(__activemask()));
    }
    return elected(by_elect_sync{}, won != 0);
  }

  // True on the one lane elect.sync chose.
  __device__ explicit operator bool() const noexcept
  {
    return won_;
  }
};

// One lane of the calling threads of a warp: elected::elect().
template <class Dep = void>
__device__ elected elect_one()
{
  return elected::elect<Dep>();
}

PTXW_NAMESPACE_END