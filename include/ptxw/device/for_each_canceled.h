// ptxw/device/for_each_canceled.h: op(index) for every index of a 1D, 2D or 3D shape, scheduled by
// ptxw's work stealing -- the device-scope call of for_each_canceled_block, in CUB's conventions.
//
//   std::size_t bytes = 0;
//   ptxw::device::for_each_canceled(nullptr, bytes, n, op);             // size query
//   ptxw::device::for_each_canceled(temp, bytes, n, op, stream);        // op(i), i in [0, n)
//   ptxw::device::for_each_canceled(temp, bytes, ptxw::device::shape<2>{{nx, ny}}, op2);   // op2(x, y)
//   ptxw::device::for_each_canceled(n, op, ptxw::device::env{stream});  // both phases, cudaMallocAsync
//
// Like cub::DeviceFor::ForEachN, op is called once per index, from any thread, in no particular
// order, and must not synchronise with other threads (it runs in divergent code). Unlike it, the
// indices are not dealt out statically: CTAs steal tiles of policy.block_threads * policy.rounds
// indices (hardware cluster launch control on sm_100 and newer, counter_t on sm_90: a persistent
// grid, ptxw/clc/counter.h). Tiles come in whole waves of the CTAs that fit on the GPU at once,
// with the indices shared out evenly, so a tile has policy.rounds rounds or fewer; where one wave
// takes them all, nothing is left to steal and the kernel runs without the scheduler (the
// emulation excepted: running its protocol is what it is for).
// A tile is a column of the index space (its rounds lie a grid of tiles apart), so a hot region is
// shared by all tiles. In a tile each thread walks its own indices with no barrier, and the last
// policy.shared_rounds rounds go to whichever threads are free first, so a thread held up by slow
// indices leaves its share of the tile's end to the others, where CUB's block holds its SM slots
// until its slowest thread finishes. docs/device.md has the figures against CUB.
//
// The scheduler's memory (the counter; the emulation's claims and responses) comes from the
// temporary storage. Errors, before anything is written or launched:
//   cudaErrorInvalidValue    a temporary storage smaller than the size query reported; a shape
//                            whose indices overflow 64 bits, or with more tiles than a grid holds
//                            (2^31 - 1); a negative n
//   cudaErrorInvalidDevice   a stream of another device than the current one
//   cudaErrorInvalidDeviceFunction  the build has no cubin for the device (its policy is unknown)
// An empty shape is a valid no-op that launches nothing. Otherwise the launch's error.
#pragma once

#include <ptxw/host/clc.h>
#include <ptxw/device/env.h>
#include <ptxw/device/policy.h>
#include <ptxw/device/temp_storage.h>
#include <ptxw/clc/for_each.h>

#include <cuda/std/tuple>
#include <cuda/std/type_traits>

PTXW_NAMESPACE_BEGIN
namespace device {
// The extents of a Rank-dimensional index space, x first (fastest).
template <int Rank>
struct shape
{
  static_assert(Rank >= 1 && Rank <= 3, PTXW_RULE(R10) "a shape has 1, 2 or 3 dimensions");
  unsigned long long extent[Rank];
};

namespace detail {
// The ptxw::clc backend of a scheduler, in the enumerators' order.
template <scheduler B>
using backend_t = ::cuda::std::tuple_element_t<static_cast<int>(B), ::cuda::std::tuple<clc::automatic_t, clc::counter_t,
                                                                                        clc::emulated_t, clc::hardware_t>>;

// The first architecture (in __CUDA_ARCH__ units) a backend runs on.
__host__ __device__ constexpr int first_arch(scheduler b)
{
  return b == scheduler::hardware ? 1000 : 900;
}

template <int Rank>
constexpr bool volume(const shape<Rank>& s, unsigned long long& n)
{
  n = 1;
  for (unsigned long long e : s.extent)
  {
    if (e != 0 && n > ~0ull / e)
    {
      return false;
    }
    n *= e;
  }
  return true;
}

// op at linear index i of s.
template <class Index, int Rank, class Op>
__device__ void invoke(Op& op, const shape<Rank>& s, unsigned long long i)
{
  if constexpr (Rank == 1)
  {
    op(static_cast<Index>(i));
  }
  else if constexpr (Rank == 2)
  {
    op(i % s.extent[0], i / s.extent[0]);
  }
  else
  {
    const unsigned long long row = i / s.extent[0];
    op(i % s.extent[0], row % s.extent[1], row / s.extent[1]);
  }
}

template <int Threads, int Cluster, scheduler B, class Index, int Rank, class Op>
__global__ __launch_bounds__(Threads) void for_each_kernel(shape<Rank> s, unsigned long long n, int rounds, int shared,
                                                           bool scheduled, Op op, clc::context<backend_t<B>> ctx)
{
#if defined(__CUDA_ARCH__)
  if constexpr (__CUDA_ARCH__ >= first_arch(B)) // other architectures of the build never launch it
  {
    // Tile b is a column of the index space: its round r is the Threads indices from
    // (r * tiles + b) * Threads, so a tile samples the whole range and a hot region is shared by
    // all tiles. Each thread walks its own indices of the first rounds - shared rounds, with no
    // claim, shuffle or barrier (ptxas may still reconverge a warp after a loop in op). The last
    // `shared` rounds go to whichever thread is free first: index j of them is the j-th claim on a
    // shared counter. Every thread stops at its first claim beyond them, so a tile takes exactly
    // pool + Threads claims, and the next tile's claims start there.
    const unsigned long long stride = static_cast<unsigned long long>(ctx.grid().x) * Threads;
    const int own                   = rounds - shared;
    const unsigned pool             = static_cast<unsigned>(shared) * Threads;
    __shared__ unsigned claims;
    if (threadIdx.x == 0)
    {
      claims = 0;
    }
    __syncthreads();
    unsigned base = 0; // claims before this tile's
    auto tile     = [&](dim3 block) {
      const unsigned long long first = static_cast<unsigned long long>(block.x) * Threads;
      unsigned long long i           = first + threadIdx.x;
      for (int r = 0; r < own && i < n; ++r, i += stride)
      {
        invoke<Index>(op, s, i);
      }
      for (unsigned j; (j = atomicAdd(&claims, 1u) - base) < pool;)
      {
        if (const unsigned long long k = first + (own + j / Threads) * stride + j % Threads; k < n)
        {
          invoke<Index>(op, s, k);
        }
      }
      base += pool + Threads;
    };
    if (!scheduled) // a CTA per tile, all at once: there is nothing to steal
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
// policy's rounds, and the rows shared out evenly over the tiles. A small n thus runs few rounds
// on every SM instead of many on a few (2^22 indices took 1.7x as long at the policy's 32 rounds on
// an H100), and a large one ends its last wave with every CTA busy (docs/device.md).
struct for_each_plan
{
  unsigned long long tiles; // a whole number of clusters
  unsigned long long units; // clusters (tiles where there are no clusters)
  int rounds;               // rows per tile, at most the policy's
  int shared;               // of them, the last that any thread of the CTA takes: the policy's share
};

constexpr for_each_plan plan(const for_each_policy& p, unsigned long long n, unsigned long long resident)
{
  const unsigned long long r     = rows(p, n);
  const unsigned long long wave  = resident * p.cluster * p.rounds; // rows of a wave at the policy's rounds
  const unsigned long long ctas  = (r / wave + (r % wave != 0)) * resident * p.cluster;
  const unsigned long long most  = 0x7fffffffull / p.cluster; // a grid's x (2^31 - 1), in clusters
  const unsigned long long want  = ((ctas < r ? ctas : r) + p.cluster - 1) / p.cluster;
  const unsigned long long units = want < most ? want : most;
  const unsigned long long tiles = units * p.cluster;
  const int rounds               = static_cast<int>(r / tiles + (r % tiles != 0));
  return {tiles, units, rounds, rounds * p.shared_rounds / p.rounds};
}

// counters (2 x u64), the emulation's claims (u32 per unit) and responses (uint4 per unit); the
// largest over the build's policies, for a tile per row (the most tiles any device can be given:
// the size does not depend on the device).
template <class Selector>
constexpr temp_layout<3> for_each_layout(unsigned long long n)
{
  unsigned long long units = 0;
  for (int i = 0; i < build_arch_count; ++i)
  {
    const for_each_policy p     = policy_at<Selector>(i);
    const unsigned long long pu = (rows(p, n) + p.cluster - 1) / p.cluster;
    units                       = p.backend == scheduler::emulated && pu > units ? pu : units;
  }
  return {{2 * sizeof(unsigned long long), units * sizeof(::cuda::std::uint32_t), units * sizeof(uint4)}};
}

template <class Selector, int I>
constexpr bool check_for_each_policy()
{
  constexpr for_each_policy p = policy_at<Selector>(I);
  static_assert(p.block_threads >= 32 && p.block_threads <= 1024 && p.block_threads % 32 == 0,
                PTXW_RULE(R18) "a for_each_policy's block_threads is a multiple of 32 in [32, 1024]");
  static_assert(p.rounds >= 1 && p.cluster >= 1 && p.cluster <= 8,
                PTXW_RULE(R18) "a for_each_policy has rounds >= 1 and a cluster of 1 to 8 CTAs");
  static_assert(p.shared_rounds >= 0 && p.shared_rounds <= p.rounds,
                PTXW_RULE(R18) "a for_each_policy shares 0 to rounds of a tile's rounds");
  static_assert(build_archs[I] >= first_arch(p.backend),
                PTXW_RULE(R9) "the selector picks a scheduler the architecture does not have: "
                "for_each_canceled needs sm_90, its hardware scheduler sm_100 or newer");
  return true;
}

template <class Selector, class Index, int Rank, class Op>
cudaError_t for_each_run(void* (&parts)[3], const shape<Rank>& s, unsigned long long n, Op& op, cudaStream_t stream)
{
  return dispatch_on_device<Selector>(stream, [&](auto arch, int device) -> cudaError_t {
    static_assert(check_for_each_policy<Selector, decltype(arch)::value>());
    constexpr for_each_policy p = policy_at<Selector>(decltype(arch)::value);
    using backend               = backend_t<p.backend>;
    constexpr auto* kernel      = for_each_kernel<p.block_threads, p.cluster, p.backend, Index, Rank, Op>;
    unsigned long long resident = 0; // clusters that fit on the GPU at once, remembered per device
    if (const cudaError_t err = cached_resident_units<kernel>(device, p.block_threads, p.cluster, resident);
        err != cudaSuccess)
    {
      return err;
    }
    const for_each_plan pl  = plan(p, n, resident);
    constexpr bool emulated = p.backend == scheduler::emulated;
    // Tiles that all fit on the GPU at once run without the scheduler and its set-up.
    const bool scheduled = emulated || pl.units > resident;
    const clc::detail::scheduler_memory memory{static_cast<unsigned long long*>(parts[0]),
                                               static_cast<::cuda::std::uint32_t*>(parts[1]),
                                               static_cast<uint4*>(parts[2])};
    // A fresh cursor, and for the emulation claims of no launch (epoch 1 finds them all 0).
    const std::size_t fresh = emulated ? static_cast<char*>(parts[1]) - static_cast<char*>(parts[0])
                                           + pl.units * sizeof(::cuda::std::uint32_t)
                                       : 2 * sizeof(unsigned long long);
    if (const cudaError_t err = scheduled ? cudaMemsetAsync(parts[0], 0, fresh, stream) : cudaSuccess;
        err != cudaSuccess)
    {
      return err;
    }
    const dim3 grid(static_cast<unsigned>(pl.tiles)), block(p.block_threads), cluster(p.cluster);
    clc::context<backend> ctx{};
    ctx.state = clc::detail::make_state<backend>(memory, grid, cluster, 1u, 0u, 0x9e3779b9u);
    // Where one wave takes every index, the persistent prefix is the whole grid anyway.
    constexpr bool persistent = clc::detail::persistent_launch<backend>(build_archs[decltype(arch)::value] / 10);
    const dim3 launched       = persistent ? clc::detail::persistent_grid(grid, cluster, resident) : grid;
    if constexpr (p.cluster == 1)
    {
      kernel<<<launched, block, 0, stream>>>(s, n, pl.rounds, pl.shared, scheduled, op, ctx);
      return cudaGetLastError();
    }
    else
    {
      return clc::launch_in_clusters(kernel, launched, block, cluster, 0, stream, s, n, pl.rounds, pl.shared,
                                     scheduled, op, ctx);
    }
  });
}
} // namespace detail

namespace detail {
// Both forms' steps, in the order of the header's errors.
template <class Selector, class Index, int Rank, class Op>
cudaError_t for_each_two_phase(void* d_temp_storage, std::size_t& temp_storage_bytes, const shape<Rank>& s, Op& op,
                               cudaStream_t stream)
{
  unsigned long long n = 0;
  if (!volume(s, n))
  {
    return cudaErrorInvalidValue;
  }
  for (int i = 0; i < build_arch_count; ++i)
  {
    if (const for_each_policy p = policy_at<Selector>(i); rows(p, n) / p.rounds >= 0x7fffffffull)
    {
      return cudaErrorInvalidValue;
    }
  }
  void* parts[3];
  if (const cudaError_t err = two_phase(for_each_layout<Selector>(n), d_temp_storage, temp_storage_bytes, parts);
      err != cudaSuccess || d_temp_storage == nullptr || n == 0)
  {
    return err;
  }
  return for_each_run<Selector, Index>(parts, s, n, op, stream);
}
} // namespace detail

// op(x[, y[, z]]) for every index of s; the two-phase call.
template <class Selector = for_each_selector, int Rank, class Op>
cudaError_t for_each_canceled(void* d_temp_storage, std::size_t& temp_storage_bytes, shape<Rank> s, Op op,
                              cudaStream_t stream = 0)
{
  return detail::for_each_two_phase<Selector, unsigned long long>(d_temp_storage, temp_storage_bytes, s, op, stream);
}

// op(i) for i in [0, num_items), i of NumItems' type, as cub::DeviceFor::ForEachN.
template <class Selector = for_each_selector, class NumItems, class Op,
          ::cuda::std::enable_if_t<::cuda::std::is_integral_v<NumItems>, int> = 0>
cudaError_t for_each_canceled(void* d_temp_storage, std::size_t& temp_storage_bytes, NumItems num_items, Op op,
                              cudaStream_t stream = 0)
{
  shape<1> s{};
  if (!detail::item_count(num_items, s.extent[0]))
  {
    return cudaErrorInvalidValue;
  }
  return detail::for_each_two_phase<Selector, NumItems>(d_temp_storage, temp_storage_bytes, s, op, stream);
}

// Both phases, with temporary storage from e.resource.
template <class Selector = for_each_selector, class Extent, class Op, class Resource = stream_ordered_resource>
cudaError_t for_each_canceled(Extent extent, Op op, env<Resource> e = {})
{
  return detail::with_temp_storage(e, [&](void* d_temp_storage, std::size_t& bytes) {
    return for_each_canceled<Selector>(d_temp_storage, bytes, extent, op, e.stream);
  });
}
} // namespace device
PTXW_NAMESPACE_END
