// examples/octree/window_max.h: the largest of every `width` consecutive small values in shared
// memory, by a block, in about log2(width) + 1 steps (doubling spans, then one overlapping pair)
// instead of `width` reads per value. The leaf rule of sorted_leaves.h needs it: a key's leaf depth
// is the largest common prefix of the T + 1 windows that contain it.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace octree
{

// c[i] = max(c[i], c[i + shift]) for i < len (beyond len: 0), read before any is written.
template <int Threads, int PerThread>
__device__ void max_shifted(std::uint8_t* c, int len, int shift)
{
  std::uint8_t r[PerThread];
#pragma unroll
  for (int k = 0; k < PerThread; ++k)
  {
    const int i = k * Threads + threadIdx.x;
    r[k]        = i < len ? max(c[i], i + shift < len ? c[i + shift] : std::uint8_t{0}) : 0;
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < PerThread; ++k)
  {
    const int i = k * Threads + threadIdx.x;
    if (i < len)
    {
      c[i] = r[k];
    }
  }
  __syncthreads();
}

// c[i] = max c[i, i + width) (clipped at len), for len <= Threads * PerThread; every thread.
template <int Threads, int PerThread>
__device__ void window_max(std::uint8_t* c, int len, int width)
{
  __syncthreads();
  int span = 1;
  for (; 2 * span <= width; span *= 2)
  {
    max_shifted<Threads, PerThread>(c, len, span);
  }
  if (span < width)
  {
    max_shifted<Threads, PerThread>(c, len, width - span);
  }
}

} // namespace octree
