// examples/octree/tile.h: one block splitting a tile of a node's particles 8^Levels ways (the
// node's descendants Levels levels down) -- the step every partition-based builder repeats
// (level-synchronous tiles, the dynamic builder's chunks and one-block nodes). A tile is at most
// Threads x Items particles, loaded striped (coalesced). A particle's rank in its bucket is the
// return of one shared atomic (not stable: the leaf set does not depend on the order inside a
// leaf; a warp's match of equal buckets and one atomic by its lowest lane cost more, the match
// stalling each warp for longer than the atomics it saves); a scatter of several levels stores
// the tile from shared memory in bucket order, so that a warp's stores are runs. A scatter may also
// store each particle's bucket in the next split (`ahead`, 8^Levels ways at depth + Levels), and a
// count read those instead of the particles.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "morton.h"

namespace octree
{

// Buckets of a split of `levels` levels.
__host__ __device__ constexpr int buckets_of(int levels)
{
  return levels == 0 ? 1 : 8 * buckets_of(levels - 1);
}

template <int Threads, int Items, int Levels = 1>
struct tile_split
{
  static constexpr int size    = Threads * Items;
  static constexpr int buckets = buckets_of(Levels);
  static_assert(buckets <= 65536, "a bucket ahead is 16 bits");

  struct storage
  {
    std::uint32_t count[buckets], base[buckets], run[buckets], group[(buckets + 31) / 32];
  };

  // One thread: each bucket's first position (a node's particles from `begin`, in bucket order);
  // count(o) reads bucket o's count, before cursors[o] is written (they may be the same word).
  template <class Count>
  __device__ static void cursors(Count count, std::uint32_t* cursors, std::uint32_t begin)
  {
    for (int o = 0; o < buckets; ++o)
    {
      const std::uint32_t c = count(o);
      cursors[o]            = begin;
      begin += c;
    }
  }

  // The particles of thread `rank` of `Width` in the tile src[begin, begin + min(n, Width x Items)),
  // all loads issued before any is used: the ranking's shared atomic would otherwise hold each load
  // until the one before was ranked -- one load in flight a thread, about half the copy's bandwidth.
  template <int Width = Threads>
  __device__ static void load(float4 (&v)[Items], const float4* src, std::uint32_t begin, std::uint32_t n, unsigned rank)
  {
#pragma unroll
    for (int k = 0; k < Items; ++k)
    {
      const std::uint32_t i = k * Width + rank;
      if (i < n)
      {
        v[k] = src[begin + i];
      }
    }
  }

  // Bucket counts of src[begin, begin + n) (any n, block-strided) added to `counts` (shared or
  // global, zeroed by the caller): per tile into shared memory first (zero, count_tile), then an
  // atomic a bucket (flush).
  __device__ static void count(storage& s, const float4* src, const std::uint16_t* ahead, std::uint32_t begin,
                               std::uint32_t n, int depth, std::uint32_t* counts)
  {
    zero(s);
    for (std::uint32_t t = 0; t < n; t += size)
    {
      count_tile(s, src, ahead, begin + t, n - t, depth);
    }
    flush(s, counts);
  }

  __device__ static void zero(storage& s)
  {
    for (int o = threadIdx.x; o < buckets; o += Threads)
    {
      s.count[o] = 0;
    }
    __syncthreads();
  }

  // The tile src[begin, begin + min(n, Width x Items)) added to s.count, by the block (Width =
  // Threads) or by one warp (Width = 32, rank = its lane): the buckets read from `ahead` where the
  // scatter that moved the particles wrote them, from the particles otherwise.
  template <int Width = Threads>
  __device__ static void count_tile(storage& s, const float4* src, const std::uint16_t* ahead, std::uint32_t begin,
                                    std::uint32_t n, int depth, unsigned rank = threadIdx.x)
  {
    if (ahead != nullptr)
    {
      std::uint16_t o[Items];
#pragma unroll
      for (int k = 0; k < Items; ++k)
      {
        const std::uint32_t i = k * Width + rank;
        o[k]                  = i < n ? ahead[begin + i] : static_cast<std::uint16_t>(buckets);
      }
#pragma unroll
      for (int k = 0; k < Items; ++k) // no ranks: one shared atomic a particle
      {
        if (o[k] < buckets)
        {
          atomicAdd(&s.count[o[k]], 1u);
        }
      }
      return;
    }
    float4 v[Items];
    load<Width>(v, src, begin, n, rank);
#pragma unroll
    for (int k = 0; k < Items; ++k)
    {
      if (k * Width + rank < n)
      {
        atomicAdd(&s.count[bucket<Levels>(v[k], depth)], 1u);
      }
    }
  }

  __device__ static void flush(const storage& s, std::uint32_t* counts)
  {
    __syncthreads();
    for (int o = threadIdx.x; o < buckets; o += Threads)
    {
      if (s.count[o] != 0)
      {
        atomicAdd(&counts[o], s.count[o]);
      }
    }
  }

  // Moves src[begin, begin + min(n, size)) to dst (and each particle's bucket in the next split
  // to ahead, unless nullptr): the block reserves each bucket's run with one atomic on `cursor[o]`
  // (absolute positions; shared or global); where `staged`, it gathers the tile in bucket order in
  // `stage` (shared, `stage_bytes`: each particle, then its buckets in this split and the next,
  // computed once from registers) and stores it from there, consecutive threads to consecutive
  // places of a run. Stored straight from registers, a warp's 32 particles would go to up to 32
  // runs, a request each.
  __device__ static void scatter(storage& s, float4* stage, const float4* src, float4* dst, std::uint16_t* ahead,
                                 std::uint32_t begin, std::uint32_t n, int depth, std::uint32_t* cursor)
  {
    for (int o = threadIdx.x; o < buckets; o += Threads)
    {
      s.count[o] = 0;
    }
    __syncthreads();
    float4 v[Items];
    std::uint32_t both[Items]; // both_buckets (none: buckets << 3 Levels, whose split_of is buckets)
    std::uint32_t r[Items];
    load(v, src, begin, n, threadIdx.x);
#pragma unroll
    for (int k = 0; k < Items; ++k)
    {
      both[k] = k * Threads + threadIdx.x < n ? both_buckets(v[k], depth)
                                              : static_cast<std::uint32_t>(buckets) << 3 * Levels;
      const std::uint32_t o = split_of(both[k]);
      r[k]                  = o < buckets ? atomicAdd(&s.count[o], 1u) : 0u;
    }
    __syncthreads();
    if constexpr (staged)
    {
      std::uint32_t* const stage_both = reinterpret_cast<std::uint32_t*>(stage + size);
      runs(s, cursor);
#pragma unroll
      for (int k = 0; k < Items; ++k)
      {
        const std::uint32_t o = split_of(both[k]);
        if (o < buckets)
        {
          stage[s.run[o] + r[k]]      = v[k];
          stage_both[s.run[o] + r[k]] = both[k];
        }
      }
      __syncthreads();
      for (std::uint32_t i = threadIdx.x; i < min(n, static_cast<std::uint32_t>(size)); i += Threads)
      {
        const std::uint32_t b  = stage_both[i];
        const std::uint32_t at = s.base[split_of(b)] + i;
        dst[at]                = stage[i];
        if (ahead != nullptr)
        {
          ahead[at] = next_of(b);
        }
      }
    }
    else
    {
      for (int b = threadIdx.x; b < buckets; b += Threads)
      {
        s.base[b] = s.count[b] != 0 ? atomicAdd(&cursor[b], s.count[b]) : 0;
      }
      __syncthreads();
#pragma unroll
      for (int k = 0; k < Items; ++k)
      {
        const std::uint32_t o = split_of(both[k]);
        if (o < buckets)
        {
          dst[s.base[o] + r[k]] = v[k];
          if (ahead != nullptr)
          {
            ahead[s.base[o] + r[k]] = next_of(both[k]);
          }
        }
      }
    }
    __syncthreads(); // s and stage are reused by the next tile
  }

  // Whether scatter() goes through the stage: a split of one level stores a warp's particles in at
  // most 8 runs from registers, and the stage's barriers and scan would cost more than they save.
  static constexpr bool staged             = Levels > 1;
  // The stage: the tile's particles, then each one's both_buckets at the same place.
  static constexpr std::size_t stage_bytes = staged ? size * (sizeof(float4) + sizeof(std::uint32_t)) : 0;

private:
  // A particle's buckets in this split and the next one (bucket<2 Levels>: this split's digits first).
  __device__ static std::uint32_t both_buckets(float4 p, int depth)
  {
    return static_cast<std::uint32_t>(bucket<2 * Levels>(p, depth));
  }
  __device__ static std::uint32_t split_of(std::uint32_t both)
  {
    return both >> 3 * Levels;
  }
  __device__ static std::uint16_t next_of(std::uint32_t both)
  {
    return static_cast<std::uint16_t>(both & (buckets - 1));
  }

  // Every thread, the tile's counts in s.count: s.run[o] = bucket o's first place in the stage (an
  // exclusive scan, by warps of 32 buckets, then the warps' totals), s.base[o] = its run in dst
  // less s.run[o] (one atomic a bucket), so that stage place i of bucket o goes to s.base[o] + i.
  __device__ static void runs(storage& s, std::uint32_t* cursor)
  {
    const unsigned lane = threadIdx.x & 31;
    for (int first = 0; first < buckets; first += Threads)
    {
      const int o           = first + static_cast<int>(threadIdx.x);
      const std::uint32_t c = o < buckets ? s.count[o] : 0;
      std::uint32_t sum     = c; // inclusive, over the warp's buckets
#pragma unroll
      for (int d = 1; d < 32; d *= 2)
      {
        const std::uint32_t x = __shfl_up_sync(~0u, sum, d);
        sum += lane >= static_cast<unsigned>(d) ? x : 0;
      }
      if (o < buckets)
      {
        s.run[o]  = sum - c;
        s.base[o] = c != 0 ? atomicAdd(&cursor[o], c) : 0;
        if (lane == 31 || o == buckets - 1)
        {
          s.group[o / 32] = sum;
        }
      }
    }
    __syncthreads();
    for (int o = threadIdx.x; o < buckets; o += Threads)
    {
      std::uint32_t before = 0;
      for (int g = 0; g < o / 32; ++g)
      {
        before += s.group[g];
      }
      s.run[o] += before;
      s.base[o] -= s.run[o];
    }
    __syncthreads();
  }
};

} // namespace octree
