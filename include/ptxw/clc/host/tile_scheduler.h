// ptxw/clc/host/tile_scheduler.h: the host side of the persistent tile scheduler
// (ptxw/clc/tile_scheduler.h) -- the tile space of a list of problems (prefix sums of their tile
// counts, the dividers decoding needs), its validation, its device memory, and the launch.
//
//   std::vector<ptxw::clc::problem_shape> problems = {{4096, 4096}, {0, 512}, {777, 1500}};
//   ptxw::clc::tile_scheduler tiles(problems, ptxw::clc::fixed_tile_shape<128, 256>{},
//                                   ptxw::clc::raster::along_n, ptxw::clc::fixed_swizzle<4>{});
//   auto l = tiles.prepare(gemm<ptxw::clc::static_tiles>, dim3(384), smem);   // or dynamic_tiles<>
//   gemm<ptxw::clc::static_tiles><<<l.grid, 384, smem>>>(p, l.sched);
//   // with a cluster shape: ptxw::clc::launch_in_clusters(kernel, l.grid, 384, l.cluster, smem, 0, p, l.sched)
//
// Bad input never reaches the GPU: an empty problem list, a negative extent, a tile shape of 0, a
// swizzle that is not a power of two, a cluster shape that is not one (or of more than 16 CTAs),
// more than 2^31 - 1 units (R18); a static grid that is not a whole number of clusters (R14); a
// cluster shape under a dynamic policy of single CTAs, dynamic_tiles<B> (R10: dynamic_tiles<B,
// cluster_t>). Where the value
// is a template argument (fixed_tile_shape, fixed_swizzle, fixed_cluster_shape) it is a compile-time
// `ptxw: R18` error; otherwise the constructor or prepare() throws std::runtime_error("ptxw: R..")
// before it allocates or launches anything. A problem with M or N of 0 is allowed: it has no tile.
//
// tile_plan (ptxw/clc/host/tile_plan.h) is the part that needs no GPU (validation, prefix sums, a host
// view of the space for tests); tile_scheduler, here, owns a plan's device copy and, for the dynamic
// policy, the cluster launch control scheduler (ptxw/clc/host/scheduler.h), whose rules it inherits: one
// launch at a time, and for emulated_t an emulation capacity of at least the space's units.
#pragma once

#include <ptxw/clc/host/scheduler.h>
#include <ptxw/clc/host/tile_plan.h>
#include <ptxw/clc/tile_scheduler.h>
#include <ptxw/core/device_array.h>

#include <cstddef>
#include <cstdint>
#include <vector>

PTXW_NAMESPACE_BEGIN
namespace clc {

// What to launch: kernel<<<grid, block, smem>>>(..., sched), in clusters of `cluster` where it is
// not 1 (launch_in_clusters).
template <class Policy>
struct tile_launch
{
  dim3 grid;
  dim3 cluster;
  tile_schedule<Policy> sched;
};

namespace detail {
template <class T>
struct schedule_policy
{
  using type = void;
};
template <class P>
struct schedule_policy<tile_schedule<P>>
{
  using type = P;
};
// The policy of the ptxw::clc::tile_schedule among a kernel's parameters (`schedules` of them).
template <class... Args>
struct kernel_policy
{
  static constexpr int schedules = 0;
  using type                     = void;
};
template <class A, class... Rest>
struct kernel_policy<A, Rest...>
{
  using here = typename schedule_policy<::ptxw::detail::remove_cvref_t<A>>::type;
  static constexpr int schedules = (::ptxw::detail::is_same_v<here, void> ? 0 : 1) + kernel_policy<Rest...>::schedules;
  using type = typename ::ptxw::detail::conditional<::ptxw::detail::is_same_v<here, void>,
                                                    typename kernel_policy<Rest...>::type, here>::type;
};
template <class P>
inline constexpr bool is_dynamic = false;
template <class B, class R>
inline constexpr bool is_dynamic<dynamic_tiles<B, R>> = true;
} // namespace detail

// The owner of a tile space's device memory and of its launches.
class tile_scheduler
{
  tile_plan plan_;
  ::ptxw::detail::device_array<std::uint32_t> firsts_;
  ::ptxw::detail::device_array<tile_record> records_;
  scheduler clc_;
  dynamic_tail tail_;

  tile_space device_space() const noexcept
  {
    tile_space s = plan_.host_space();
    s.firsts     = firsts_.get();
    s.records    = records_.get();
    return s;
  }

  // Units in clusters (at least one, so that a space without units still launches validly).
  unsigned long long clusters_needed() const noexcept
  {
    return plan_.units() == 0 ? 1ull : plan_.units();
  }

public:
  // Validates (throws before it allocates anything), then copies the space to the device
  // (synchronous). emulation_capacity: as clc::scheduler's -- at least units() for emulated_t.
  tile_scheduler(const std::vector<problem_shape>& problems, tile_shape tile, raster order = raster::along_n,
                 swizzle sw = {}, cluster_shape cluster = {}, std::size_t emulation_capacity = 0)
      : plan_(problems, tile, order, sw, cluster)
      , firsts_(plan_.firsts().size(), "allocating the tile space's prefix sums")
      , records_(plan_.records().size(), "allocating the tile space's problems")
      , clc_(emulation_capacity)
  {
    ::ptxw::detail::cuda_check(cudaMemcpy(firsts_.get(), plan_.firsts().data(),
                                          sizeof(std::uint32_t) * plan_.firsts().size(), cudaMemcpyHostToDevice),
                               "copying the tile space's prefix sums");
    ::ptxw::detail::cuda_check(cudaMemcpy(records_.get(), plan_.records().data(),
                                          sizeof(tile_record) * plan_.records().size(), cudaMemcpyHostToDevice),
                               "copying the tile space's problems");
  }

  const tile_plan& plan() const noexcept
  {
    return plan_;
  }
  // The cluster launch control scheduler of the dynamic policy (set_spurious_failure_rate, ...).
  scheduler& clc() noexcept
  {
    return clc_;
  }
  // How much of the dynamic policy's later prepare(kernel, ...) launches is requested (dynamic_tail;
  // all by default). prepare_dynamic, which knows no kernel and so no residency, requests all.
  void set_dynamic_tail(dynamic_tail tail) noexcept
  {
    tail_ = tail;
  }

  // A static schedule over `ctas` CTAs (a whole number of clusters, R14).
  tile_launch<static_tiles> prepare_static(unsigned long long ctas, const checked::sink* sink = nullptr) const
  {
    plan_.check_static_grid(ctas);
    const unsigned c = plan_.cluster_ctas();
    return {dim3(static_cast<unsigned>(ctas)), dim3(c), tile_schedule<static_tiles>{device_space(), sink}};
  }

  // A dynamic schedule launched as the whole grid, one block (cluster) per unit: every backend runs
  // it (counter_t then one unit per CTA or cluster; prepare(kernel, ...) launches its resident
  // prefix instead). A space with a cluster shape takes Receivers = cluster_t (R10).
  template <class Backend = automatic_t, class Receivers = cta_t>
  tile_launch<dynamic_tiles<Backend, Receivers>> prepare_dynamic(cudaStream_t stream = 0,
                                                                 const checked::sink* sink = nullptr)
  {
    plan_.check_dynamic(detail::is_cluster<Receivers>);
    const dim3 cluster(plan_.cluster_ctas());
    const dim3 grid(static_cast<unsigned>(clusters_needed() * cluster.x));
    return {grid, cluster, tile_schedule<dynamic_tiles<Backend, Receivers>>{
                             device_space(), clc_.prepare<Backend>(grid, cluster, stream, sink)}};
  }

  // Before each launch of `kernel` (which takes one ptxw::clc::tile_schedule): the static policy
  // launches as many clusters as the GPU holds at once for this kernel, block and shared memory
  // (never more than the units); the dynamic one the grid of one block per unit (less the static
  // head's, set_dynamic_tail), of which counter_t launches the resident prefix (ptxw/clc/launch.h).
  template <class... Args>
  auto prepare(void (*kernel)(Args...), dim3 block, std::size_t smem = 0, cudaStream_t stream = 0,
               const checked::sink* sink = nullptr) -> tile_launch<typename detail::kernel_policy<Args...>::type>
  {
    static_assert(detail::kernel_policy<Args...>::schedules == 1,
                  "ptxw: tile_scheduler::prepare(kernel, ...) takes a kernel with exactly one "
                  "ptxw::clc::tile_schedule parameter");
    using Policy = typename detail::kernel_policy<Args...>::type;
    if constexpr (detail::is_dynamic<Policy>)
    {
      using Backend = typename Policy::backend_type;
      plan_.check_dynamic(detail::is_cluster<typename Policy::receivers_type>);
      const dim3 cluster(plan_.cluster_ctas());
      unsigned long long resident = 1;
      if (tail_.waves != dynamic_tail::all)
      {
        ::ptxw::detail::cuda_check(detail::resident_units(kernel, block, smem, cluster, resident),
                                   "sizing the static head to the kernel's occupancy");
      }
      const unsigned long long head = static_head(plan_.units(), resident, tail_);
      const dim3 grid(static_cast<unsigned>((clusters_needed() - (head - 1) * resident) * cluster.x));
      dim3 launched;
      backend_id runs = backend_id::automatic;
      ::ptxw::detail::cuda_check(detail::launch_grid<Backend>(kernel, grid, block, smem, cluster, launched, runs),
                                 "sizing the launch to the kernel's occupancy");
      context<Backend> ctx = clc_.prepare<Backend>(grid, cluster, stream, sink);
      ctx.prepared         = runs;
      return {launched, cluster,
              tile_schedule<Policy>{device_space(), ctx, static_cast<std::uint32_t>(resident),
                                    static_cast<std::uint32_t>(head)}};
    }
    else
    {
      const unsigned c             = plan_.cluster_ctas();
      unsigned long long resident = 0;
      ::ptxw::detail::cuda_check(detail::resident_units(kernel, block, smem, dim3(c), resident),
                                 "sizing the launch to the kernel's occupancy");
      const unsigned long long clusters = resident < clusters_needed() ? resident : clusters_needed();
      return prepare_static(clusters * c, sink);
    }
  }
};

} // namespace clc
PTXW_NAMESPACE_END