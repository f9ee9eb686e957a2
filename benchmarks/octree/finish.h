// benchmarks/octree/finish.h: one block finishes a node of at most S = 4096 particles in shared
// memory: its whole subtree in one task, with no further pushes or levels. The block sorts the
// node's keys below its prefix (cub::BlockRadixSort on 5 digits first -- enough below a node of
// 4096 unless it is dense -- then all of them if a window shows that 5 do not decide), reads the
// leaves off the sorted keys (sorted_leaves.h), writes the particles in leaf order to the output
// and appends its leaves with one atomic. The node is read once into shared memory: the gather
// comes from there, which also makes it safe where the node already lies in the output buffer.
#pragma once

#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>

#include <cstddef>
#include <cstdint>

#include "output.h"
#include "sorted_leaves.h"

namespace ptxw_bench::octree
{

inline constexpr std::uint32_t finish_size = 4096; // S: 4096 float4 = 64 KiB

template <int Threads>
struct block_finish
{
  static constexpr int items       = finish_size / Threads;
  static constexpr int first_digits = 5;
  using sort                        = cub::BlockRadixSort<std::uint64_t, Threads, items, std::uint16_t>;
  using scan                        = cub::BlockScan<std::uint32_t, Threads>;

  // About 110 KiB: dynamic shared memory (two blocks an SM), see bytes().
  struct storage
  {
    float4 particle[finish_size]; // the node, read once: keys from it, the output gathered from it
    union
    {
      typename sort::TempStorage sort;
      struct
      {
        std::uint64_t key[finish_size];
        std::uint16_t val[finish_size + 1]; // the particle's index in the node; then the leaves' starts
        std::uint8_t common[finish_size]; // a window's common digits; then a key's leaf depth
      } tree;
    } u;
    typename scan::TempStorage scan;
    std::uint32_t leaf_base;
  };
  static constexpr std::size_t bytes = sizeof(storage);

  // Sorts tree.key/val on bits [lo, hi + 1) (hi: the padding bit), in place.
  __device__ static void sort_tree(storage& s, std::uint64_t (&k)[items], std::uint16_t (&v)[items], int lo, int hi)
  {
    __syncthreads();
    sort(s.u.sort).Sort(k, v, lo, hi + 1);
    __syncthreads();
#pragma unroll
    for (int j = 0; j < items; ++j)
    {
      s.u.tree.key[threadIdx.x * items + j] = k[j];
      s.u.tree.val[threadIdx.x * items + j] = v[j];
    }
    __syncthreads();
  }

  // Whether some window of the sorted keys reaches the sorted digits' end above max_depth.
  __device__ static bool windows(storage& s, const sorted_view<std::uint64_t>& view, std::uint32_t n, std::uint32_t t)
  {
    bool deeper = false;
    for (std::uint32_t j = threadIdx.x; j + t < n; j += Threads)
    {
      const int c          = view.common(s.u.tree.key[j], s.u.tree.key[j + t]);
      s.u.tree.common[j]   = static_cast<std::uint8_t>(c);
      (void) view.depth(c, deeper);
    }
    return __syncthreads_or(deeper);
  }

  // The node (depth > 0 or not: any; T < count <= S) from buf.at(depth) into the output.
  __device__ static void run(storage& s, const node& nd, const buffers& buf, const leaf_out& out, std::uint32_t t)
  {
    const int d          = depth_of(nd.code);
    const int hi         = 3 * (max_depth - d);
    const float4* src    = buf.at(d);
    const std::uint32_t n = nd.count;
    std::uint64_t k[items];
    std::uint16_t v[items];
#pragma unroll
    for (int j = 0; j < items; ++j)
    {
      const std::uint32_t i = j * Threads + threadIdx.x;
      v[j]                  = static_cast<std::uint16_t>(i);
      k[j]                  = std::uint64_t{1} << hi;
      if (i < n)
      {
        s.particle[i] = src[nd.begin + i];
        k[j]          = key63(s.particle[i]) & ((std::uint64_t{1} << hi) - 1);
      }
    }
    sorted_view<std::uint64_t> view{d, nd.code, hi, hi > 3 * first_digits ? hi - 3 * first_digits : 0};
    sort_tree(s, k, v, view.lo, hi);
    if (windows(s, view, n, t) && view.lo > 0)
    {
      view.lo = 0;
#pragma unroll
      for (int j = 0; j < items; ++j)
      {
        k[j] = s.u.tree.key[threadIdx.x * items + j];
        v[j] = s.u.tree.val[threadIdx.x * items + j];
      }
      sort_tree(s, k, v, 0, hi);
      (void) windows(s, view, n, t);
    }
    // Leaf depth of each key (into `common`, once every window is read); the particles in sorted
    // order to the output.
    std::uint8_t dep[items];
#pragma unroll
    for (int j = 0; j < items; ++j)
    {
      const std::uint32_t i = j * Threads + threadIdx.x;
      int m                 = -1;
      for (std::uint32_t w = i >= t ? i - t : 0; w <= i && w + t < n; ++w)
      {
        m = max(m, static_cast<int>(s.u.tree.common[w]));
      }
      bool unused = false;
      dep[j]      = static_cast<std::uint8_t>(view.depth(m, unused));
      if (i < n)
      {
        buf.a[nd.begin + i] = s.particle[s.u.tree.val[i]];
      }
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < items; ++j)
    {
      const std::uint32_t i = j * Threads + threadIdx.x;
      if (i < n)
      {
        s.u.tree.common[i] = dep[j];
      }
    }
    __syncthreads();
    // Leaf starts (blocked: thread x owns keys x*items ..), numbered by a block scan.
    std::uint32_t flag[items], pos[items], total;
#pragma unroll
    for (int j = 0; j < items; ++j)
    {
      const std::uint32_t i = threadIdx.x * items + j;
      const int di          = i < n ? s.u.tree.common[i] : 0;
      flag[j]               = i < n && (i == 0 || di != s.u.tree.common[i - 1] ||
                                        !view.same_node(s.u.tree.key[i], s.u.tree.key[i - 1], di));
    }
    scan(s.scan).ExclusiveSum(flag, pos, total);
    if (threadIdx.x == 0)
    {
      s.leaf_base          = atomicAdd(out.count, total);
      s.u.tree.val[total] = static_cast<std::uint16_t>(n); // n <= 4096 fits
    }
#pragma unroll
    for (int j = 0; j < items; ++j)
    {
      if (flag[j])
      {
        s.u.tree.val[pos[j]] = static_cast<std::uint16_t>(threadIdx.x * items + j);
      }
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < items; ++j)
    {
      if (flag[j])
      {
        const std::uint32_t i = threadIdx.x * items + j;
        const int di          = s.u.tree.common[i];
        out.leaves[s.leaf_base + pos[j]] =
          leaf{view.code(s.u.tree.key[i], di), nd.begin + i, static_cast<std::uint32_t>(s.u.tree.val[pos[j] + 1]) - i};
      }
    }
    __syncthreads(); // s is reused by the block's next node
  }
};

} // namespace ptxw_bench::octree
