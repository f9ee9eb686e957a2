// ptxw/clc/dynamic_tiles.h: the dynamic policy of the tile scheduler (clc/tile_scheduler.h) -- one
// block (cluster) a unit, handed out by cluster launch control through clc::ring, after a static
// head where the host asked for one (ptxw::clc::dynamic_tail).
#pragma once

#include <ptxw/clc/tile_schedule.h>

#if PTXW_CCCL_FAMILY_HEADERS
#  include <cuda/__ptx/instructions/get_sreg.h>
#endif

PTXW_NAMESPACE_BEGIN
namespace clc {

template <class RingHandle>
class dynamic_tile_consumer
{
  static constexpr bool clustered = detail::is_cluster<typename RingHandle::receivers_type>;

  RingHandle* h_;
  ring_consumer<RingHandle> c_;
  const tile_space* s_;
  const checked::sink* sink_;
  tile_cursor cursor_;
  ::cuda::std::uint32_t resident_, head_; // the schedule's static head (tile_schedule)
  ::cuda::std::uint32_t next_ = 0; // the next unit of the block this role walks
  ::cuda::std::uint32_t left_ = 0; // and how many of its units are left
  bool own_ = true; // the CTA's own block is its first

  template <unsigned D, unsigned C, class B, class R>
  friend class dynamic_tile_handle;

  __device__ dynamic_tile_consumer(RingHandle& h, unsigned role, const tile_space& s, ::cuda::std::uint32_t resident,
                                   ::cuda::std::uint32_t head, const checked::sink* sink)
      : h_(&h)
      , c_(h.consumer(role))
      , s_(&s)
      , sink_(sink)
      , cursor_(s)
      , resident_(resident)
      , head_(head)
  {}

  // The units of block (cluster) b of the grid: its static head, or the one unit past it.
  __device__ void enter(::cuda::std::uint32_t b)
  {
    const bool in_head = b < resident_;
    next_              = in_head ? b : b + (head_ - 1u) * resident_;
    left_              = in_head ? head_ : 1u;
  }

  // The block (cluster) of a block index that is its cluster's first CTA (blocks in x).
  __device__ ::cuda::std::uint32_t grid_unit(::cuda::std::uint32_t first_block) const
  {
    return clustered ? first_block >> (s_->log_cluster_m + s_->log_cluster_n) : first_block;
  }

public:
  dynamic_tile_consumer(const dynamic_tile_consumer&)            = delete;
  dynamic_tile_consumer& operator=(const dynamic_tile_consumer&) = delete;

  // Every lane of the warp: the units of the CTA's own block first, then those of each block of the
  // ring in order (the stage released right after its one read, R4), then the end -- once. The
  // cluster form's CTAs take the tiles of their ranks.
  [[nodiscard]] __device__ maybe_tile next()
  {
    if (left_ == 0 && own_)
    {
      own_ = false;
      const ::cuda::std::uint32_t own = clustered ? ptx::get_sreg_clusterid_x() : blockIdx.x;
      // A space without units is launched as one block (cluster) that owns nothing.
      if (h_->owns_block() && own < s_->units)
      {
        enter(own);
      }
    }
    if (left_ == 0)
    {
      auto token   = c_.wait();
      const auto b = token.block();
      c_.release(static_cast<decltype(token)&&>(token));
      if (!b)
      {
        return maybe_tile(sink_);
      }
      enter(grid_unit(b.first_ctaid().x));
    }
    const ::cuda::std::uint32_t u = next_;
    next_ += resident_;
    --left_;
    return maybe_tile(clustered ? cursor_.at(*s_, u, ptx::get_sreg_cluster_ctarank()) : cursor_.at(*s_, u), sink_);
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
  ::cuda::std::uint32_t resident_, head_;

public:
  // Collective; checked mode verifies the launch once (R14): clusters of the space's cluster shape.
  // (Any policy's receivers: open()'s R10 is the one error where they are not the ring's.)
  template <class PolicyReceivers>
  __device__ dynamic_tile_handle(tile_ring<Depth, Consumers, Receivers>& r,
                                 const tile_schedule<dynamic_tiles<Backend, PolicyReceivers>>& sched)
      : ring_(clc::open(r.ring_, sched.ctx))
      , s_(&sched.space)
      , sink_(sched.ctx.sink)
      , resident_(sched.resident)
      , head_(sched.head)
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
    return dynamic_tile_consumer<ring_type>(ring_, role, *s_, resident_, head_, sink_);
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
