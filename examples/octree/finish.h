// examples/octree/finish.h: one block finishes a node of at most S = 4096 particles in shared
// memory: its whole subtree in one task, with no further pushes or levels. The node is read once
// into shared memory; the block sorts its keys below the node's prefix (cub::BlockRadixSort),
// reads the leaves off the sorted keys (sorted_leaves.h, windows by window_max.h), writes the
// particles in leaf order to the output (from shared memory: safe where the node already lies in
// the output buffer) and appends its leaves with one atomic.
// The sort first takes the digits a node of n particles needs if spread evenly (log8(n / T), one
// more for margin; 32-bit keys), and all digits below the node (64-bit keys) only where a window
// shows that those did not decide the tree: a dense node pays, an even one does not. A node of
// at most S / 4 particles sorts S / 4 keys (the padding would cost as much as the keys).
#pragma once

#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>

#include <cstddef>
#include <cstdint>

#include "output.h"
#include "sorted_leaves.h"
#include "window_max.h"

namespace octree
{

inline constexpr std::uint32_t finish_size = 4096; // S: 4096 float4 = 64 KiB

template <int Threads>
struct block_finish
{
  static constexpr int items = finish_size / Threads;
  static constexpr int spans = (finish_size + max_window + Threads - 1) / Threads;
  // 4-bit digits (CUB's default); the outer scan's partials not memoized in registers (fewer
  // spills when the finish was a call from the task loop; inlined, the stacks are within 8 bytes).
  template <class Key, int Items>
  using sort = cub::BlockRadixSort<Key, Threads, Items, std::uint16_t, 4, false>;
  using scan = cub::BlockScan<std::uint32_t, Threads>;
  // A node of at most a quarter of S sorts a quarter of the keys: the padding would sort too.
  static constexpr int small_items = items / 4;

  // About 112 KiB: dynamic shared memory, `bytes` (two blocks an SM).
  struct storage
  {
    float4 particle[finish_size];
    union
    {
      typename sort<std::uint32_t, items>::TempStorage sort32;
      typename sort<std::uint64_t, items>::TempStorage sort64;
      typename sort<std::uint32_t, small_items>::TempStorage small32;
      typename sort<std::uint64_t, small_items>::TempStorage small64;
      struct
      {
        std::uint64_t key[finish_size];
        std::uint16_t val[finish_size + 1]; // a key's particle (index in the node); then the leaves' starts
        std::uint8_t common[finish_size + max_window]; // windows' common digits + 1; then leaf depths
      } tree;
    } u;
    typename scan::TempStorage scan;
    std::uint32_t leaf_base;
  };
  static constexpr std::size_t bytes = sizeof(storage);

  template <class Key, int Items>
  __device__ static typename sort<Key, Items>::TempStorage& temp(storage& s)
  {
    if constexpr (sizeof(Key) == 4)
    {
      if constexpr (Items == items)
      {
        return s.u.sort32;
      }
      else
      {
        return s.u.small32;
      }
    }
    else if constexpr (Items == items)
    {
      return s.u.sort64;
    }
    else
    {
      return s.u.small64;
    }
  }

  template <class Key, int Items>
  __device__ static void sort_tree(storage& s, Key (&k)[Items], std::uint16_t (&v)[Items], int bits, int lo)
  {
    __syncthreads();
    sort<Key, Items>(temp<Key, Items>(s)).Sort(k, v, 0, bits);
    __syncthreads();
#pragma unroll
    for (int j = 0; j < Items; ++j)
    {
      s.u.tree.key[threadIdx.x * Items + j] = static_cast<std::uint64_t>(k[j]) << lo;
      s.u.tree.val[threadIdx.x * Items + j] = v[j];
    }
    __syncthreads();
  }

  // Sorts the node's keys on bits [view.lo, view.hi) (blocked: padding, all ones, sorts last and
  // stays behind the real keys) and fills the windows; whether the sorted digits did not decide.
  template <class Key, int Items>
  __device__ static bool sort_and_window(storage& s, const sorted_view<std::uint64_t>& view, std::uint32_t n,
                                         std::uint32_t t)
  {
    const int bits   = view.hi - view.lo;
    const Key ones   = static_cast<Key>(~0ull >> (64 - bits));
    Key k[Items];
    std::uint16_t v[Items];
#pragma unroll
    for (int j = 0; j < Items; ++j)
    {
      const std::uint32_t i = threadIdx.x * Items + j;
      v[j]                  = static_cast<std::uint16_t>(i);
      k[j]                  = i < n ? static_cast<Key>(key63(s.particle[i]) >> view.lo) & ones : ones;
    }
    sort_tree(s, k, v, bits, view.lo);
    bool deeper = false;
    for (std::uint32_t x = threadIdx.x; x < n + t; x += Threads) // window j = x - t
    {
      std::uint8_t c = 0;
      if (x >= t && x < n)
      {
        const int common = view.common(s.u.tree.key[x - t], s.u.tree.key[x]);
        (void) view.depth(common, deeper);
        c = static_cast<std::uint8_t>(common + 1);
      }
      s.u.tree.common[x] = c;
    }
    return __syncthreads_or(deeper);
  }

  // The keys sorted on the digits the view names, and on all below the node (view.lo = 0) where
  // those did not decide.
  template <int Items>
  __device__ static void sort_and_windows(storage& s, sorted_view<std::uint64_t>& view, std::uint32_t n, std::uint32_t t)
  {
    if (sort_and_window<std::uint32_t, Items>(s, view, n, t) && view.lo > 0)
    {
      view.lo = 0;
      (void) sort_and_window<std::uint64_t, Items>(s, view, n, t);
    }
  }

  // The node (T < count <= S, T < max_window) from buf.at(depth) into the output. Inlined: as a
  // call, ptxas left it fewer registers in the task loop than in the level loop+finish's kernel, and it spilled.
  __device__ __forceinline__ static void run(storage& s, const node& nd, const buffers& buf, const leaf_out& out,
                                             std::uint32_t t)
  {
    const int d           = depth_of(nd.code);
    const int hi          = 3 * (max_depth - d);
    const std::uint32_t n = nd.count;
    const float4* src     = buf.at(d);
#pragma unroll
    for (int j = 0; j < items; ++j)
    {
      const std::uint32_t i = j * Threads + threadIdx.x;
      if (i < n)
      {
        s.particle[i] = src[nd.begin + i];
      }
    }
    int digits = 1; // log8(n / T), + 1
    for (std::uint32_t c = t; c < n; c *= 8)
    {
      ++digits;
    }
    digits = min(digits, min(hi / 3, 10));
    sorted_view<std::uint64_t> view{d, nd.code, hi, hi - 3 * digits};
    __syncthreads();
    if (n <= Threads * small_items)
    {
      sort_and_windows<small_items>(s, view, n, t);
    }
    else
    {
      sort_and_windows<items>(s, view, n, t);
    }
    // The largest window over each key: its leaf's depth, into `common` once all are read; the
    // particles in sorted order to the output.
    window_max<Threads, spans>(s.u.tree.common, n + t, t + 1);
    std::uint8_t dep[items];
#pragma unroll
    for (int j = 0; j < items; ++j)
    {
      const std::uint32_t i = j * Threads + threadIdx.x;
      bool unused           = false;
      dep[j]                = i < n ? static_cast<std::uint8_t>(view.depth(s.u.tree.common[i] - 1, unused)) : 0;
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
      s.leaf_base         = atomicAdd(out.count, total);
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

} // namespace octree
