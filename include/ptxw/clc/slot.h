// ptxw/clc/slot.h: the vocabulary of cluster launch control -- who receives a response (cta_t,
// cluster_t), who answers requests (the backends), and the shared-memory slot a response lands in.
#pragma once

#include <ptxw/mbarrier/barrier.h>

PTXW_NAMESPACE_BEGIN
namespace clc {
template <class Cast>
class slot;
template <class Backend>
struct context;
} // namespace clc

namespace detail {
// ptxw/clc/for_each.h's loop, which runs a backend's own loop where it has one.
template <int Rank, class Cast, class Backend, class Prologue, class F>
__device__ void for_each_canceled(clc::slot<Cast>&, const clc::context<Backend>&, Prologue&, F&);
} // namespace detail

namespace clc {
// Who receives a response: the requesting CTA (try_cancel; SASS UGETNEXTWORKID.SELFCAST), or
// every CTA of its cluster (try_cancel.multicast::cluster::all; UGETNEXTWORKID.BROADCAST).
struct cta_t
{};
struct cluster_t
{};

// Who answers requests (one file each in ptxw/clc/):
//   hardware_t  the GPU: clusterlaunchcontrol.try_cancel (sm_100 and newer);
//   emulated_t  the faithful emulation: a response delivered through the async proxy, as the
//               hardware does, with fault injection (sm_90 and newer);
//   counter_t   Hopper's fast scheduler: one global counter, no async proxy (sm_90 and newer);
//   automatic_t the hardware where the target has cluster launch control, counter_t below.
struct hardware_t
{};
struct emulated_t
{};
struct counter_t
{};
struct automatic_t
{};

namespace detail {
template <class Backend>
inline constexpr bool is_backend = ::ptxw::detail::is_one_of<Backend, hardware_t, emulated_t, counter_t, automatic_t>;

// The backend a device pass runs for Backend (the host pass sees counter_t for automatic_t).
template <class Backend>
struct resolve
{
  using type = Backend;
};
template <>
struct resolve<automatic_t>
  : ::ptxw::detail::conditional<target::device_pass && target::sm >= 100, hardware_t, counter_t>
{};
template <class Backend>
using resolve_t = typename resolve<Backend>::type;

// Checked-mode bookkeeping of one CTA's slot (ptxw/clc/checks.h). Counts, not flags, so that a
// check can tell which phase a thread or a request belongs to.
struct books
{
  ::cuda::std::uint32_t claimed; // phases a request() has claimed, plus one: R3 sees a second claim
  ::cuda::std::uint32_t requests; // request() calls that armed this CTA's barrier: R5, R6
  ::cuda::std::uint32_t released; // wait() calls that read and released a response: R4
  ::cuda::std::uint32_t readers; // wait() calls per phase (open()'s argument)
  ::cuda::std::uint32_t failed; // a failure was decoded in this CTA: R1
};

template <class Cast>
using barrier_for = mbarrier<typename ::ptxw::detail::conditional<::ptxw::detail::is_same_v<Cast, cluster_t>,
                                                                 ptx::scope_cluster_t, ptx::scope_cta_t>::type>;

// counter_t's batch: indices taken from the counter and not handed out yet, and the pace of the
// requests that sizes the next batch.
struct batch_state
{
  ::cuda::std::uint32_t left; // indices still to hand out
  ::cuda::std::uint32_t next; // the next of them
  ::cuda::std::uint32_t last_request; // clock of the last request
  ::cuda::std::uint32_t mean_interval; // average cycles between requests
};

// What a slot holds. Backends and the handle work on it; users only declare the slot.
template <class Cast>
struct slot_storage
{
  alignas(16) uint4 response; // written by the backend (for hardware_t and emulated_t: the async proxy)
  barrier_for<Cast> bar; // completes when the response has landed
  ::cuda::std::uint32_t started; // emulated_t: this CTA's cluster ran for itself
  batch_state batch; // counter_t, through the typed API (whose submitting lane may change)
  alignas(16) uint4 second_response; // counter_t's for_each loop: the other of two alternating buffers
#if PTXW_CHECKED
  books checks;
#endif
};
} // namespace detail

// The shared-memory end of cluster launch control: the 16-byte response and the mbarrier that
// completes when it has landed. Declare it __shared__ and pass it to open(); its contents are
// reachable only through the handle open() returns, whose wait() is the one way to a response (R4).
template <class Cast>
class slot
{
  static_assert(::ptxw::detail::is_one_of<Cast, cta_t, cluster_t>,
                PTXW_RULE(R10) "a response goes to ptxw::clc::cta_t (the requesting CTA) or "
                "ptxw::clc::cluster_t (every CTA of the cluster)");
  detail::slot_storage<Cast> storage_;

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
