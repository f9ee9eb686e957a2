// ptxw/clc/tile_space.h: the tiles of a list of problems (a grouped GEMM's output tiles), numbered
// 0, 1, 2, ... problem after problem, and the decoding of such a number back into (problem, m, n).
// The tile schedulers of ptxw/clc/tile_scheduler.h hand the numbers out; ptxw/clc/host/tile_scheduler.h
// builds the space on the host (prefix sums, dividers, validation).
//
//   problem p     M_p x N_p elements, cut into tiles_m(p) x tiles_n(p) tiles of the tile shape; a
//                 problem with M_p = 0 or N_p = 0 has no tile and takes no number
//   unit          what one number names: one tile, or with a cluster shape of cm x cn CTAs (powers
//                 of two) one cluster tile of cm x cn tiles, the CTA of rank r taking tile
//                 (r % cm, r / cm) of it
//   raster        along_n: consecutive numbers walk along N (the "major" dimension) through a strip
//                 of `swizzle` units of M (the "minor" one), then the next strip; along_m the same with
//                 M and N exchanged (CUTLASS's RasterOrder::AlongN / AlongM)
//   swizzle       2^k units of the minor dimension per strip, so that the CTAs running at once share
//                 rows of A and columns of B in L2 (CUTLASS's swizzle size)
//
// Unlike CUTLASS's PersistentTileSchedulerSm90, which rounds each problem up to whole strips and
// whole clusters and leaves the padding tiles to the kernel, the numbering is exact: a problem whose
// minor extent is not a multiple of the swizzle ends with a narrower strip, and every number is a
// unit of some problem. Only a cluster tile can reach past a problem's edge (tile.in_bounds).
//
// Decoding is integer arithmetic on values the host computed: each division by a run-time extent is
// a multiply-high, an add and a shift (Granlund and Montgomery's round-up method, for dividends
// below 2^31, which the host enforces). Finding the problem of a number is one compare against the
// problem a cursor holds -- consecutive numbers of one CTA stay in one problem for long -- and on a
// miss a binary search over the prefix sums in global memory: no array on the stack, no local
// memory, for any problem count. A one-problem space carries its record in the kernel parameter and
// loads nothing.
#pragma once

#include <ptxw/core/target.h>

PTXW_NAMESPACE_BEGIN
namespace clc {

// Which dimension consecutive units walk along (the "major" one); the other is grouped by the swizzle.
enum class raster : ::cuda::std::uint32_t
{
  along_m = 0,
  along_n = 1,
};

namespace detail {
// The quotient of n by a divisor d the host prepared (tile_divider on the host side): for d = 2^k
// magic is 1 and the quotient n >> k. Exact for n < 2^31 and 1 <= d < 2^31.
__host__ __device__ inline ::cuda::std::uint32_t divide(::cuda::std::uint32_t n, ::cuda::std::uint32_t magic,
                                                        ::cuda::std::uint32_t shift)
{
#if defined(__CUDA_ARCH__)
  const ::cuda::std::uint32_t hi = __umulhi(n, magic);
#else
  const ::cuda::std::uint32_t hi =
    static_cast<::cuda::std::uint32_t>((static_cast<::cuda::std::uint64_t>(n) * magic) >> 32);
#endif
  return (hi + n) >> shift;
}
} // namespace detail

// One problem of a tile space, as decoding needs it (made by the host, ptxw/clc/host/tile_plan.h).
// 16-aligned: a cursor's miss loads it with three 16-byte loads.
struct alignas(16) tile_record
{
  ::cuda::std::uint32_t first; // the number of its first unit: the prefix sum of the units before it
  ::cuda::std::uint32_t end; // first + its units
  ::cuda::std::uint32_t strip_units; // units of a whole strip: swizzle x major extent (in units)
  ::cuda::std::uint32_t strip_magic; // the divider of strip_units
  ::cuda::std::uint32_t whole_strips; // strips of the full swizzle width
  ::cuda::std::uint32_t last_width; // minor extent of the narrower last strip (0: none)
  ::cuda::std::uint32_t last_magic; // the divider of last_width
  ::cuda::std::uint32_t shifts; // strip_units' shift | last_width's shift << 8
  ::cuda::std::uint32_t tiles_m; // the problem's extent in tiles (not units): the bounds of a cluster tile
  ::cuda::std::uint32_t tiles_n;
  ::cuda::std::uint32_t unused[2];
};

// A tile handed out: its problem and its position in that problem's grid of tiles.
struct tile
{
  ::cuda::std::uint32_t problem;
  ::cuda::std::uint32_t m; // tile row: elements [m * tile_m, (m + 1) * tile_m) of M
  ::cuda::std::uint32_t n; // tile column
  ::cuda::std::uint32_t unit; // the number it was handed out as
  // false only for a CTA of a cluster tile that reaches past the problem's edge: the CTA still takes
  // part in the cluster's collective steps (multicast loads, cluster barriers) and writes nothing.
  bool in_bounds;
};

// The kernel's view of a tile space: plain values, passed by value inside the tile schedule (the
// arrays it points to are owned by ptxw::clc::tile_scheduler on the host).
struct tile_space
{
  const ::cuda::std::uint32_t* firsts; // problems + 1 prefix sums of units, in global memory
  const tile_record* records; // one per problem, in global memory
  tile_record first_record; // problem 0's, so that a one-problem space loads nothing
  ::cuda::std::uint32_t problems;
  ::cuda::std::uint32_t units; // all problems' units: the numbers are [0, units)
  ::cuda::std::uint32_t log_swizzle;
  raster order;
  ::cuda::std::uint32_t log_cluster_m; // CTAs of a cluster along M and N, powers of two (0, 0: no cluster)
  ::cuda::std::uint32_t log_cluster_n;

  // Units of all problems: a static schedule's stride runs over them, a dynamic one launches one
  // block per unit.
  __host__ __device__ ::cuda::std::uint32_t size() const noexcept
  {
    return units;
  }
};

// A reader of a tile space that remembers the problem of its last unit: a unit in the same problem
// costs a compare and the arithmetic, one in another problem a binary search over the prefix sums.
// One per role (thread); it lives in registers.
class tile_cursor
{
  tile_record rec_;
  ::cuda::std::uint32_t problem_ = 0;

  // The problem of unit u (< units): the last p with firsts[p] <= u. Problems without units share
  // their first with the next one, so the last such p has units.
  __host__ __device__ void seek(const tile_space& s, ::cuda::std::uint32_t u)
  {
    ::cuda::std::uint32_t lo = 0, hi = s.problems; // firsts[lo] <= u < firsts[hi]
    while (hi - lo > 1)
    {
      const ::cuda::std::uint32_t mid = (lo + hi) / 2;
      if (s.firsts[mid] <= u)
      {
        lo = mid;
      }
      else
      {
        hi = mid;
      }
    }
    problem_ = lo;
    rec_     = s.records[lo];
  }

public:
  __host__ __device__ explicit tile_cursor(const tile_space& s) noexcept
      : rec_(s.first_record)
  {}

  // Unit u (< s.units) as this CTA's tile: `rank` is the CTA's rank in its cluster (0 without one).
  __host__ __device__ tile at(const tile_space& s, ::cuda::std::uint32_t u, ::cuda::std::uint32_t rank = 0)
  {
    if (u < rec_.first || u >= rec_.end)
    {
      seek(s, u);
    }
    const ::cuda::std::uint32_t r0    = u - rec_.first;
    const ::cuda::std::uint32_t strip = detail::divide(r0, rec_.strip_magic, rec_.shifts & 0xffu);
    const ::cuda::std::uint32_t r     = r0 - strip * rec_.strip_units;
    // A whole strip's width is the swizzle, a power of two (magic 1, shift log_swizzle); the last,
    // narrower one's is last_width. Selects, not branches: the same instructions for every unit.
    const bool whole                  = strip < rec_.whole_strips;
    const ::cuda::std::uint32_t magic = whole ? 1u : rec_.last_magic;
    const ::cuda::std::uint32_t shift = whole ? s.log_swizzle : rec_.shifts >> 8;
    const ::cuda::std::uint32_t width = whole ? 1u << s.log_swizzle : rec_.last_width;
    const ::cuda::std::uint32_t major = detail::divide(r, magic, shift);
    const ::cuda::std::uint32_t minor = (strip << s.log_swizzle) + (r - major * width);
    const bool along_n                = s.order == raster::along_n;
    const ::cuda::std::uint32_t um    = along_n ? minor : major;
    const ::cuda::std::uint32_t un    = along_n ? major : minor;
    ::cuda::std::uint32_t m = um, n = un;
    if (s.log_cluster_m + s.log_cluster_n != 0)
    {
      m = (um << s.log_cluster_m) + (rank & ((1u << s.log_cluster_m) - 1u));
      n = (un << s.log_cluster_n) + (rank >> s.log_cluster_m);
    }
    return tile{problem_, m, n, u, m < rec_.tiles_m && n < rec_.tiles_n};
  }
};

} // namespace clc
PTXW_NAMESPACE_END
