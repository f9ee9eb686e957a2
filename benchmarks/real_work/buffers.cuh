// benchmarks/real_work/buffers.cuh: the helpers the workloads build their inputs with (on the GPU,
// from common.cuh's counter-based hashes: deterministic whatever the launch, and fast enough for
// 10^9 elements), on the device arrays of ../harness.h.
#pragma once

#include <cub/device/device_for.cuh>

#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>

#include "../harness.h"
#include "common.cuh"

namespace real_work {

using ptxw_bench::device_array;
using ptxw_bench::two_phase;

// f(i) for i in [0, count) on the GPU (inputs, not measured).
template <class Count, class F>
void generate(Count count, F f)
{
  if (count > 0)
  {
    PTXW_BENCH_CHECK(cub::DeviceFor::Bulk(count, f));
  }
}

template <class = void>
__global__ void sum_max_kernel(const unsigned* a, unsigned long long n, unsigned mask,
                                      unsigned long long* sum, unsigned* max)
{
  unsigned long long s = 0;
  unsigned m           = 0;
  for (unsigned long long i = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<unsigned long long>(gridDim.x) * blockDim.x)
  {
    const unsigned v = a[i] & mask;
    s += v;
    m = v > m ? v : m;
  }
  atomicAdd(sum, s);
  atomicMax(max, m);
}

// The sum and the largest of a[i] & mask over n entries (outputs, for the tables' work figures).
struct sum_max
{
  double sum;
  unsigned max;
};
inline sum_max sum_and_max(const unsigned* a, unsigned long long n, unsigned mask = ~0u)
{
  device_array<unsigned long long> s;
  device_array<unsigned> m;
  s.reserve(1);
  m.reserve(1);
  PTXW_BENCH_CHECK(cudaMemset(s.get(), 0, sizeof(unsigned long long)));
  PTXW_BENCH_CHECK(cudaMemset(m.get(), 0, sizeof(unsigned)));
  sum_max_kernel<><<<1024, 256>>>(a, n, mask, s.get(), m.get());
  PTXW_BENCH_CHECK(cudaGetLastError());
  unsigned long long hs = 0;
  sum_max r{};
  PTXW_BENCH_CHECK(cudaMemcpy(&hs, s.get(), sizeof hs, cudaMemcpyDeviceToHost));
  PTXW_BENCH_CHECK(cudaMemcpy(&r.max, m.get(), sizeof r.max, cudaMemcpyDeviceToHost));
  r.sum = static_cast<double>(hs);
  return r;
}

// What the workloads with one count an index (fractals, ray marching, neighbour counts) share: the
// output of n = 2^log2n unsigned, zeroed before every call (common.cuh's exactly-once encoding), and
// no memory bound to state. Each workload names its n in prepare() through prepare_output().
class counts_output
{
protected:
  int log2n_ = 0;
  device_array<unsigned> out_;

  void prepare_output(int log2n)
  {
    log2n_ = log2n;
    out_.reserve(1ull << log2n);
  }

public:
  using out_type = unsigned;

  int max_log2n() const
  {
    return 26;
  }
  void reset()
  {
    PTXW_BENCH_CHECK(cudaMemsetAsync(out_.get(), 0, (1ull << log2n_) * sizeof(unsigned)));
  }
  out_type* out() const
  {
    return out_.get();
  }
  size_info info() const
  {
    return {};
  }
  void release()
  {
    out_.release();
  }
};

// Index i is pixel (i mod W, i / W) of a W x H image of n = 2^log2n pixels, rows from the top.
inline int image_width_log2(int log2n)
{
  return (log2n + 1) / 2;
}

// "W x H pixels, <mean> <what> a pixel, most <max>" from a correct output of an image whose pixels
// hold, in the bits of mask, a count plus one.
inline std::string image_stats(const unsigned* ref, int log2n, const char* what, unsigned mask = ~0u)
{
  const unsigned long long n = 1ull << log2n;
  const sum_max s            = sum_and_max(ref, n, mask);
  const int wl               = image_width_log2(log2n);
  char b[160];
  std::snprintf(b, sizeof b, "%d x %d pixels, %.1f %s a pixel, most %u", 1 << wl, 1 << (log2n - wl), s.sum / n - 1,
                what, s.max - 1);
  return b;
}

} // namespace real_work
