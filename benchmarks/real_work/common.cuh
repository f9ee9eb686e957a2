// benchmarks/real_work/common.cuh: what the real-workload benchmark's workloads share.
//
// - Counter-based random numbers (a splitmix64 hash of a seed and an index): every input is a pure
//   function of fixed seeds and its index, the same on the host and the device, whatever the
//   thread count or order that generates it.
// - Floating-point arithmetic through round-to-nearest intrinsics (__fma_rn, __dmul_rn, ...). nvcc
//   contracts a * b + c into an FMA where it sees fit, and where the functor is inlined into
//   different kernels (CUB's unrolled two items per thread, ptxw's walk) a hoisted or shared product
//   could be contracted in one and not the other; the intrinsics are never contracted or
//   reordered, so every contender computes every output bit for bit the same.
// - The exactly-once encoding: each functor adds its result to an output that is zeroed (or
//   restored) before every call, `out[i] += value` with value never 0. An index that is skipped
//   keeps its old value, one that runs twice has twice the value; both differ from CUB's output.
#pragma once

#include <cstdint>

#if defined(__CUDA_ARCH__)
#  define RW_DEVICE_ONLY(device, host) device
#else
#  define RW_DEVICE_ONLY(device, host) host
#endif

namespace real_work {

__host__ __device__ inline std::uint64_t mix64(std::uint64_t x)
{
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// The i-th random 64-bit word of stream `seed`.
__host__ __device__ inline std::uint64_t hash64(std::uint64_t seed, std::uint64_t i)
{
  return mix64(mix64(seed) ^ (i * 0xd1b54a32d192ed03ull));
}

// Uniform in [0, 1): 53 bits as a double, 24 bits as a float (exact conversions, no rounding).
__host__ __device__ inline double unit_double(std::uint64_t h)
{
  return static_cast<double>(h >> 11) * 0x1.0p-53;
}
__host__ __device__ inline float unit_float(std::uint64_t h)
{
  return static_cast<float>(static_cast<std::uint32_t>(h >> 40)) * 0x1.0p-24f;
}

// Round-to-nearest arithmetic that the compiler neither contracts nor reorders (see above). The
// host's forms are for the CPU self-test and the work estimates, which need no bitwise equality.
// One table: name, type, the device's intrinsic, the host's operator.
#define RW_ROUNDED(name, T, intrinsic, op)                                                                            \
  __host__ __device__ inline T name(T a, T b)                                                                          \
  {                                                                                                                    \
    return RW_DEVICE_ONLY(intrinsic(a, b), a op b);                                                                    \
  }
RW_ROUNDED(dmul, double, __dmul_rn, *)
RW_ROUNDED(dadd, double, __dadd_rn, +)
RW_ROUNDED(dsub, double, __dsub_rn, -)
RW_ROUNDED(fmul, float, __fmul_rn, *)
RW_ROUNDED(fadd, float, __fadd_rn, +)
RW_ROUNDED(fsub, float, __fsub_rn, -)
RW_ROUNDED(fdiv, float, __fdiv_rn, /)
#undef RW_ROUNDED

__host__ __device__ inline double dfma(double a, double b, double c)
{
  return RW_DEVICE_ONLY(__fma_rn(a, b, c), a * b + c);
}
__host__ __device__ inline float ffma(float a, float b, float c)
{
  return RW_DEVICE_ONLY(__fmaf_rn(a, b, c), a * b + c);
}
__host__ __device__ inline float fsqrt(float a)
{
  return RW_DEVICE_ONLY(__fsqrt_rn(a), __builtin_sqrtf(a));
}

// What a workload tells the harness about one size (n indices), for the tables and the estimate.
struct size_info
{
  unsigned long long bytes = 0; // bytes one call must move at least (0: no memory bound given)
  double work              = 0; // the workload's unit of work in total (iterations, nonzeros, ...)
  double longest           = 0; // the most work of one index
};

} // namespace real_work
