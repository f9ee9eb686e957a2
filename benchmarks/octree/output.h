// benchmarks/octree/output.h: where every device builder reads and writes. Particles ping-pong
// between two buffers by depth (a node at depth d lives in at(d): the input at depth 0, then a, b,
// a, ...), so a node needs no flag saying where it is; leaves end in `a`, which is the output:
// a leaf found in `b` or the input is copied there. Leaves are appended with one atomic per block
// (a single counter taking one atomic per leaf would cost ~1.5 ms for the 2 M leaves of 10^7, T = 16).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "morton.h"

namespace ptxw_bench::octree
{

struct buffers
{
  const float4* in;
  float4* a; // the output
  float4* b;

  __device__ const float4* at(int depth) const
  {
    return depth == 0 ? in : (depth & 1) ? a : b;
  }
  __device__ float4* dst(int depth) const // where the children of a node at `depth` go
  {
    return (depth & 1) ? b : a;
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

} // namespace ptxw_bench::octree
