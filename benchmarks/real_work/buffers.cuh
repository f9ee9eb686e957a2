// benchmarks/real_work/buffers.cuh: device buffers and the generation helpers the workloads build
// their inputs with (on the GPU, from common.cuh's counter-based hashes: deterministic whatever the
// launch, and fast enough for 10^9 elements).
#pragma once

#include <cub/device/device_for.cuh>

#include <cstddef>
#include <utility>

#include "../check.h"

namespace real_work {

// An owning device array; grows on reserve(), never shrinks until release().
template <class T>
class device_array
{
  T* p_              = nullptr;
  std::size_t count_ = 0;

public:
  device_array() = default;
  device_array(const device_array&) = delete;
  device_array& operator=(const device_array&) = delete;
  ~device_array()
  {
    release();
  }
  void reserve(std::size_t count)
  {
    if (count > count_)
    {
      release();
      PTXW_BENCH_CHECK(cudaMalloc(&p_, count * sizeof(T)));
      count_ = count;
    }
  }
  void release()
  {
    if (p_ != nullptr)
    {
      PTXW_BENCH_CHECK(cudaFree(p_));
    }
    p_     = nullptr;
    count_ = 0;
  }
  T* get() const
  {
    return p_;
  }
  std::size_t capacity() const
  {
    return count_;
  }
};

// f(i) for i in [0, count) on the GPU (inputs, not measured).
template <class Count, class F>
void generate(Count count, F f)
{
  if (count > 0)
  {
    PTXW_BENCH_CHECK(cub::DeviceFor::Bulk(count, f));
  }
}

// CUB's two-phase calls with their scratch from one buffer that grows.
class scratch
{
  device_array<unsigned char> bytes_;

public:
  template <class Call>
  void run(Call call)
  {
    std::size_t need = 0;
    PTXW_BENCH_CHECK(call(static_cast<void*>(nullptr), need));
    bytes_.reserve(need > 0 ? need : 1);
    need = bytes_.capacity();
    PTXW_BENCH_CHECK(call(static_cast<void*>(bytes_.get()), need));
  }
  void release()
  {
    bytes_.release();
  }
};

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
