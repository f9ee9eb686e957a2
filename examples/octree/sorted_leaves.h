// examples/octree/sorted_leaves.h: the leaves of an octree read off Morton keys in sorted order,
// all at once (Karras 2012 / Cornerstone style), for the sort-based baseline over the whole set and
// for the shared-memory finish of one node.
//
// The rule: a node of depth D holds more than T particles iff some T + 1 consecutive sorted keys
// share its prefix, and consecutive keys j..j+T share a prefix of `common(key[j], key[j + T])`
// digits iff the first and the last do. So the leaf holding key i has depth
//     D_i = base + 1 + max { common(j) : window j = [j, j + T] contains i },
// and i starts a leaf iff i = 0 or D_i != D_{i-1} or keys i - 1 and i differ above depth D_i.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "morton.h"

namespace octree
{

// T + 1 at most: the builders that read leaves off sorted keys keep a tile's windows in shared memory.
inline constexpr std::uint32_t max_window = 256;

// Keys sorted on bits [lo, hi) below the prefix of a node of depth `base` (code `base_code`); the
// digit of depth base + 1 is bits [hi - 3, hi). Bits at and above hi are zero.
template <class Key>
struct sorted_view
{
  int base;
  std::uint64_t base_code;
  int hi, lo;

  __host__ __device__ int digits() const
  {
    return (hi - lo) / 3;
  }
  // Equal leading digits of a and b within the sorted bits.
  __host__ __device__ int common(Key a, Key b) const
  {
    const Key x = static_cast<Key>((a ^ b) >> lo);
    if (x == 0)
    {
      return digits();
    }
#ifdef __CUDA_ARCH__
    const int bits = sizeof(Key) == 8 ? 64 - __clzll(static_cast<long long>(x)) : 32 - __clz(static_cast<int>(x));
#else
    const int bits = sizeof(Key) == 8 ? 64 - __builtin_clzll(x) : 32 - __builtin_clz(static_cast<unsigned>(x));
#endif
    return (hi - lo - bits) / 3;
  }
  // The depth of the leaf whose windows reach `m` common digits at most (m < 0: no window, the
  // node itself is a leaf). deeper: the sorted digits do not decide it (more must be sorted).
  __host__ __device__ int depth(int m, bool& deeper) const
  {
    if (m < 0)
    {
      return base;
    }
    if (m == digits() && base + m < max_depth)
    {
      deeper = true;
    }
    const int d = base + 1 + m;
    return d > max_depth ? max_depth : d;
  }
  __host__ __device__ bool same_node(Key a, Key b, int d) const
  {
    const int shift = hi - 3 * (d - base);
    return shift >= static_cast<int>(8 * sizeof(Key)) || ((a ^ b) >> shift) == 0;
  }
  __host__ __device__ std::uint64_t code(Key key, int d) const
  {
    const int k = d - base;
    return k == 0 ? base_code : base_code << 3 * k | static_cast<std::uint64_t>(key >> (hi - 3 * k));
  }
};

} // namespace octree
