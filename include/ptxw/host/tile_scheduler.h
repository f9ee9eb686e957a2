// ptxw/host/tile_scheduler.h: the host side of the persistent tile scheduler
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
// cluster shape under the dynamic policy, whose ring hands out single CTAs (R10). Where the value
// is a template argument (fixed_tile_shape, fixed_swizzle, fixed_cluster_shape) it is a compile-time
// `ptxw: R18` error; otherwise the constructor or prepare() throws std::runtime_error("ptxw: R..")
// before it allocates or launches anything. A problem with M or N of 0 is allowed: it has no tile.
//
// tile_plan is the part that needs no GPU (validation, prefix sums, a host view of the space for
// tests); tile_scheduler owns a plan's device copy and, for the dynamic policy, the cluster launch
// control scheduler (ptxw/host/clc.h), whose rules it inherits: one launch at a time, and for
// emulated_t an emulation capacity of at least the space's units.
#pragma once

#include <ptxw/clc/tile_scheduler.h>
#include <ptxw/host/clc.h>
#include <ptxw/host/device_array.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

PTXW_NAMESPACE_BEGIN
namespace clc {

// One problem's extent in elements (a GEMM's M and N); 0 is allowed (no tiles), negative is not.
struct problem_shape
{
  long long m;
  long long n;
};

// The tile a CTA computes, in elements.
struct tile_shape
{
  long long m;
  long long n;
};

// Units of the minor dimension per strip: a power of two (1: plain raster order).
struct swizzle
{
  long long size = 1;
};

// CTAs of a cluster along M and N: powers of two, at most 16 CTAs (the non-portable limit).
struct cluster_shape
{
  long long m = 1;
  long long n = 1;
};

namespace detail {
constexpr bool power_of_two(long long v)
{
  return v > 0 && (v & (v - 1)) == 0;
}
} // namespace detail

// The same values as template arguments, checked at compile time.
template <long long M, long long N>
struct fixed_tile_shape
{
  static_assert(M > 0 && N > 0, PTXW_RULE(R18) "a tile shape has at least one element along M and N");
  constexpr operator tile_shape() const noexcept
  {
    return {M, N};
  }
};
template <long long Size>
struct fixed_swizzle
{
  static_assert(detail::power_of_two(Size) && Size <= (1ll << 16),
                PTXW_RULE(R18) "a swizzle size is a power of two from 1 to 65536");
  constexpr operator swizzle() const noexcept
  {
    return {Size};
  }
};
template <long long M, long long N>
struct fixed_cluster_shape
{
  static_assert(detail::power_of_two(M) && detail::power_of_two(N) && M * N <= 16,
                PTXW_RULE(R18) "a tile scheduler's cluster shape is a power of two along M and N, at most 16 CTAs");
  constexpr operator cluster_shape() const noexcept
  {
    return {M, N};
  }
};

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
// The divider of d for clc::detail::divide (tile_space.h): the shift is ceil(log2 d), the magic
// 2^32 (2^shift - d) / d + 1, exact for dividends and divisors below 2^31.
struct tile_divider
{
  std::uint32_t magic;
  std::uint32_t shift;
};
inline tile_divider make_divider(std::uint32_t d)
{
  std::uint32_t shift = 0;
  while ((1ull << shift) < d)
  {
    ++shift;
  }
  const std::uint64_t magic = ((1ull << 32) * ((1ull << shift) - d)) / d + 1;
  return {static_cast<std::uint32_t>(magic), shift};
}

[[noreturn]] inline void bad_tiles(const char* rule, const std::string& what)
{
  throw std::runtime_error(rule + what);
}

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
template <class B>
inline constexpr bool is_dynamic<dynamic_tiles<B>> = true;
} // namespace detail

// A validated tile space on the host: the problems' units, prefix sums and dividers. Needs no GPU.
class tile_plan
{
  std::vector<std::uint32_t> firsts_;
  std::vector<tile_record> records_;
  tile_space space_{};

public:
  tile_plan(const std::vector<problem_shape>& problems, tile_shape tile, raster order = raster::along_n,
            swizzle sw = {}, cluster_shape cluster = {})
  {
    if (problems.empty())
    {
      detail::bad_tiles(PTXW_RULE(R18), "a tile space has at least one problem (a problem may be 0 x N)");
    }
    if (tile.m <= 0 || tile.n <= 0)
    {
      detail::bad_tiles(PTXW_RULE(R18), "a tile shape has at least one element along M and N, not "
                                          + std::to_string(tile.m) + " x " + std::to_string(tile.n));
    }
    if (!detail::power_of_two(sw.size) || sw.size > (1ll << 16))
    {
      detail::bad_tiles(PTXW_RULE(R18), "a swizzle size is a power of two from 1 to 65536, not " + std::to_string(sw.size));
    }
    if (!detail::power_of_two(cluster.m) || !detail::power_of_two(cluster.n) || cluster.m > 16 || cluster.n > 16
        || cluster.m * cluster.n > 16)
    {
      detail::bad_tiles(PTXW_RULE(R18), "a tile scheduler's cluster shape is a power of two along M and N, at most "
                                        "16 CTAs, not "
                                          + std::to_string(cluster.m) + " x " + std::to_string(cluster.n));
    }
    std::uint32_t log_swizzle = 0, log_cm = 0, log_cn = 0;
    while ((1ll << log_swizzle) < sw.size)
    {
      ++log_swizzle;
    }
    while ((1ll << log_cm) < cluster.m)
    {
      ++log_cm;
    }
    while ((1ll << log_cn) < cluster.n)
    {
      ++log_cn;
    }
    constexpr unsigned long long limit = 0x7fffffffull; // numbers and dividers below 2^31 (tile_space.h)
    firsts_.reserve(problems.size() + 1);
    records_.reserve(problems.size());
    unsigned long long first = 0;
    for (std::size_t p = 0; p < problems.size(); ++p)
    {
      const problem_shape& s = problems[p];
      if (s.m < 0 || s.n < 0)
      {
        detail::bad_tiles(PTXW_RULE(R18), "problem " + std::to_string(p) + " has a negative extent: "
                                            + std::to_string(s.m) + " x " + std::to_string(s.n));
      }
      const unsigned long long tiles_m = (static_cast<unsigned long long>(s.m) + tile.m - 1) / tile.m;
      const unsigned long long tiles_n = (static_cast<unsigned long long>(s.n) + tile.n - 1) / tile.n;
      const unsigned long long units_m = (tiles_m + cluster.m - 1) / cluster.m;
      const unsigned long long units_n = (tiles_n + cluster.n - 1) / cluster.n;
      const unsigned long long units   = units_m * units_n;
      if (tiles_m > limit || tiles_n > limit || first + units > limit)
      {
        detail::bad_tiles(PTXW_RULE(R18), "a tile space has at most 2^31 - 1 units; problem " + std::to_string(p)
                                            + " brings it to " + std::to_string(first + units));
      }
      const bool along_n                   = order == raster::along_n;
      const unsigned long long major       = along_n ? units_n : units_m;
      const unsigned long long minor       = along_n ? units_m : units_n;
      const unsigned long long strip_units = major * static_cast<unsigned long long>(sw.size);
      tile_record r{};
      r.first        = static_cast<std::uint32_t>(first);
      r.end          = static_cast<std::uint32_t>(first + units);
      r.whole_strips = static_cast<std::uint32_t>(minor >> log_swizzle);
      r.last_width   = static_cast<std::uint32_t>(minor & (sw.size - 1));
      // A problem without units is never decoded; its dividers are those of 1. A strip is at most
      // 2^16 x 2^31 units: beyond 2^31 - 1 no unit reaches a second strip, so one strip is exact.
      const std::uint32_t strip_divisor =
        strip_units == 0 ? 1u : static_cast<std::uint32_t>(strip_units > limit ? limit : strip_units);
      const detail::tile_divider strip = detail::make_divider(strip_divisor);
      const detail::tile_divider last  = detail::make_divider(r.last_width == 0 ? 1u : r.last_width);
      r.strip_units = strip_divisor;
      r.strip_magic = strip.magic;
      r.last_magic  = last.magic;
      r.shifts      = strip.shift | last.shift << 8;
      r.tiles_m     = static_cast<std::uint32_t>(tiles_m);
      r.tiles_n     = static_cast<std::uint32_t>(tiles_n);
      firsts_.push_back(r.first);
      records_.push_back(r);
      first += units;
    }
    firsts_.push_back(static_cast<std::uint32_t>(first));
    space_.firsts        = firsts_.data();
    space_.records       = records_.data();
    space_.first_record  = records_[0];
    space_.problems      = static_cast<std::uint32_t>(problems.size());
    space_.units         = static_cast<std::uint32_t>(first);
    space_.log_swizzle   = log_swizzle;
    space_.order         = order;
    space_.log_cluster_m = log_cm;
    space_.log_cluster_n = log_cn;
  }
  tile_plan(const tile_plan&)            = delete; // the space points into this object
  tile_plan& operator=(const tile_plan&) = delete;

  // The space with host pointers: decode on the host with tile_cursor, as the device does.
  const tile_space& host_space() const noexcept
  {
    return space_;
  }
  std::uint32_t units() const noexcept
  {
    return space_.units;
  }
  std::uint32_t problems() const noexcept
  {
    return space_.problems;
  }
  // CTAs of a cluster (1 without a cluster shape).
  unsigned cluster_ctas() const noexcept
  {
    return 1u << (space_.log_cluster_m + space_.log_cluster_n);
  }
  const std::vector<std::uint32_t>& firsts() const noexcept
  {
    return firsts_;
  }
  const std::vector<tile_record>& records() const noexcept
  {
    return records_;
  }

  // R14: a static launch of `ctas` CTAs is a whole, non-empty number of clusters.
  void check_static_grid(unsigned long long ctas) const
  {
    if (ctas == 0 || ctas % cluster_ctas() != 0 || ctas > 0x7fffffffull)
    {
      detail::bad_tiles(PTXW_RULE(R14), "a static tile schedule's grid is a whole number of clusters of "
                                          + std::to_string(cluster_ctas()) + " CTAs, 1 to 2^31 - 1 CTAs, not "
                                          + std::to_string(ctas));
    }
  }
  // R10: the dynamic policy hands out single CTAs.
  void check_dynamic() const
  {
    if (cluster_ctas() != 1)
    {
      detail::bad_tiles(PTXW_RULE(R10), "the dynamic tile schedule hands out single CTAs (a cluster launch "
                                        "control ring's responses go to cta_t): use the static policy for a "
                                        "cluster shape");
    }
  }
};

// The owner of a tile space's device memory and of its launches.
class tile_scheduler
{
  tile_plan plan_;
  ::ptxw::detail::device_array<std::uint32_t> firsts_;
  ::ptxw::detail::device_array<tile_record> records_;
  scheduler clc_;

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

  // A static schedule over `ctas` CTAs (a whole number of clusters, R14).
  tile_launch<static_tiles> prepare_static(unsigned long long ctas, const checked::sink* sink = nullptr) const
  {
    plan_.check_static_grid(ctas);
    const unsigned c = plan_.cluster_ctas();
    return {dim3(static_cast<unsigned>(ctas)), dim3(c), tile_schedule<static_tiles>{device_space(), sink}};
  }

  // A dynamic schedule launched as the whole grid, one block per unit: every backend runs it
  // (counter_t then one block per CTA; prepare(kernel, ...) launches its resident prefix instead).
  template <class Backend = automatic_t>
  tile_launch<dynamic_tiles<Backend>> prepare_dynamic(cudaStream_t stream = 0, const checked::sink* sink = nullptr)
  {
    plan_.check_dynamic();
    const dim3 grid(static_cast<unsigned>(clusters_needed()));
    return {grid, dim3(1), tile_schedule<dynamic_tiles<Backend>>{device_space(), clc_.prepare<Backend>(grid, dim3(1), stream, sink)}};
  }

  // Before each launch of `kernel` (which takes one ptxw::clc::tile_schedule): the static policy
  // launches as many clusters as the GPU holds at once for this kernel, block and shared memory
  // (never more than the units); the dynamic one the grid of one block per unit, of which
  // counter_t launches the resident prefix (ptxw/clc/launch.h).
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
      plan_.check_dynamic();
      const dim3 grid(static_cast<unsigned>(clusters_needed()));
      dim3 launched;
      backend_id runs = backend_id::automatic;
      ::ptxw::detail::cuda_check(detail::launch_grid<Backend>(kernel, grid, block, smem, dim3(1), launched, runs),
                                 "sizing the launch to the kernel's occupancy");
      context<Backend> ctx = clc_.prepare<Backend>(grid, dim3(1), stream, sink);
      ctx.prepared         = runs;
      return {launched, dim3(1), tile_schedule<Policy>{device_space(), ctx}};
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
