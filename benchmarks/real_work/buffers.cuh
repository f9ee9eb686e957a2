// benchmarks/real_work/buffers.cuh: the helpers the workloads build their inputs with (on the GPU,
// from common.cuh's counter-based hashes: deterministic whatever the launch, and fast enough for
// 10^9 elements), on the device arrays of ../harness.h.
#pragma once

#include <cub/device/device_for.cuh>

#include <cstddef>
#include <utility>

#include "../harness.h"

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

} // namespace real_work
