// benchmarks/task_trees/expand.h: the node work every GPU search shares, so that the searches differ
// in how nodes reach a block and in nothing else. A block expands a batch of up to Threads x Items
// parents at once: each thread counts the children of Items parents (uts::children), a block scan
// numbers the batch's children, and then each thread makes children j, j + Threads, ... of the batch
// (uts::child), whichever parents they belong to -- a thread a parent would leave most of a warp
// waiting for the parent with the most children (a geometric tree's counts have mean 4, and the
// largest of a warp's 32 is several times that). And what each search tallies: nodes, leaves and
// depth, as UTS counts them.
#pragma once

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cuda/functional>

#include <cstdint>

#include "trees.h"
#include "uts.h"

namespace task_trees {

// Threads an SM every search's kernel is compiled for (__launch_bounds__(Threads, resident_threads /
// Threads)): 40 registers a thread, about what the level loop and the atomic queue take unbounded. A
// pool kernel takes 48 to 72 unbounded (the owner end's copy of the pool, its registers and counters,
// in every thread), which would leave a third to a half fewer warps to hide the SHA-1's latency. Under
// the bound ptxas spills (ptxas -v) around the pool's calls and the parents' loads, and in the
// deques' kernels one reload a child after the SHA-1 rounds.
inline constexpr int resident_threads = 1536;

// A thread's count of the nodes it expanded.
struct tally
{
  unsigned long long nodes = 0, leaves = 0, depth = 0;

  __device__ void visit(const uts::node& n, std::uint32_t kids)
  {
    ++nodes;
    leaves += kids == 0;
    depth = depth > n.height ? depth : n.height;
  }

  // Every thread of the block together, once: the block's tallies added to *out.
  template <int Threads>
  __device__ void add_to(uts::counts* out) const
  {
    using reduce_t = cub::BlockReduce<unsigned long long, Threads>;
    __shared__ typename reduce_t::TempStorage r;
    const unsigned long long n = reduce_t(r).Sum(nodes);
    __syncthreads();
    const unsigned long long l = reduce_t(r).Sum(leaves);
    __syncthreads();
    const unsigned long long d = reduce_t(r).Reduce(depth, cuda::maximum<>{});
    if (threadIdx.x == 0 && n != 0)
    {
      atomicAdd(&out->nodes, n);
      atomicAdd(&out->leaves, l);
      atomicMax(&out->depth, d);
    }
  }
};

template <int Threads, int Items>
struct block_expand
{
  static constexpr int batch = Threads * Items;
  static_assert((batch & (batch - 1)) == 0, "a power of two: a child's parent is found by halving");
  using scan_t = cub::BlockScan<std::uint32_t, Threads>;

  struct storage
  {
    typename scan_t::TempStorage scan;
    uts::node parents[batch];
    std::uint32_t first[batch + 1]; // parent p's children are the batch's first[p] .. first[p + 1] - 1
  };

  // Every thread together: the batch's parents node(q), q < count (coalesced: thread t loads q = t,
  // t + Threads, ...), each one's children counted (and tallied into t), then numbered by a block
  // scan; returns the batch's number of children.
  template <class Node>
  __device__ static std::uint32_t plan(storage& s, std::uint32_t count, Node&& node, const uts::shape& shape, tally& t)
  {
    std::uint32_t kids[Items], first[Items], total = 0;
#pragma unroll
    for (int i = 0; i < Items; ++i)
    {
      const std::uint32_t q = i * Threads + threadIdx.x, p = threadIdx.x * Items + i; // the scan's order
      kids[i]               = 0;
      if (q < count)
      {
        const uts::node n = node(q);
        s.parents[p]      = n;
        kids[i]           = uts::children(shape, n);
        t.visit(n, kids[i]);
      }
    }
    scan_t(s.scan).ExclusiveSum(kids, first, total);
#pragma unroll
    for (int i = 0; i < Items; ++i)
    {
      s.first[threadIdx.x * Items + i] = first[i];
    }
    closed(s, total);
    return total;
  }

  // After s.first[0 .. batch - 1] are written (a slot without a parent: where the next one's
  // children start): the batch's `total`, behind a barrier.
  __device__ static void closed(storage& s, std::uint32_t total)
  {
    if (threadIdx.x == 0)
    {
      s.first[batch] = total;
    }
    __syncthreads();
  }

  // The parent of the batch's child j < total: the last p with first[p] <= j (it has children).
  __device__ static std::uint32_t parent_of(const storage& s, std::uint32_t j)
  {
    std::uint32_t lo = 0, hi = batch; // first[lo] <= j < first[hi]
#pragma unroll
    for (int step = batch; step > 1; step /= 2)
    {
      const std::uint32_t mid = (lo + hi) / 2;
      (s.first[mid] <= j ? lo : hi) = mid;
    }
    return lo;
  }

  // Every thread, after plan or closed: put(j, child) for its children j of the batch's `total`.
  template <class Put>
  __device__ static void each_child(const storage& s, std::uint32_t total, Put&& put)
  {
    for (std::uint32_t j = threadIdx.x; j < total; j += Threads)
    {
      const std::uint32_t p = parent_of(s, j);
      put(j, uts::child(s.parents[p], j - s.first[p]));
    }
  }
};

} // namespace task_trees
