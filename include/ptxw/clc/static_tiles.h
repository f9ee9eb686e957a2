// ptxw/clc/static_tiles.h: the static policy of the tile scheduler (clc/tile_scheduler.h) -- CTA
// (cluster) c of G takes units c, c + G, c + 2G, ... and every role computes the sequence itself.
#pragma once

#include <ptxw/clc/tile_schedule.h>

#if PTXW_CCCL_FAMILY_HEADERS
#  include <cuda/__ptx/instructions/get_sreg.h>
#endif

PTXW_NAMESPACE_BEGIN
namespace clc {

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

} // namespace clc
PTXW_NAMESPACE_END
