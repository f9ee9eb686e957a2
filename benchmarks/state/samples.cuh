// benchmarks/state/samples.cuh: the per-CTA-state benchmark's samples (device_state.cu): one hash per
// index, the same on the host (self-test) and the device, generated on the GPU.
#pragma once

#include "../harness.h"

namespace state_work {

__host__ __device__ inline unsigned long long mix(unsigned long long x)
{
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

constexpr unsigned hot_4096 = 17 * 16 + 8; // the skewed float samples' bin: 280 of 4096, 17 of 256
constexpr unsigned hot_byte = 17;

// 90% of skewed samples in the hot bin (the rest uniform, the hot bin among them).
__host__ __device__ inline bool is_hot(unsigned long long h, bool skewed)
{
  return skewed && h % 10 != 0;
}

__host__ __device__ inline unsigned char byte_sample(unsigned long long i, bool skewed)
{
  const unsigned long long h = mix(i ^ (skewed ? 0x5eedull : 0x1234ull));
  return is_hot(h, skewed) ? static_cast<unsigned char>(hot_byte) : static_cast<unsigned char>(h >> 24);
}

// A float in [0, 1) within its bin of 4096, at least 0.19 bin widths from either edge (so any
// rounding of the bin arithmetic, CUB's or ours, gives the same bin, for 4096 bins and for 256).
__host__ __device__ inline unsigned float_bin_4096(unsigned long long i, bool skewed)
{
  const unsigned long long h = mix(i ^ (skewed ? 0xf00dull : 0xabcdull));
  return is_hot(h, skewed) ? hot_4096 : static_cast<unsigned>((h >> 20) % 4096);
}
__host__ __device__ inline float float_sample(unsigned long long i, bool skewed)
{
  const unsigned long long h = mix(i ^ (skewed ? 0xf00dull : 0xabcdull));
  const unsigned b           = is_hot(h, skewed) ? hot_4096 : static_cast<unsigned>((h >> 20) % 4096);
  const double jitter        = (static_cast<double>((h >> 40) & 0xffff) / 65536.0) * 0.6 - 0.3;
  return static_cast<float>((b + 0.5 + jitter) / 4096.0);
}

template <class T>
__global__ void fill_samples(T* out, unsigned long long n, bool skewed)
{
  for (unsigned long long i = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<unsigned long long>(gridDim.x) * blockDim.x)
  {
    if constexpr (sizeof(T) == 1)
    {
      out[i] = byte_sample(i, skewed);
    }
    else
    {
      out[i] = float_sample(i, skewed);
    }
  }
}

// n samples (bytes or floats) into d, grown to hold them.
template <class T>
void generate(ptxw_bench::device_array<T>& d, unsigned long long n, bool skewed)
{
  d.reserve(n);
  fill_samples<<<1024, 256>>>(d.get(), n, skewed);
  PTXW_BENCH_CHECK(cudaGetLastError());
  PTXW_BENCH_CHECK(cudaDeviceSynchronize());
}

} // namespace state_work
