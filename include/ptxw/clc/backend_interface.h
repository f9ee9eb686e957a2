// ptxw/clc/backend_interface.h: what every cluster launch control backend is made of, and the steps
// they share.
//
// A backend B (ptxw/clc/hardware.h, emulated.h, counter.h; its row in ptxw/clc/backend_table.h) is one
// specialisation of ptxw::clc::detail::backend<B>, held by each thread's handle, with:
//   state                      what the host prepares for a launch (a member of ptxw::clc::context<B>)
//   make_state(memory, grid, cluster, launch)
//                              host: the state for a launch, from scheduler_memory (clc/launch.h)
//   supported<Receivers>       whether B runs on this target; check_target<Receivers>() static_asserts it (R9)
//   arrivals_per_phase         the count the slot's barrier is initialised with
//   grid(state)                the grid whose blocks are handed out, in blocks
//   start(slot, state, sink)   collective, once per CTA: does this CTA run (or was it canceled)?
//   owns_block()               whether the CTA's own blockIdx is its first block
//   request<claims>(slot, state, submit, fail)
//                              the submitter's warp; where `submit` (the CTA's submitter): ask for the
//                              next block (fail: checked mode wants a failure response instead);
//                              claims: how many indices a claim may take (below)
//   receive(slot, state, ph, out, wait)
//                              every reader: wait(bar, ph) for the phase, read the response once
//   canceled(r), first(r)      decode a response
// and, where it has a faster loop than the protocol's, for_each(slot, state, prologue, f)
// (ptxw/clc/for_each.h runs it instead). The steps several backends share are below.
#pragma once

#include <ptxw/clc/geometry.h>
#include <ptxw/clc/slot.h>
#include <ptxw/core/checked.h>
#include <ptxw/fence.h>
#include <ptxw/isa/mapa.h>
#include <ptxw/mbarrier/counts.h>

#if PTXW_CCCL_FAMILY_HEADERS
#  include <cuda/__ptx/instructions/barrier_cluster.h>
#  include <cuda/__ptx/instructions/cp_async_bulk.h>
#endif

PTXW_NAMESPACE_BEGIN
namespace clc::detail {
// barrier.cluster.arrive + wait: the software backends hand a cluster's claim to its CTAs across it.
template <class Deferred = void>
__device__ void cluster_sync()
{
  ptx::barrier_cluster_arrive();
  ptx::barrier_cluster_wait();
}

// What a backend's make_state takes (host): the device memory a software backend's state points
// at (ptxw::clc::scheduler owns one; the device-scope algorithms carve it from the caller's
// temporary storage) and the launch it is for, whose grid passed grid_problem() (clc/launch.h).
struct launch_plan
{
  unsigned long long* counters; // [0] the cursor, [1] injected failures: zeroed before the launch, or
                                // for counter_t a cursor of `cursor_tag` made fresh by the launch before
  ::cuda::std::uint32_t* claimed; // claims per unit (the table's claims_per_unit): one epoch per unit, none
                          // equal to `epoch` before the launch
  uint4* responses; // responses per unit, likewise
  uint3 grid; // in blocks
  uint3 cluster; // blocks per cluster
  ::cuda::std::uint32_t epoch; // this launch; never 0
  ::cuda::std::uint32_t spurious; // injected failures, of 2^32 requests
  ::cuda::std::uint32_t seed;
  // counter_t (ptxw/clc/counter_cursor.h): the next launch's cursor, which this one makes fresh (null:
  // none), and the tag this launch's cursor carries.
  unsigned long long* next_cursor  = nullptr;
  ::cuda::std::uint32_t cursor_tag = 0;
};

// How many indices a software backend's request may claim at once. `batched`: the claim engine's
// ranges (ptxw/claim/engine.h), for a loop whose one request ahead leaves the claim's atomic in the
// way of short blocks. `one`: a single index a request, for the response ring, whose scheduler
// requests Depth responses ahead -- the atomic's latency is hidden already, and a range would only
// be blocks one CTA holds back from the others (on work whose cost changes abruptly from one index
// to the next, as a fractal's tiles at the set's edge, a range of cheap-looking indices turns out
// long). The hardware and the emulation claim one block a request either way.
enum class claims
{
  batched,
  one
};

// What a name that is no backend gets (after context's R10 error): nothing runs, nothing else fails.
template <class Backend>
struct backend
{
  struct state
  {};
  static state make_state(const launch_plan&)
  {
    return {};
  }
  static constexpr ::cuda::std::uint32_t arrivals_per_phase = 1;
  template <class Receivers>
  static constexpr bool supported = false;
  template <class Receivers>
  __host__ __device__ static constexpr bool check_target()
  {
    return false;
  }
};

template <class Receivers>
inline constexpr bool is_cluster = ::ptxw::detail::is_same_v<Receivers, cluster_t>;

// The CTAs a response goes to: this one, or every CTA of the cluster.
template <class Receivers>
__device__ unsigned destinations()
{
  return is_cluster<Receivers> ? cluster_size<Receivers>() : 1u;
}

template <class Receivers>
__device__ unsigned destination_rank(unsigned i)
{
  return is_cluster<Receivers> ? i : cluster_rank<Receivers>();
}

// This CTA's block of an answer whose first CTA is `first`: in the cluster form the first CTA plus
// this CTA's position in its cluster (R8); for cta_t the canceled block itself.
template <class Receivers>
__device__ uint3 own_ctaid(uint3 first)
{
  if constexpr (is_cluster<Receivers>)
  {
    const uint3 c = cluster_ctaid<Receivers>();
    return {first.x + c.x, first.y + c.y, first.z + c.z};
  }
  else
  {
    return first;
  }
}

// The index of a canceled block as its holder reads it: the handle's canceled_block and the ring's
// ring_block, which differ only in who may make one (R2).
template <class Receivers>
class block_index
{
protected:
  uint3 first_;

  __device__ explicit block_index(uint3 first) noexcept
      : first_(first)
  {}

public:
  // The first CTA of the block (in the cluster form: of the cluster) the response canceled.
  __device__ uint3 first_ctaid() const noexcept
  {
    return first_;
  }
  // This CTA's block: in the cluster form the first CTA plus this CTA's position in its cluster (R8);
  // for cta_t the canceled block itself (a CTA-cast request in a cluster launch is R3's business).
  __device__ uint3 ctaid() const noexcept
  {
    return own_ctaid<Receivers>(first_);
  }
  __device__ unsigned x() const noexcept
  {
    return ctaid().x;
  }
  __device__ unsigned y() const noexcept
  {
    return ctaid().y;
  }
  __device__ unsigned z() const noexcept
  {
    return ctaid().z;
  }
};

// The same object in the shared memory of the cluster's CTA `rank` (a generic address).
template <class T>
__device__ T* in_cta(T* p, unsigned rank)
{
  return static_cast<T*>(__cluster_map_shared_rank(static_cast<void*>(p), rank));
}

// R5: the submitting thread of each receiving CTA arms its barrier for the 16 response bytes.
template <class Receivers>
__device__ void arm(slot_storage<Receivers>& s)
{
  s.bar.arrive_expect_tx(ptx::sem_relaxed, typename decltype(s.bar)::scope_type{}, tx_bytes{16});
}

// The 16 bytes of a failed response, in global memory for the bulk copy.
static __device__ const uint4 failure_in_global = {0u, 0u, 0u, 0u};

// Puts the 16 bytes at `src` (global memory) into the slot of every receiving CTA through the async
// proxy: one bulk copy per CTA, into its shared memory, completing the 16 bytes its barrier expects.
template <class Receivers>
__device__ void bulk_deliver(slot_storage<Receivers>& s, const uint4* src)
{
  for (unsigned i = 0; i < destinations<Receivers>(); ++i)
  {
    const unsigned rank = destination_rank<Receivers>(i);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, in_cta(&s.response, rank), src, 16u,
                       in_cta(s.bar.native_handle(), rank));
  }
}

// Checked mode's answer to a request it refuses (R1, R4), for the backends whose response the
// async proxy delivers: a failure response in every receiving CTA, completing the 16 bytes each
// armed for, as a failed try_cancel would.
template <class Receivers>
__device__ void deliver_failure(slot_storage<Receivers>& s)
{
#if PTXW_CHECKED
  bulk_deliver(s, &failure_in_global);
#else
  (void) s;
#endif
}

// For backends whose response the async proxy writes: the CTA-cast requester, or cluster rank 0,
// orders the previous reads before the write (R4) and submits -- `submit_one()`, or the failure
// checked mode asks for; every CTA arms its own barrier for the 16 bytes it receives (R5).
template <class Receivers, class Submit>
__device__ void request_async(slot_storage<Receivers>& s, bool submit, bool fail, Submit&& submit_one)
{
  if (!submit)
  {
    return;
  }
  if (!is_cluster<Receivers> || cluster_rank<Receivers>() == 0)
  {
    ::ptxw::fence_before_slot_write();
    if (fail)
    {
      deliver_failure(s);
    }
    else
    {
      submit_one();
    }
  }
  arm(s);
}

// For backends whose response the async proxy writes: wait for the phase, read the 16 bytes once,
// and release the slot to the async proxy before the response is used (R4).
template <class Receivers, class Wait>
__device__ bool receive_async(slot_storage<Receivers>& s, phase& ph, uint4& out, Wait& wait)
{
  if (!wait(s.bar, ph))
  {
    return false;
  }
  out = s.response;
  ::ptxw::fence_after_slot_read();
  return true;
}

// Decoding for the backends that write the hardware's encoding themselves (ptxw/clc/geometry.h).
struct software_decode
{
  static __device__ bool canceled(uint4 r)
  {
    return response_canceled(r);
  }
  static __device__ uint3 first(uint4 r)
  {
    return response_first(r);
  }
};

// R9 for the backends without a finer gate of their own: the table's first architecture.
template <class Backend, class Receivers>
__host__ __device__ constexpr bool check_table_target()
{
  constexpr bool ok = runs_here<Backend, Receivers>;
  static_assert(ok, PTXW_RULE(R9) "cluster launch control on Hopper (ptxw::clc::counter_t, emulated_t) needs "
                    "sm_90 or newer");
  return ok;
}

// The gate of such a backend, as a base: supported<Receivers> and check_target<Receivers>() from its row.
template <class Backend>
struct table_gate
{
  template <class Receivers>
  static constexpr bool supported = runs_here<Backend, Receivers>;
  template <class Receivers>
  __host__ __device__ static constexpr bool check_target()
  {
    return check_table_target<Backend, Receivers>();
  }
};

// Whether a launch of `launched` units covers a prefix of a grid of `grid` units in x-fastest
// order -- a box whose every dimension but the last used one is the grid's -- so that the own
// indices of the launched units are exactly the first volume(launched) of the grid.
__host__ __device__ constexpr bool is_prefix_box(uint3 launched, uint3 grid)
{
  return launched.x <= grid.x && launched.y <= grid.y && launched.z <= grid.z
      && (launched.y == 1 || launched.x == grid.x) && (launched.z == 1 || (launched.x == grid.x && launched.y == grid.y));
}

} // namespace clc::detail
PTXW_NAMESPACE_END
