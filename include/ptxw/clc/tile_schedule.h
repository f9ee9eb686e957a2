// ptxw/clc/tile_schedule.h: what both policies of the tile scheduler (clc/tile_scheduler.h) share --
// the policies, the kernel parameter that carries one, the shared memory of the dynamic policy, a tile
// by value, and the launch check (R14).
#pragma once

#include <ptxw/clc/ring.h>
#include <ptxw/clc/tile_space.h>
#include <ptxw/core/checked.h>

#if PTXW_CCCL_FAMILY_HEADERS
#  include <cuda/__ptx/instructions/get_sreg.h>
#endif

PTXW_NAMESPACE_BEGIN
namespace clc {

// The policies: which of the two schedules a kernel's tile_schedule parameter carries.
struct static_tiles
{};
template <class Backend = automatic_t, class Receivers = cta_t>
struct dynamic_tiles
{
  static_assert(::ptxw::detail::is_same_v<Receivers, cta_t> || ::ptxw::detail::is_same_v<Receivers, cluster_t>,
                PTXW_RULE(R10) "dynamic_tiles hands out CTAs (cta_t) or clusters (cluster_t)");
  using backend_type   = Backend;
  using receivers_type = Receivers;
};

// The kernel parameter: the tile space and what the policy needs beyond it. Made by
// ptxw::clc::tile_scheduler::prepare() on the host.
template <class Policy>
struct tile_schedule;

template <>
struct tile_schedule<static_tiles>
{
  tile_space space;
  const checked::sink* sink; // where checked mode reports (R14); null: print and trap
};

template <class Backend, class Receivers>
struct tile_schedule<dynamic_tiles<Backend, Receivers>>
{
  static_assert(detail::is_backend<Backend>, PTXW_RULE(R10) "the backend of dynamic_tiles is ptxw::clc::automatic_t, "
                                                            "hardware_t, emulated_t, counter_t or one with a "
                                                            "PTXW_CLC_BACKEND row");
  tile_space space;
  // The ring's: one block index per block (cluster) of the grid. Of automatic_t where Backend is
  // none, so that the one error is the assertion above.
  context<typename ::ptxw::detail::conditional<detail::is_backend<Backend>, Backend, automatic_t>::type> ctx;
  // The static head (ptxw::clc::dynamic_tail): block (cluster) b < resident takes the `head` units
  // b, b + resident, ..., as the static policy would, and block b >= resident the one unit
  // b + (head - 1) resident, so the grid has units - (head - 1) resident blocks. head 1: block b is
  // unit b.
  ::cuda::std::uint32_t resident = 1;
  ::cuda::std::uint32_t head     = 1;
};

// The shared memory of a tile scheduler: the response ring of the dynamic policy (Depth stages,
// Consumers consumer warps; both 1 to 32, R18), in the cluster form for dynamic_tiles<B, cluster_t>.
// The static policy does not touch it.
template <unsigned Depth, unsigned Consumers, class Receivers = cta_t>
class tile_ring
{
  ring<Depth, Consumers, Receivers> ring_;

  template <unsigned D, unsigned C, class B, class R>
  friend class dynamic_tile_handle;
};

// A tile or the end of the schedule, by value: `if (auto t = c.next()) work(t->m, t->n);`. Reading
// the tile of the end is R2 (as a ring's maybe_block): checked mode reports it and gives tile 0.
class maybe_tile : checked::carried_sink
{
  tile tile_;
  bool has_;

  __device__ const tile& get() const
  {
#if PTXW_CHECKED
    if (!has_)
    {
      checked::report(carried(), rule::no_decode_of_failure, 0, 0, 0,
                      " (the tile of a schedule's end: look at the maybe_tile first)");
    }
#endif
    return tile_;
  }

public:
  __device__ maybe_tile(const checked::sink* sink) noexcept
      : checked::carried_sink(sink)
      , tile_{0u, 0u, 0u, 0u, false}
      , has_(false)
  {}
  __device__ maybe_tile(const tile& t, const checked::sink* sink) noexcept
      : checked::carried_sink(sink)
      , tile_(t)
      , has_(true)
  {}

  __device__ explicit operator bool() const noexcept
  {
    return has_;
  }
  __device__ const tile& operator*() const
  {
    return get();
  }
  __device__ const tile* operator->() const
  {
    return &get();
  }
};

namespace detail {
// R14, checked once a launch: a tile schedule runs on the launch prepare() made, a one-dimensional
// grid in clusters of the space's cluster shape; on any other its units name the wrong tiles.
__device__ inline void check_prepared_launch([[maybe_unused]] const tile_space& space,
                                             [[maybe_unused]] const checked::sink* sink)
{
#if PTXW_CHECKED
  if (blockIdx.x == 0 && threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
  {
    const ::cuda::std::uint32_t ctas = 1u << (space.log_cluster_m + space.log_cluster_n);
    if (gridDim.y != 1 || gridDim.z != 1 || ptx::get_sreg_cluster_nctarank() != ctas
        || ptx::get_sreg_cluster_nctaid_x() != ctas)
    {
      checked::report(sink, rule::prepared_launch, 0, 0, ptx::get_sreg_cluster_nctarank(),
                      " (a tile schedule is launched as prepared: a one-dimensional grid in clusters of the "
                      "space's cluster shape; detail: the CTAs of a cluster)");
    }
  }
#endif
}
} // namespace detail
} // namespace clc
PTXW_NAMESPACE_END
