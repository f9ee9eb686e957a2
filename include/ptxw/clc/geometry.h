// ptxw/clc/geometry.h: where a CTA sits in its launch, in the units cluster launch control hands
// out (clusters; a launch without clusters has clusters of one CTA), and the 16-byte response that
// names one.
//
// The response has the hardware's encoding on every backend, so one decoder serves them all:
// first ctaid.x in word 0, y | z << 16 in word 1, is_canceled in bit 0 of word 2 (what ptxas 13.0
// makes of clusterlaunchcontrol.query_cancel: LDS.128, then ALU on these words).
#pragma once

#include <ptxw/core/target.h>

PTXW_NAMESPACE_BEGIN
namespace clc::detail {
__host__ __device__ constexpr uint3 to_uint3(dim3 d)
{
  return {d.x, d.y, d.z};
}

// The sm_90 cluster builtins (which the compiler can hoist, unlike inline-asm special-register
// reads). Templates, like everything that needs sm_90, so that including this compiles anywhere.
template <class Deferred = void>
__device__ unsigned cluster_size()
{
  return __clusterSizeInBlocks();
}

template <class Deferred = void>
__device__ unsigned cluster_rank()
{
  return __clusterRelativeBlockRank();
}

template <class Deferred = void>
__device__ uint3 cluster_ctaid()
{
  return to_uint3(__clusterRelativeBlockIdx());
}

template <class Deferred = void>
__device__ uint3 cluster_dims()
{
  return to_uint3(__clusterDim());
}

// The launch, in clusters, and this CTA's cluster in it.
template <class Deferred = void>
__device__ uint3 grid_clusters()
{
  return to_uint3(__clusterGridDimInClusters());
}

template <class Deferred = void>
__device__ uint3 cluster_idx()
{
  return to_uint3(__clusterIdx());
}

__host__ __device__ constexpr unsigned long long volume(uint3 n)
{
  return static_cast<unsigned long long>(n.x) * n.y * n.z;
}

// Index i of a grid of extent n, numbered x fastest, and back.
__host__ __device__ constexpr unsigned long long linear(uint3 i, uint3 n)
{
  return i.x + static_cast<unsigned long long>(n.x) * (i.y + static_cast<unsigned long long>(n.y) * i.z);
}

__host__ __device__ constexpr uint3 unlinear(unsigned long long k, uint3 n)
{
  return {static_cast<unsigned>(k % n.x), static_cast<unsigned>(k / n.x % n.y),
          static_cast<unsigned>(k / n.x / n.y)};
}

// Division by a divisor fixed for a launch, as a multiply and shifts (Granlund and Montgomery):
// the host computes the constants once, the device divides in a few instructions.
struct fast_divisor
{
  ::cuda::std::uint32_t d; // the divisor, >= 1
  ::cuda::std::uint32_t m; // magic multiplier
  ::cuda::std::uint32_t s; // shift: ceil(log2(d))
};

__host__ __device__ constexpr fast_divisor make_fast_divisor(::cuda::std::uint32_t d)
{
  ::cuda::std::uint32_t s = 0;
  while ((1ull << s) < d)
  {
    ++s;
  }
  const unsigned long long m = ((1ull << 32) * ((1ull << s) - d)) / d + 1;
  return {d, static_cast<::cuda::std::uint32_t>(m), s};
}

// n / f.d for every 32-bit n.
__device__ inline ::cuda::std::uint32_t divide(::cuda::std::uint32_t n, fast_divisor f)
{
  const ::cuda::std::uint32_t t = __umulhi(n, f.m);
  return f.s == 0 ? n : (t + ((n - t) >> 1)) >> (f.s - 1);
}

// The response that names no block (the request failed), and one that names `first`.
__host__ __device__ constexpr uint4 failure_response()
{
  return {0u, 0u, 0u, 0u};
}

__host__ __device__ constexpr uint4 canceled_response(uint3 first)
{
  return {first.x, first.y | (first.z << 16), 1u, 0u};
}

__host__ __device__ constexpr bool response_canceled(uint4 r)
{
  return (r.z & 1u) != 0;
}

__host__ __device__ constexpr uint3 response_first(uint4 r)
{
  return {r.x, r.y & 0xffffu, r.y >> 16};
}

} // namespace clc::detail
PTXW_NAMESPACE_END
