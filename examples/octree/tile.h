// examples/octree/tile.h: one block splitting a tile of a node's particles 8^Levels ways (the
// node's descendants Levels levels down) -- the step every partition-based builder repeats
// (level-synchronous tiles, the dynamic builder's chunks and one-block nodes). A tile is at most
// Threads x Items particles, loaded striped (coalesced). Within a warp, particles of one bucket
// are ranked with one match and one shared atomic by the lowest lane (not stable: the leaf set
// does not depend on the order inside a leaf).
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

  struct storage
  {
    std::uint32_t count[buckets], base[buckets];
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

  // Adds one to counter[o] for each particle, by warp: returns the particle's rank among the warp's
  // particles of that bucket before it (its slot when `counter` holds a base). o = buckets: none.
  __device__ static std::uint32_t add(std::uint32_t* counter, int o)
  {
    const unsigned peers  = __match_any_sync(~0u, o);
    const unsigned lane   = threadIdx.x & 31;
    const int leader      = __ffs(peers) - 1;
    std::uint32_t base    = 0;
    if (o < buckets && lane == static_cast<unsigned>(leader))
    {
      base = atomicAdd(&counter[o], __popc(peers));
    }
    base = __shfl_sync(~0u, base, leader);
    return base + __popc(peers & ((1u << lane) - 1));
  }

  // The particles of thread `rank` of `Width` in the tile src[begin, begin + min(n, Width x Items)),
  // all loads issued before any is used: the ranking's match and shared atomic would otherwise hold
  // each load until the one before was ranked -- one load in flight a thread, about half the copy's
  // bandwidth (seen in SASS and in the dynamic builder's timelines on the H100).
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
  __device__ static void count(storage& s, const float4* src, std::uint32_t begin, std::uint32_t n, int depth,
                               std::uint32_t* counts)
  {
    zero(s);
    for (std::uint32_t t = 0; t < n; t += size)
    {
      count_tile(s, src, begin + t, n - t, depth);
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
  // Threads) or by one warp (Width = 32, rank = its lane).
  template <int Width = Threads>
  __device__ static void count_tile(storage& s, const float4* src, std::uint32_t begin, std::uint32_t n, int depth,
                                    unsigned rank = threadIdx.x)
  {
    float4 v[Items];
    load<Width>(v, src, begin, n, rank);
#pragma unroll
    for (int k = 0; k < Items; ++k)
    {
      (void) add(s.count, k * Width + rank < n ? bucket<Levels>(v[k], depth) : buckets);
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

  // Moves src[begin, begin + n), n <= size, to dst: the block reserves each bucket's run with one
  // atomic on `cursor[o]` (absolute positions; shared or global) and places its particles there.
  __device__ static void scatter(storage& s, const float4* src, float4* dst, std::uint32_t begin, std::uint32_t n,
                                 int depth, std::uint32_t* cursor)
  {
    for (int o = threadIdx.x; o < buckets; o += Threads)
    {
      s.count[o] = 0;
    }
    __syncthreads();
    float4 v[Items];
    int o[Items];
    std::uint32_t r[Items];
    load(v, src, begin, n, threadIdx.x);
#pragma unroll
    for (int k = 0; k < Items; ++k)
    {
      o[k] = k * Threads + threadIdx.x < n ? bucket<Levels>(v[k], depth) : buckets;
      r[k] = add(s.count, o[k]);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < buckets; b += Threads)
    {
      s.base[b] = s.count[b] != 0 ? atomicAdd(&cursor[b], s.count[b]) : 0;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < Items; ++k)
    {
      if (o[k] < buckets)
      {
        dst[s.base[o[k]] + r[k]] = v[k];
      }
    }
    __syncthreads(); // s is reused by the next tile
  }
};

} // namespace octree
