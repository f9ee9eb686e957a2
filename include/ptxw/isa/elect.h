// PTX forms cuda::ptx (CCCL 3.0.1) lacks: elect.sync (CCCL's own for_each_canceled_block spells it
// in inline asm too).
#pragma once

#include <ptxw/isa/qualifiers.h>

PTXW_NAMESPACE_BEGIN
namespace detail::isa {
// elect.sync _|p, membermask;  // PTX ISA 80, SM_90. membermask: the lanes active at the call, so it
// may be called from one warp or from one thread; ptxas folds the mask into ELECT. True on the one
// lane elected.
template <class Deferred = void>
__device__ bool elect_sync()
{
  using none                = dependent_t<qualifiers::none_t, Deferred>;
  ::cuda::std::uint32_t won = 0;
  if constexpr (qualifiers::check<qualifiers::elect_sync, none, none, none>())
  {
    asm volatile("{\n\t.reg .pred p;\n\telect.sync _|p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(won)
                 : "r"(__activemask()));
  }
  return won != 0;
}

// elect.sync _|p, 0xffffffff;  // PTX ISA 80, SM_90. Every lane of the warp takes part: with the full
// mask ptxas knows one lane runs what follows, and emits no per-lane loop (BRA.U.ANY) around a
// uniform instruction after it, no VOTE for the mask.
template <class Deferred = void>
__device__ bool elect_sync_warp()
{
  using none                = dependent_t<qualifiers::none_t, Deferred>;
  ::cuda::std::uint32_t won = 0;
  if constexpr (qualifiers::check<qualifiers::elect_sync, none, none, none>())
  {
    asm volatile("{\n\t.reg .pred p;\n\telect.sync _|p, 0xffffffff;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(won));
  }
  return won != 0;
}
} // namespace detail::isa
PTXW_NAMESPACE_END
