// examples/octree/output.h: where every device builder reads and writes. Particles ping-pong
// between two buffers, one move a split: a split takes `levels` levels of the tree at once, so a
// node at depth d was last moved by the split of pass ceil(d / levels) and lives in at(d): the
// input at pass 0, then a, b, a, ... (a node needs no flag saying where it is, and every
// descendant a split makes, at any of its levels, lands in the same buffer). Leaves end in `a`,
// which is the output: a leaf found in `b` or the input is copied there. Leaves are appended with
// one atomic per block (a single counter taking one atomic per leaf would cost ~1.5 ms for the
// 2 M leaves of 10^7, T = 16). Beside each buffer, each particle's bucket in the split of the node
// it lies in (`ahead`), written by the split that moved it there: a split's count reads 2 bytes a
// particle instead of 16 (the input has none: the root's count reads the particles).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "morton.h"

namespace octree
{

// Where a split reads (a node's particles and their buckets, ahead: nullptr where none were
// written) and writes (the descendants' particles and their buckets in the next split).
struct split_io
{
  const float4* src;
  const std::uint16_t* ahead;
  float4* dst;
  std::uint16_t* ahead_dst;
};

struct buffers
{
  const float4* in;
  float4* a; // the output
  float4* b;
  std::int64_t levels = 1; // tree levels a split takes (the builder's); 64-bit: no padding in the
                           // kernel arguments that the level graph compares byte for byte
  std::uint16_t* ahead_a = nullptr; // beside a and b; nullptr: every count reads the particles
  std::uint16_t* ahead_b = nullptr;

  __device__ int pass(int depth) const
  {
    const int l = static_cast<int>(levels);
    return (depth + l - 1) / l;
  }
  __device__ const float4* at(int depth) const
  {
    const int p = pass(depth);
    return p == 0 ? in : (p & 1) ? a : b;
  }
  __device__ float4* dst(int depth) const // where the descendants of a node split at `depth` go
  {
    return const_cast<float4*>(at(depth + 1));
  }
  __device__ std::uint16_t* ahead_at(int depth) const
  {
    const int p = pass(depth);
    return p == 0 ? nullptr : (p & 1) ? ahead_a : ahead_b;
  }
  __device__ split_io io(int depth) const // a split of a node at `depth`
  {
    return {at(depth), ahead_at(depth), dst(depth), ahead_at(depth + 1)};
  }
};

struct leaf_out
{
  leaf* leaves;
  std::uint32_t* count;
};

// Copies particles [begin, begin + count) of a leaf at `depth` to the output, by `lanes` threads
// (lane in 0..lanes-1); nothing to do where the leaf already lies in the output.
__device__ inline void settle_leaf(const buffers& buf, int depth, std::uint32_t begin, std::uint32_t count, unsigned lane,
                              unsigned lanes)
{
  const float4* from = buf.at(depth);
  if (from == buf.a)
  {
    return;
  }
  for (std::uint32_t i = lane; i < count; i += lanes)
  {
    buf.a[begin + i] = from[begin + i];
  }
}

} // namespace octree
