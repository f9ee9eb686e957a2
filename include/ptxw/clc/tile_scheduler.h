// ptxw/clc/tile_scheduler.h: a persistent tile scheduler -- the loop a warp-specialised persistent
// GEMM runs in every role -- over the tiles of one problem or of a list of problems (grouped GEMM,
// ptxw/clc/tile_space.h), with one interface and two policies:
//
//   static_tiles        CTA (cluster) c of G takes units c, c + G, c + 2G, ... of a persistent launch
//                       of as many CTAs as the GPU holds at once: no communication, each role
//                       computes the sequence itself (CUTLASS's PersistentTileSchedulerSm90);
//   dynamic_tiles<B>    one block per unit (dynamic_tiles<B, cluster_t>: one cluster), handed out
//                       by cluster launch control: the hardware on sm_100 and newer (one try_cancel
//                       per tile), counter_t or the faithful emulation on Hopper
//                       (ptxw/clc/backend_table.h) -- through clc::ring, so that one scheduler warp
//                       requests ahead and every role reads the same tiles in the same order
//                       (CUTLASS's PersistentTileSchedulerSm100 with PipelineCLCFetchAsync).
//
//   template <class Policy>
//   __global__ void gemm(params p, ptxw::clc::tile_schedule<Policy> sched)   // 1 + 3 warps
//   {
//     __shared__ ptxw::clc::tile_ring<2, 3> ring;      // depth 2, 3 consumer warps (static: unused)
//     auto tiles = ptxw::clc::open(ring, sched);       // collective
//     if (!tiles.started()) return;                    // a canceled CTA (emulation) skips the prologue
//     prologue();                                      // barriers, descriptors: only in CTAs that run
//     const unsigned warp = threadIdx.x / 32;
//     if (warp == 0) { tiles.scheduler().run(tiles.elect()); return; }   // static: returns at once
//     tiles.consumer(warp - 1).for_each([&](ptxw::clc::tile t) { work(t.problem, t.m, t.n); });
//   }
//
// Every role (consumer warp) of a CTA gets the same tiles in the same order, the end once; every
// unit of the space goes to exactly one CTA (cluster). The host side -- the space's prefix sums and
// dividers, the validation of the problem list, the launch -- is ptxw/clc/host/tile_scheduler.h.
//
// The dynamic policy inherits the ring's rules and checked-mode reports (docs/clc-ring.md). A space
// with a cluster shape is scheduled by the ring's cluster form: dynamic_tiles<Backend, cluster_t>
// and a tile_ring<Depth, Consumers, cluster_t>, one answer a cluster, each CTA the tile of its rank
// (R10 where the ring and the policy disagree, at compile time; where the space's cluster shape and
// the policy do, at prepare()). Both policies' run-time rule is the launch (R14): a one-dimensional
// grid in clusters of the space's cluster shape, which checked mode verifies once per launch.
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
  // The ring's: one block index per unit. Of automatic_t where Backend is none, so that the one
  // error is the assertion above.
  context<typename ::ptxw::detail::conditional<detail::is_backend<Backend>, Backend, automatic_t>::type> ctx;
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

// ---------------------------------------------------------------------------------------------
// The static policy.

// What elect() gives under the static policy: nothing to submit.
struct static_tile_submitter
{};

// The scheduler role of the static policy: there is nothing to fetch, so run() returns at once and
// the warp may do other work (a GEMM written for both policies keeps the warp; one written for the
// static policy alone needs none).
class static_tile_fetcher
{
public:
  __device__ void run(const static_tile_submitter&) const noexcept {}
};

// One consumer role under the static policy: the units c, c + G, ... of this CTA's cluster c.
class static_tile_consumer
{
  const tile_space* s_;
  const checked::sink* sink_;
  tile_cursor cursor_;
  ::cuda::std::uint32_t next_;
  ::cuda::std::uint32_t stride_;
  ::cuda::std::uint32_t rank_;

public:
  __device__ static_tile_consumer(const tile_space& s, const checked::sink* sink)
      : s_(&s)
      , sink_(sink)
      , cursor_(s)
      , next_(ptx::get_sreg_clusterid_x())
      , stride_(ptx::get_sreg_nclusterid_x())
      , rank_(ptx::get_sreg_cluster_ctarank())
  {}

  // The next tile of this CTA, or the end.
  [[nodiscard]] __device__ maybe_tile next()
  {
    if (next_ >= s_->units)
    {
      return maybe_tile(sink_);
    }
    const tile t = cursor_.at(*s_, next_, rank_);
    next_ += stride_; // below 2^32: units and the grid are below 2^31 (the host checks)
    return maybe_tile(t, sink_);
  }

  // f(tile) for each tile of this CTA, in order.
  template <class F>
  __device__ void for_each(F&& f)
  {
    for (::cuda::std::uint32_t u = next_; u < s_->units; u += stride_)
    {
      f(cursor_.at(*s_, u, rank_));
    }
    next_ = s_->units;
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

class static_tile_handle
{
  const tile_space* s_;
  const checked::sink* sink_;

public:
  // Collective, as the dynamic policy's open(); checked mode verifies the launch once (R14).
  __device__ static_tile_handle(const tile_schedule<static_tiles>& sched)
      : s_(&sched.space)
      , sink_(sched.sink)
  {
    detail::check_prepared_launch(sched.space, sink_);
  }
  static_tile_handle(const static_tile_handle&)            = delete;
  static_tile_handle& operator=(const static_tile_handle&) = delete;

  // Every CTA of a static launch runs.
  __device__ constexpr bool started() const noexcept
  {
    return true;
  }
  __device__ static_tile_submitter elect() const noexcept
  {
    return {};
  }
  __device__ static_tile_fetcher scheduler() const noexcept
  {
    return {};
  }
  // Any number of warps (or threads) may read the schedule: each computes it.
  __device__ static_tile_consumer consumer(unsigned /*role*/) const
  {
    return static_tile_consumer(*s_, sink_);
  }
  __device__ const tile_space& space() const noexcept
  {
    return *s_;
  }
};

template <unsigned Depth, unsigned Consumers, class Receivers>
__device__ static_tile_handle open(tile_ring<Depth, Consumers, Receivers>&, const tile_schedule<static_tiles>& sched)
{
  return static_tile_handle(sched);
}

// ---------------------------------------------------------------------------------------------
// The dynamic policy.

template <class RingHandle>
class dynamic_tile_consumer
{
  static constexpr bool clustered = detail::is_cluster<typename RingHandle::receivers_type>;

  RingHandle* h_;
  ring_consumer<RingHandle> c_;
  const tile_space* s_;
  const checked::sink* sink_;
  tile_cursor cursor_;
  bool own_ = true; // the CTA's own block is its first unit

  template <unsigned D, unsigned C, class B, class R>
  friend class dynamic_tile_handle;

  __device__ dynamic_tile_consumer(RingHandle& h, unsigned role, const tile_space& s, const checked::sink* sink)
      : h_(&h)
      , c_(h.consumer(role))
      , s_(&s)
      , sink_(sink)
      , cursor_(s)
  {}

  // The unit of a block index that is its cluster's first CTA (a unit a cluster, blocks in x), and
  // this CTA's tile of it: the cluster form's CTAs take the tiles of their ranks.
  __device__ tile unit_at(::cuda::std::uint32_t first_block)
  {
    if constexpr (clustered)
    {
      const ::cuda::std::uint32_t ctas_log = s_->log_cluster_m + s_->log_cluster_n;
      return cursor_.at(*s_, first_block >> ctas_log, ptx::get_sreg_cluster_ctarank());
    }
    else
    {
      return cursor_.at(*s_, first_block);
    }
  }

public:
  dynamic_tile_consumer(const dynamic_tile_consumer&)            = delete;
  dynamic_tile_consumer& operator=(const dynamic_tile_consumer&) = delete;

  // Every lane of the warp: the CTA's own unit first, then each unit of the ring in order (the
  // stage released right after its one read, R4), then the end -- once.
  [[nodiscard]] __device__ maybe_tile next()
  {
    if (own_)
    {
      own_ = false;
      const ::cuda::std::uint32_t own = clustered ? ptx::get_sreg_clusterid_x() : blockIdx.x;
      // A space without units is launched as one block (cluster) that owns nothing.
      if (h_->owns_block() && own < s_->units)
      {
        return maybe_tile(unit_at(clustered ? blockIdx.x - ptx::get_sreg_cluster_ctarank() : blockIdx.x), sink_);
      }
    }
    auto token   = c_.wait();
    const auto b = token.block();
    c_.release(static_cast<decltype(token)&&>(token));
    if (!b)
    {
      return maybe_tile(sink_);
    }
    return maybe_tile(unit_at(b.first_ctaid().x), sink_);
  }

  template <class F>
  __device__ void for_each(F&& f)
  {
    while (true)
    {
      const maybe_tile t = next();
      if (!t)
      {
        break;
      }
      f(*t);
    }
  }
};

template <unsigned Depth, unsigned Consumers, class Backend, class Receivers>
class dynamic_tile_handle
{
  using ring_type = ring_handle<Depth, Consumers, Receivers, Backend>;
  ring_type ring_;
  const tile_space* s_;
  const checked::sink* sink_;

public:
  // Collective; checked mode verifies the launch once (R14): clusters of the space's cluster shape.
  // (Any policy's receivers: open()'s R10 is the one error where they are not the ring's.)
  template <class PolicyReceivers>
  __device__ dynamic_tile_handle(tile_ring<Depth, Consumers, Receivers>& r,
                                 const tile_schedule<dynamic_tiles<Backend, PolicyReceivers>>& sched)
      : ring_(clc::open(r.ring_, sched.ctx))
      , s_(&sched.space)
      , sink_(sched.ctx.sink)
  {
    detail::check_prepared_launch(sched.space, sink_);
  }
  PTXW_REFUSED(PTXW_RULE(R6) "a tile scheduler's handle owns its thread's part of the ring and cannot be "
               "copied; pass it by reference")
  dynamic_tile_handle(const dynamic_tile_handle&);
  dynamic_tile_handle& operator=(const dynamic_tile_handle&) = delete;

  // false in a CTA the emulation launched although another CTA had canceled it: return at once,
  // before the per-CTA prologue (it never started on hardware).
  __device__ bool started() const noexcept
  {
    return ring_.started();
  }
  // The scheduler warp's one submitter (R3): every lane of that warp calls it.
  __device__ ring_submitter elect() const
  {
    return ring_.elect();
  }
  // The scheduler role, one whole warp: run(elect()) requests units until the grid runs out (in
  // the cluster form, in every CTA: each arms its own copy of the stages, docs/clc-ring.md).
  __device__ ring_scheduler<ring_type> scheduler()
  {
    return ring_.scheduler();
  }
  // Consumer role `role` in [0, Consumers), one whole warp (a warpgroup is four roles).
  __device__ dynamic_tile_consumer<ring_type> consumer(unsigned role)
  {
    return dynamic_tile_consumer<ring_type>(ring_, role, *s_, sink_);
  }
  __device__ const tile_space& space() const noexcept
  {
    return *s_;
  }
};

template <unsigned Depth, unsigned Consumers, class Receivers, class Backend, class PolicyReceivers>
__device__ dynamic_tile_handle<Depth, Consumers, Backend, Receivers>
open(tile_ring<Depth, Consumers, Receivers>& r, const tile_schedule<dynamic_tiles<Backend, PolicyReceivers>>& sched)
{
  static_assert(::ptxw::detail::is_same_v<Receivers, PolicyReceivers>,
                PTXW_RULE(R10) "the tile_ring's receivers are the policy's: tile_ring<D, C, cluster_t> goes with "
                "dynamic_tiles<B, cluster_t>, tile_ring<D, C> with dynamic_tiles<B>");
  return dynamic_tile_handle<Depth, Consumers, Backend, Receivers>(r, sched);
}

} // namespace clc
PTXW_NAMESPACE_END
