// ptxw/clc/host/tile_plan.h: the part of the host tile scheduler (ptxw/clc/host/tile_scheduler.h) that needs
// no GPU -- the shapes a tile space is described by, their compile-time forms, and tile_plan, which
// validates a list of problems and builds its prefix sums and dividers (and a host view of the
// space for tests). Bad input throws std::runtime_error("ptxw: R..") here, before anything is
// allocated.
#pragma once

#include <ptxw/clc/tile_scheduler.h>

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

namespace detail {
constexpr bool power_of_two(long long v)
{
  return v > 0 && (v & (v - 1)) == 0;
}
} // namespace detail

// Units of the minor dimension per strip: a power of two (1: plain raster order).
struct swizzle
{
  static constexpr long long largest = 1ll << 16;
  long long size = 1;

  // R18: a power of two from 1 to `largest`; checked where a swizzle is taken (fixed_swizzle at
  // compile time, tile_plan at run time), and by callers that refuse bad input before any work.
  constexpr bool valid() const noexcept
  {
    return detail::power_of_two(size) && size <= largest;
  }
};

// CTAs of a cluster along M and N: powers of two, at most 16 CTAs (the non-portable limit).
struct cluster_shape
{
  long long m = 1;
  long long n = 1;
};


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
  static_assert(swizzle{Size}.valid(), PTXW_RULE(R18) "a swizzle size is a power of two from 1 to 65536");
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

// How much of a dynamic schedule (dynamic_tiles) is handed out by requests: the last `waves` waves
// of units, a wave being one unit for each block (cluster) the GPU holds at once. Before them each
// resident block takes its units as the static policy would (b, b + G, ...): the tiles that run
// together are the ones the static policy runs together, on the same SMs, so they share their
// operands in L2 as under it, and the requests even out only the end, where the tiles' different
// lengths have added up. all (the default): every unit but a block's own is requested.
struct dynamic_tail
{
  static constexpr unsigned long long all = ~0ull;
  unsigned long long waves = all;
};

// The units each of `resident` resident blocks (clusters) takes before the tail of a schedule of
// `units` (tile_schedule<dynamic_tiles<...>>::head): its own and those of the whole waves before
// the tail, at least 1.
constexpr unsigned long long static_head(unsigned long long units, unsigned long long resident, dynamic_tail tail) noexcept
{
  if (tail.waves == dynamic_tail::all || resident == 0)
  {
    return 1;
  }
  const unsigned long long waves = units / resident;
  return waves > tail.waves ? waves - tail.waves : 1;
}

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
    if (!sw.valid())
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
  // The dynamic policy's receivers against the space's cluster shape: CTAs for clusters of one,
  // clusters (the ring's cluster form) for a cluster shape.
  void check_dynamic(bool clusters) const
  {
    if (!clusters && cluster_ctas() != 1)
    {
      detail::bad_tiles(PTXW_RULE(R10), "a tile space with a cluster shape is scheduled in clusters: "
                                        "dynamic_tiles<Backend, cluster_t> and a tile_ring<Depth, Consumers, "
                                        "cluster_t>");
    }
  }
};

} // namespace clc
PTXW_NAMESPACE_END
