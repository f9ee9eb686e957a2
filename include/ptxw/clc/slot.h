// ptxw/clc/slot.h: who receives a cluster launch control response (cta_t, cluster_t) and the
// shared-memory slot it lands in. Who answers requests: ptxw/clc/backend_table.h.
#pragma once

#include <ptxw/claim/engine.h>
#include <ptxw/clc/backend_table.h>
#include <ptxw/mbarrier/barrier.h>

PTXW_NAMESPACE_BEGIN
namespace clc {
template <class Receivers>
class slot;
template <class Backend>
struct context;
} // namespace clc

namespace detail {
// ptxw/clc/for_each.h's loop, which runs a backend's own loop where it has one.
template <int Rank, class Receivers, class Backend, class Prologue, class F>
__device__ void for_each_canceled(clc::slot<Receivers>&, const clc::context<Backend>&, Prologue&, F&);
} // namespace detail

namespace clc {
// Who receives a response: the requesting CTA (try_cancel; SASS UGETNEXTWORKID.SELFCAST), or
// every CTA of its cluster (try_cancel.multicast::cluster::all; UGETNEXTWORKID.BROADCAST).
struct cta_t
{};
struct cluster_t
{};

namespace detail {
// Checked-mode bookkeeping of one CTA's slot (ptxw/clc/checks.h). Counts, not flags, so that a
// check can tell which phase a thread or a request belongs to.
struct slot_checks
{
  ::cuda::std::uint32_t claimed; // phases a request() has claimed, plus one: R3 sees a second claim
  ::cuda::std::uint32_t requests; // request() calls that armed this CTA's barrier: R5, R6
  ::cuda::std::uint32_t released; // wait() calls that read and released a response: R4
  ::cuda::std::uint32_t readers; // wait() calls per phase (open()'s argument)
  ::cuda::std::uint32_t failed; // a failure was decoded in this CTA: R1
};

template <class Receivers>
using barrier_for = mbarrier<typename ::ptxw::detail::conditional<::ptxw::detail::is_same_v<Receivers, cluster_t>,
                                                                 ptx::scope_cluster_t, ptx::scope_cta_t>::type>;

// counter_t's batch, through the typed API: indices claimed from the counter and not handed out
// yet, and the pace of the requests that sizes the next claim.
struct batch_state
{
  ::cuda::std::uint32_t left; // indices still to hand out
  ::cuda::std::uint32_t next; // the next of them
  ::cuda::std::uint32_t claimed; // indices of the last claim: all handed out when the next claim is made
  ::ptxw::detail::claim::pace pace;
};

// What a slot holds. Backends and the handle work on it; users only declare the slot.
template <class Receivers>
struct slot_storage
{
  alignas(16) uint4 response; // written by the backend (for hardware_t and emulated_t: the async proxy)
  barrier_for<Receivers> bar; // completes when the response has landed
  ::cuda::std::uint32_t started; // emulated_t: this CTA's cluster ran for itself
  batch_state batch; // counter_t, through the typed API (whose submitting lane may change)
  ::ptxw::detail::claim::handover<uint4> ranges; // counter_t's for_each loop
#if PTXW_CHECKED
  slot_checks checks;
#endif
};
} // namespace detail

// The shared-memory end of cluster launch control: the 16-byte response and the mbarrier that
// completes when it has landed. Declare it __shared__ and pass it to open(); its contents are
// reachable only through the handle open() returns, whose wait() is the one way to a response (R4).
template <class Receivers>
class slot
{
  static_assert(::ptxw::detail::is_one_of<Receivers, cta_t, cluster_t>,
                PTXW_RULE(R10) "a response goes to ptxw::clc::cta_t (the requesting CTA) or "
                "ptxw::clc::cluster_t (every CTA of the cluster)");
  detail::slot_storage<Receivers> storage_;

  template <class C, class B>
  friend class handle;
  template <int R, class C, class B, class P, class F>
  friend __device__ void ::ptxw::detail::for_each_canceled(slot<C>&, const context<B>&, P&, F&);

public:
  // A response is read through handle::wait(), after its phase completed, never from the slot.
  struct read_through_wait
  {
    template <class T>
    __device__ operator T() const
    {
      static_assert(::ptxw::detail::dependent_false<T>,
                    PTXW_RULE(R4) "the response exists only after its barrier phase "
                    "completed; read it through handle.wait() (which waits, reads it once and releases the slot)");
      return T{};
    }
  } response;
};

} // namespace clc
PTXW_NAMESPACE_END
