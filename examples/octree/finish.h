// examples/octree/finish.h: one block finishes a node of at most S = 4096 particles in shared
// memory: its whole subtree in one task, with no further pushes or levels. The node is read once
// into shared memory; the block orders its particles by the digits below the node's prefix, reads
// the leaves off that order, writes the particles in leaf order to the output (from shared memory:
// safe where the node already lies in the output buffer) and appends its leaves with one atomic.
// The digits first taken are those a node of n particles needs if spread evenly (log8(n / T), one
// more for margin). Up to four of them (8^4 = S buckets) are a counting sort: one histogram with
// shared atomics, its scan, each particle to its bucket's place, and a leaf is the shallowest
// ancestor of a bucket holding at most T, read off the scan (a group of buckets is a range of it).
// Where more digits are needed (small T), or where a bucket holds more than T (a dense node), the
// block sorts keys (cub::BlockRadixSort) on all the digits below the node (64-bit keys) where the
// counting sort found they do not decide, on the first ones (32-bit keys) otherwise, and reads
// the leaves by the window rule (sorted_leaves.h, windows by window_max.h). A node of at most S / 4
// particles sorts S / 4 keys there (the padding would cost as much as the keys).
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
  // The counting sort's digits: a bucket for each of S particles at most.
  static constexpr int count_digits            = 4;
  static constexpr std::uint32_t count_buckets = 1u << 3 * count_digits;
  static_assert(count_buckets == finish_size, "the buckets' scan takes `items` counters a thread");
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
      struct
      {
        std::uint32_t start[count_buckets + 1]; // bucket b's first place in the order; start[S] = n
        std::uint16_t bucket[finish_size]; // a place's bucket
        std::uint16_t val[finish_size]; // a place's particle (index in the node)
      } counted;
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

  // The node's leaves, from flags of their first places in blocked order (thread x: places
  // x * items ..), numbered by a block scan, with one atomic for the node: number(pos, total) by
  // every thread before the barrier, leaf_at(j, place, pos) for each flagged place after it.
  template <class Number, class LeafAt>
  __device__ static void append(storage& s, const leaf_out& out, std::uint32_t (&flag)[items], Number number,
                                LeafAt leaf_at)
  {
    std::uint32_t pos[items], total;
    scan(s.scan).ExclusiveSum(flag, pos, total);
    if (threadIdx.x == 0)
    {
      s.leaf_base = atomicAdd(out.count, total);
    }
    number(pos, total);
    __syncthreads();
#pragma unroll
    for (int j = 0; j < items; ++j)
    {
      if (flag[j])
      {
        out.leaves[s.leaf_base + pos[j]] = leaf_at(j, threadIdx.x * items + j, pos[j]);
      }
    }
    __syncthreads(); // s is reused by the block's next node
  }

  // The counting sort on the view's digits (at most count_digits): the histogram of the buckets,
  // with each particle's rank in its bucket from its atomic; the scan; each particle to its place.
  // Whether a bucket holds more than t particles where the tree goes deeper (the digits do not decide).
  __device__ static bool count_sort(storage& s, const sorted_view<std::uint64_t>& view, std::uint32_t n, std::uint32_t t)
  {
    auto& c = s.u.counted;
    for (std::uint32_t b = threadIdx.x; b < count_buckets; b += Threads)
    {
      c.start[b] = 0;
    }
    if (threadIdx.x == 0)
    {
      c.start[count_buckets] = n;
    }
    __syncthreads();
    std::uint32_t placed[items]; // bucket | rank in the bucket << 16
    // The view's digits are the first of count_digits below the node (bucket(): the bits it needs, not
    // the whole key).
    const int drop = 3 * (count_digits - view.digits());
#pragma unroll
    for (int j = 0; j < items; ++j)
    {
      const std::uint32_t i = j * Threads + threadIdx.x;
      if (i < n)
      {
        const std::uint32_t b = static_cast<std::uint32_t>(bucket<count_digits>(s.particle[i], view.base)) >> drop;
        placed[j]             = b | atomicAdd(&c.start[b], 1u) << 16;
      }
    }
    __syncthreads();
    std::uint32_t h[items];
    bool deeper = false;
#pragma unroll
    for (int k = 0; k < items; ++k)
    {
      h[k] = c.start[threadIdx.x * items + k];
      deeper |= h[k] > t;
    }
    scan(s.scan).ExclusiveSum(h, h); // its barrier: every count is read before a start is written
#pragma unroll
    for (int k = 0; k < items; ++k)
    {
      c.start[threadIdx.x * items + k] = h[k];
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < items; ++j)
    {
      const std::uint32_t i = j * Threads + threadIdx.x;
      if (i < n)
      {
        const std::uint32_t b = placed[j] & 0xffff, p = c.start[b] + (placed[j] >> 16);
        c.bucket[p]           = static_cast<std::uint16_t>(b);
        c.val[p]              = static_cast<std::uint16_t>(i);
      }
    }
    return __syncthreads_or(deeper && view.lo > 0);
  }

  // After count_sort: the particles in their order to the output, and the leaves: a place's leaf is
  // its bucket's shallowest ancestor of at most t particles (k digits below the node; at the view's
  // last digit, whatever its count: count_sort said the tree stops there).
  __device__ static void counted_leaves(storage& s, const sorted_view<std::uint64_t>& view, const node& nd,
                                        const buffers& buf, const leaf_out& out, std::uint32_t n, std::uint32_t t)
  {
    const auto& c = s.u.counted;
#pragma unroll
    for (int j = 0; j < items; ++j)
    {
      const std::uint32_t i = j * Threads + threadIdx.x;
      if (i < n)
      {
        buf.a[nd.begin + i] = s.particle[c.val[i]];
      }
    }
    const int digits = view.digits();
    std::uint32_t flag[items];
    std::uint8_t below[items]; // the leaf's digits below the node
#pragma unroll
    for (int j = 0; j < items; ++j)
    {
      const std::uint32_t i = threadIdx.x * items + j;
      flag[j]               = 0;
      below[j]              = 0;
      if (i < n)
      {
        const std::uint32_t b = c.bucket[i];
        int k = 1, shift = 3 * (digits - 1);
        for (; k < digits && c.start[((b >> shift) + 1) << shift] - c.start[(b >> shift) << shift] > t; ++k)
        {
          shift -= 3;
        }
        flag[j]  = c.start[(b >> shift) << shift] == i;
        below[j] = static_cast<std::uint8_t>(k);
      }
    }
    append(s, out, flag, [](const std::uint32_t(&)[items], std::uint32_t) {},
           [&](int j, std::uint32_t i, std::uint32_t) {
             const std::uint32_t b = c.bucket[i];
             const int shift       = 3 * (digits - below[j]);
             return leaf{view.code(static_cast<std::uint64_t>(b) << view.lo, view.base + below[j]), nd.begin + i,
                         c.start[((b >> shift) + 1) << shift] - i};
           });
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
  // those did not decide; all at once where the counting sort found that they do not.
  template <int Items>
  __device__ static void sort_and_windows(storage& s, sorted_view<std::uint64_t>& view, std::uint32_t n, std::uint32_t t,
                                          bool all)
  {
    if (all || (sort_and_window<std::uint32_t, Items>(s, view, n, t) && view.lo > 0))
    {
      view.lo = 0;
      (void) sort_and_window<std::uint64_t, Items>(s, view, n, t);
    }
  }

  // After count_sort found a bucket of more than t (all), or for more digits than it takes: the
  // keys sorted, the particles in sorted order to the output, the leaves by the window rule.
  __device__ static void window_leaves(storage& s, sorted_view<std::uint64_t>& view, const node& nd, const buffers& buf,
                                       const leaf_out& out, std::uint32_t n, std::uint32_t t, bool all)
  {
    if (n <= Threads * small_items)
    {
      sort_and_windows<small_items>(s, view, n, t, all);
    }
    else
    {
      sort_and_windows<items>(s, view, n, t, all);
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
    std::uint32_t flag[items];
#pragma unroll
    for (int j = 0; j < items; ++j)
    {
      const std::uint32_t i = threadIdx.x * items + j;
      const int di          = i < n ? s.u.tree.common[i] : 0;
      flag[j]               = i < n && (i == 0 || di != s.u.tree.common[i - 1] ||
                                        !view.same_node(s.u.tree.key[i], s.u.tree.key[i - 1], di));
    }
    // Each leaf's first place at its number (val is free once the particles are out), n after the last.
    append(
      s, out, flag,
      [&](const std::uint32_t(&pos)[items], std::uint32_t total) {
        if (threadIdx.x == 0)
        {
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
      },
      [&](int, std::uint32_t i, std::uint32_t pos) {
        return leaf{view.code(s.u.tree.key[i], s.u.tree.common[i]), nd.begin + i,
                    static_cast<std::uint32_t>(s.u.tree.val[pos + 1]) - i};
      });
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
    bool all = false;
    if (digits <= count_digits)
    {
      all = count_sort(s, view, n, t);
      if (!all)
      {
        counted_leaves(s, view, nd, buf, out, n, t);
        return;
      }
    }
    window_leaves(s, view, nd, buf, out, n, t, all);
  }
};

} // namespace octree
