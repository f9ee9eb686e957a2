// examples/octree/morton.h: where a particle lies in the octree, shared by the host reference and
// every builder so that all of them split at exactly the same places. A coordinate is quantised to
// 21 bits (x * 2^21 truncated: exact, the same on host and device); a node at depth d splits on bit
// 20 - d of each coordinate; the 63-bit Morton key interleaves the three (x highest). A node is
// named by its locational code: its key prefix with a sentinel bit above it, so (depth, prefix) fit
// one 64-bit word and the root is 1.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace octree
{

inline constexpr int max_depth = 21; // 63-bit keys: a node at depth 21 is one cell and cannot split

// One leaf of a builder's output: particles out[begin, begin + count) (count > T only at max_depth).
struct leaf
{
  std::uint64_t code;
  std::uint32_t begin, count;
};

// A node to split, as the builders pass it around: a range of the particle buffer of its depth.
struct node
{
  std::uint64_t code;
  std::uint32_t begin, count;
};

__host__ __device__ inline std::uint32_t quantize(float f)
{
  // f in [0, 1] (validated input); 1.0 and anything rounding to 2^21 belong to the last cell.
  const float s = f * 2097152.0f;
  const std::uint32_t q = s <= 0.0f ? 0u : static_cast<std::uint32_t>(s);
  return q > 2097151u ? 2097151u : q;
}

__host__ __device__ inline std::uint64_t spread21(std::uint64_t x)
{
  x &= 0x1fffff;
  x = (x | x << 32) & 0x1f00000000ffffull;
  x = (x | x << 16) & 0x1f0000ff0000ffull;
  x = (x | x << 8) & 0x100f00f00f00f00full;
  x = (x | x << 4) & 0x10c30c30c30c30c3ull;
  x = (x | x << 2) & 0x1249249249249249ull;
  return x;
}

__host__ __device__ inline std::uint64_t key63(float4 p)
{
  return spread21(quantize(p.x)) << 2 | spread21(quantize(p.y)) << 1 | spread21(quantize(p.z));
}

// The top 10 digits of key63 (depth <= 10 suffices): the same prefixes, half the sort.
__host__ __device__ inline std::uint32_t key30(float4 p)
{
  return static_cast<std::uint32_t>(key63(p) >> 33);
}

// The `Levels` digits below a node at `depth` (bucket in [0, 8^Levels), the nearer digit higher):
// which descendant `Levels` levels down the particle falls in. Digits past max_depth read as 0, so
// a split near the cap puts a cell's particles in one bucket.
template <int Levels>
__host__ __device__ inline int bucket(float4 p, int depth)
{
  const std::uint32_t x = quantize(p.x), y = quantize(p.y), z = quantize(p.z);
  int b = 0;
#pragma unroll
  for (int j = 0; j < Levels; ++j)
  {
    const int s = 20 - depth - j;
    b           = b << 3 | (s < 0 ? 0 : static_cast<int>((x >> s & 1) << 2 | (y >> s & 1) << 1 | (z >> s & 1)));
  }
  return b;
}

// Which child of a node at `depth` the particle falls in (the key's digit at depth + 1).
__host__ __device__ inline int octant(float4 p, int depth)
{
  return bucket<1>(p, depth);
}

__host__ __device__ inline std::uint64_t code_of(std::uint64_t key63, int depth)
{
  return key63 >> 3 * (max_depth - depth) | std::uint64_t{1} << 3 * depth;
}

__host__ __device__ inline std::uint64_t child_code(std::uint64_t code, int oct)
{
  return code << 3 | static_cast<std::uint64_t>(oct);
}

__host__ __device__ inline int depth_of(std::uint64_t code)
{
#ifdef __CUDA_ARCH__
  return (63 - __clzll(static_cast<long long>(code))) / 3;
#else
  return (63 - __builtin_clzll(code)) / 3;
#endif
}

// The particle's id, carried in w (a user would carry a mass there: the same 16 bytes move).
__host__ __device__ inline std::uint32_t id_of(float4 p)
{
#ifdef __CUDA_ARCH__
  return static_cast<std::uint32_t>(__float_as_uint(p.w));
#else
  std::uint32_t u;
  __builtin_memcpy(&u, &p.w, 4);
  return u;
#endif
}

} // namespace octree
