// ptxw/algorithms/for_each_tiles.h: for_each_canceled's tile form -- CTAs steal tiles of the index space
// through cluster launch control (hardware on sm_100 and newer, counter_t on sm_90), and inside a
// tile each thread walks its own indices, the tile's last rounds going to whichever thread is
// free first; or a plain launch of one CTA per tile, CUB's tiles where no round is shared. What it
// is for and where it wins: docs/device.md.
#pragma once

#include <ptxw/algorithms/policy.h>
#include <ptxw/algorithms/shape.h>
#include <ptxw/clc/for_each.h>
#include <ptxw/clc/launch.h>

#include <cuda/std/type_traits>

PTXW_NAMESPACE_BEGIN
namespace device::detail {
// The ptxw::clc backend a policy names, and what it keeps per unit (ptxw/clc/backend_table.h).
template <clc::backend_id B>
using backend_t = typename clc::detail::tag_of<B>::type;

template <clc::backend_id B>
inline constexpr bool claims_per_unit =
  clc::detail::row_of<clc::detail::state_backend_t<backend_t<B>>>::value().claims_per_unit;

// The walks' arithmetic: 32 bits where the indices are of a signed 32-bit type, as CUB's offsets
// (n < 2^31, and a walk steps only to indices below n, or up to a cluster of tiles past it: none
// wraps), else 64.
template <class Index, int Rank>
using walk_index_t = ::cuda::std::conditional_t<Rank == 1 && sizeof(Index) <= 4 && ::cuda::std::is_signed_v<Index>,
                                                unsigned, unsigned long long>;

// One CTA's walk of the tiles it takes. Tile b is a column of the index space: its round r is the
// Threads indices from (r * tiles + b) * Threads, so a tile samples the whole range and a hot region
// is shared by all tiles. Each thread walks its own indices of the first `own` rounds, with no
// claim, shuffle or barrier (ptxas may still reconverge a warp after a loop in op). The last rounds
// (`pool` indices) go to whichever thread is free first: index j of them is the j-th claim on a
// shared counter (`claims`, zeroed and published before the first tile). Every thread stops at its
// first claim beyond them, so a tile takes exactly pool + Threads claims, and the next tile's claims
// start there. for_each_canceled's stolen tiles and plain tiles with shared rounds, and
// for_each_with_state's tiles, are walked so.
template <int Threads, class Index, int Rank>
struct tile_walk
{
  using index_t = walk_index_t<Index, Rank>;

  const shape<Rank>& s;
  index_t n;
  index_t stride; // indices between two rounds of a tile: the grid's tiles x Threads
  int own; // rounds each thread walks alone
  unsigned pool; // indices of the shared rounds
  unsigned* claims; // the CTA's counter of shared claims (shared memory)
  unsigned base = 0; // claims before this tile's

  __device__ tile_walk(const shape<Rank>& s, unsigned long long n, unsigned long long tiles, int own, unsigned pool,
                       unsigned* claims)
      : s(s)
      , n(static_cast<index_t>(n))
      , stride(static_cast<index_t>(tiles * Threads))
      , own(own)
      , pool(pool)
      , claims(claims)
  {}

  template <class Op>
  __device__ void operator()(Op& op, dim3 block)
  {
    const index_t first = static_cast<index_t>(block.x) * Threads;
    index_t i           = first + threadIdx.x;
    for (int r = 0; r < own && i < n; ++r)
    {
      invoke<Index>(op, s, i);
      if (n - i <= stride)
      {
        break;
      }
      i += stride;
    }
    if (pool == 0) // no shared rounds: no claims (pool is the same in every tile of a launch)
    {
      return;
    }
    for (unsigned j; (j = atomicAdd(claims, 1u) - base) < pool;)
    {
      const unsigned long long k = first + static_cast<unsigned long long>(own + j / Threads) * stride + j % Threads;
      if (k < n)
      {
        invoke<Index>(op, s, k);
      }
    }
    base += pool + Threads;
  }
};

// A plain launch without shared rounds: CUB's tile, Rounds consecutive rows of Threads indices,
// thread t running index t of each. Rounds is the policy's, known to the compiler: the plan launched
// rows / Rounds tiles, rounded up (to whole clusters), so these cover every row once, and a tile
// beyond the rows starts past n. A tile wholly below n runs its rounds with no test an index, as
// CUB's full tile; the others test each.
template <int Threads, int Rounds, class Index, int Rank, class Op>
__device__ void plain_tile(Op& op, const shape<Rank>& s, unsigned long long count)
{
  using index_t       = walk_index_t<Index, Rank>;
  const index_t n     = static_cast<index_t>(count);
  const index_t first = static_cast<index_t>(blockIdx.x) * (Rounds * Threads);
  const index_t i     = first + threadIdx.x;
  if (first < n && n - first >= Rounds * Threads)
  {
#pragma unroll
    for (int r = 0; r < Rounds; ++r)
    {
      invoke<Index>(op, s, i + r * Threads);
    }
  }
  else
  {
#pragma unroll
    for (int r = 0; r < Rounds; ++r)
    {
      if (i + r * Threads < n)
      {
        invoke<Index>(op, s, i + r * Threads);
      }
    }
  }
}

// B: the policy's backend_id as an int (nvcc 13.0's host stub cannot name an enum value that is no
// enumerator, as a backend added by a table row is). Occupancy: the policy's (0: ptxas chooses).
// Steal false: a plain launch, a CTA per tile, no scheduler code in the kernel; Shares false: no
// shared rounds, so no claims and no barrier either (the policy's shared_rounds is 0). Rounds: the
// policy's rounds where a plain launch has no shared rounds (plain_tile), else 0 (tile_walk, with the
// plan's rounds at run time).
template <int Threads, int Rounds, int Cluster, int B, int Occupancy, bool Steal, bool Shares, class Index, int Rank,
          class Op>
__global__ __launch_bounds__(Threads, Occupancy > 0 ? Occupancy : 1) void for_each_kernel(
  shape<Rank> s, unsigned long long n, int rounds, int shared, bool scheduled, Op op,
  clc::context<backend_t<clc::backend_id{B}>> ctx)
{
#if defined(__CUDA_ARCH__)
  // Other architectures of the build never launch it.
  if constexpr (__CUDA_ARCH__ / 10 >= clc::detail::first_sm<clc::backend_id{B}>())
  {
    if constexpr (Rounds > 0)
    {
      plain_tile<Threads, Rounds, Index>(op, s, n);
    }
    else
    {
      __shared__ unsigned claims;
      if (Shares && shared != 0) // the same in every CTA
      {
        if (threadIdx.x == 0)
        {
          claims = 0;
        }
        __syncthreads();
      }
      tile_walk<Threads, Index, Rank> walk(s, n, ctx.grid().x, rounds - shared,
                                           Shares ? static_cast<unsigned>(shared) * Threads : 0u, &claims);
      auto tile = [&](dim3 block) {
        walk(op, block);
      };
      if constexpr (!Steal)
      {
        tile(blockIdx);
      }
      else if (!scheduled) // a CTA per tile, all at once: there is nothing to steal
      {
        tile(blockIdx);
      }
      else if constexpr (Cluster == 1)
      {
        for_each_canceled_block<1>(ctx, tile);
      }
      else
      {
        for_each_canceled_cluster<1>(ctx, tile);
      }
    }
  }
#else
  (void) s, (void) n, (void) rounds, (void) shared, (void) scheduled, (void) op, (void) ctx;
#endif
}

// Rows of block_threads indices: what a tile takes one of per round.
constexpr unsigned long long rows(const for_each_policy& p, unsigned long long n)
{
  return n / p.block_threads + (n % p.block_threads != 0);
}

// How n indices are cut for `resident` units (clusters, or CTAs without clusters) that fit on the
// GPU at once: tiles for a whole number of waves of them, as few waves as keep tiles within the
// policy's rounds but at least the policy's waves where every tile keeps a row, and the rows shared
// out evenly over the tiles. A small n thus runs few rounds
// on every SM instead of many on a few, and a large one ends its last wave with every CTA busy
// (docs/device.md).
struct for_each_plan
{
  unsigned long long tiles; // a whole number of clusters
  unsigned long long units; // clusters (tiles where there are no clusters)
  int rounds;               // rows per tile, at most the policy's
  int shared;               // of them, the last that any thread of the CTA takes: the policy's share
  bool steal;               // the policy's: tiles beyond the GPU are stolen (else a plain launch)
};

// A plain launch (steal false) cuts n into the fewest tiles of at most the policy's rounds,
// whatever fits at once.
constexpr unsigned long long tiles_wanted(const for_each_policy& p, unsigned long long r, unsigned long long resident)
{
  if (!p.steal)
  {
    return r / p.rounds + (r % p.rounds != 0);
  }
  const unsigned long long per_wave = resident * p.cluster;                // CTAs of a wave
  const unsigned long long wave     = per_wave * p.rounds;                 // rows of a wave at the policy's rounds
  const unsigned long long fewest   = r / wave + (r % wave != 0);          // waves within the policy's rounds
  const unsigned long long rowful   = r / per_wave;                        // whole waves with a row a tile
  const unsigned long long least    = p.waves < rowful ? p.waves : rowful; // the policy's waves, where rows allow
  return (fewest > least ? fewest : least) * per_wave;
}

constexpr for_each_plan plan(const for_each_policy& p, unsigned long long n, unsigned long long resident)
{
  const unsigned long long r     = rows(p, n);
  const unsigned long long ctas  = tiles_wanted(p, r, resident);
  const unsigned long long most  = 0x7fffffffull / p.cluster; // a grid's x (2^31 - 1), in clusters
  const unsigned long long want  = ((ctas < r ? ctas : r) + p.cluster - 1) / p.cluster;
  const unsigned long long units = want < most ? want : most;
  const unsigned long long tiles = units * p.cluster;
  const int rounds               = static_cast<int>(r / tiles + (r % tiles != 0));
  return {tiles, units, rounds, rounds * p.shared_rounds / p.rounds, p.steal};
}

// Units of the emulation's claims and responses (a u32 and a uint4 each): the most over the build's
// policies whose backend keeps them of units(policy, n) -- never the device's, so that the size
// does not depend on the device. for_each_canceled's and for_each_with_state's layouts.
template <class Selector, class Units, int I = 0>
constexpr unsigned long long claiming_units(unsigned long long n, Units units)
{
  if constexpr (I == build_arch_count)
  {
    (void) n, (void) units;
    return 0;
  }
  else
  {
    constexpr auto p                = policy_at<Selector>(I);
    const unsigned long long others = claiming_units<Selector, Units, I + 1>(n, units);
    if constexpr (claims_per_unit<p.backend>)
    {
      const unsigned long long mine = units(p, n);
      return mine > others ? mine : others;
    }
    else
    {
      return others;
    }
  }
}

// How a launch of the plan's tiles is scheduled, for backend B in code compiled for `Sm`: whether
// it steals -- tiles that all fit on the GPU at once run without stealing, with no request and no
// cursor to clear, but the emulation (claims per unit) runs its protocol even then: that is what it
// is for --, the context (the scheduler's memory, a fresh cursor and, for the emulation, claims of no
// launch, set on the stream where it steals), and the CTAs to launch (the resident prefix where the
// backend table says so; where one wave takes every index that is the whole grid anyway).
template <clc::backend_id B>
struct tile_schedule
{
  bool scheduled;
  dim3 launched;
  clc::context<backend_t<B>> ctx;
};

template <clc::backend_id B, int Sm>
cudaError_t schedule_tiles(void* (&parts)[3], const for_each_plan& pl, unsigned cluster, unsigned long long resident,
                           cudaStream_t stream, tile_schedule<B>& out)
{
  constexpr bool claims = claims_per_unit<B>;
  out.scheduled         = pl.steal && (claims || pl.units > resident);
  // Epoch 1 of the emulation finds claims of no launch: zeros.
  const std::size_t fresh = claims ? static_cast<char*>(parts[1]) - static_cast<char*>(parts[0])
                                       + pl.units * sizeof(::cuda::std::uint32_t)
                                   : 2 * sizeof(unsigned long long);
  if (const cudaError_t err = out.scheduled ? cudaMemsetAsync(parts[0], 0, fresh, stream) : cudaSuccess;
      err != cudaSuccess)
  {
    return err;
  }
  const dim3 grid(static_cast<unsigned>(pl.tiles));
  const clc::detail::launch_plan lp{static_cast<unsigned long long*>(parts[0]),
                                    static_cast<::cuda::std::uint32_t*>(parts[1]),
                                    static_cast<uint4*>(parts[2]),
                                    {grid.x, grid.y, grid.z},
                                    {cluster, 1u, 1u},
                                    1u,
                                    0u,
                                    0x9e3779b9u};
  constexpr clc::detail::backend_row row = clc::detail::row_for<backend_t<B>>(Sm);
  out.ctx      = clc::detail::make_context<backend_t<B>>(lp, row.id, nullptr);
  out.launched = pl.steal && row.resident_prefix ? clc::detail::resident_prefix(grid, dim3(cluster), resident) : grid;
  return cudaSuccess;
}

// The tile form's launch for the build architecture I: its plan, its scheduler's memory set on the
// stream where it steals, and the kernel.
template <class Selector, int I, class Index, int Rank, class Op>
cudaError_t for_each_tiles(void* (&parts)[3], const shape<Rank>& s, unsigned long long n, Op& op, cudaStream_t stream,
                           int device)
{
  constexpr for_each_policy p = policy_at<Selector>(I);
  constexpr auto* kernel =
    for_each_kernel<p.block_threads, !p.steal && p.shared_rounds == 0 ? p.rounds : 0, p.cluster,
                    static_cast<int>(p.backend), p.occupancy, p.steal, p.shared_rounds != 0, Index, Rank, Op>;
  unsigned long long resident = 0; // clusters that fit on the GPU at once, remembered per device
  if (const cudaError_t err = cached_resident_units<kernel>(device, p.block_threads, p.cluster, resident);
      err != cudaSuccess)
  {
    return err;
  }
  const for_each_plan pl = plan(p, n, resident);
  tile_schedule<p.backend> t{};
  if (const cudaError_t err =
        schedule_tiles<p.backend, build_archs[I] / 10>(parts, pl, p.cluster, resident, stream, t);
      err != cudaSuccess)
  {
    return err;
  }
  if constexpr (p.cluster == 1)
  {
    kernel<<<t.launched, p.block_threads, 0, stream>>>(s, n, pl.rounds, pl.shared, t.scheduled, op, t.ctx);
    return cudaGetLastError();
  }
  else
  {
    return clc::launch_in_clusters(kernel, t.launched, dim3(p.block_threads), dim3(p.cluster), 0, stream, s, n,
                                   pl.rounds, pl.shared, t.scheduled, op, t.ctx);
  }
}
} // namespace device::detail
PTXW_NAMESPACE_END
