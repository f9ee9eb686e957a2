// benchmarks/real_work/saxpy.cuh: a memory-bound map, y[i] = a * x[i] + y[i] in float, in place.
//
// 12 bytes a index and one FMA: the time is the memory's, every schedule moves the same bytes, and
// there is nothing for work stealing to even out. The aim is parity. In place, a skipped index
// keeps y[i] and a repeated one adds a * x[i] twice (x and y in [1, 2), a = 0.75: a * x[i] is never
// lost in rounding), so the update is its own exactly-once check; y is restored before each call.
// The bound is 12 bytes a index over the copy bandwidth measured in the same run.
#pragma once

#include <cstdio>
#include <string>

#include "buffers.cuh"
#include "common.cuh"

namespace real_work {

struct saxpy_op
{
  float a;
  const float* x;
  float* y;
  __device__ void operator()(int i) const
  {
    y[i] = ffma(a, x[i], y[i]);
  }
};

struct saxpy_fill
{
  float* x;
  float* y;
  __device__ void operator()(int i) const
  {
    x[i] = 1.0f + unit_float(hash64(0x5eed0010, static_cast<std::uint64_t>(i)));
    y[i] = 1.0f + unit_float(hash64(0x5eed0011, static_cast<std::uint64_t>(i)));
  }
};

class saxpy_workload
{
  int n_ = 0;
  device_array<float> x_, y_, y0_;

public:
  using op_type  = saxpy_op;
  using out_type = float;

  std::string name() const
  {
    return "saxpy";
  }
  std::string title() const
  {
    return "saxpy, y = 0.75 x + y in float, in place (memory-bound: the aim is parity)";
  }
  int max_log2n() const
  {
    return 26;
  }
  void prepare(int log2n)
  {
    n_ = 1 << log2n;
    x_.reserve(n_);
    y_.reserve(n_);
    y0_.reserve(n_);
    generate(n_, saxpy_fill{x_.get(), y0_.get()});
    PTXW_BENCH_CHECK(cudaDeviceSynchronize());
  }
  op_type op() const
  {
    return {0.75f, x_.get(), y_.get()};
  }
  void reset()
  {
    PTXW_BENCH_CHECK(cudaMemcpyAsync(y_.get(), y0_.get(), n_ * sizeof(float), cudaMemcpyDeviceToDevice));
  }
  out_type* out() const
  {
    return y_.get();
  }
  size_info info() const
  {
    size_info s;
    s.bytes = 12ull * n_;
    s.work  = n_;
    return s;
  }
  std::string stats(const float*) const
  {
    char b[64];
    std::snprintf(b, sizeof b, "%.1f MB moved a call", 12.0 * n_ / 1e6);
    return b;
  }
  void release()
  {
    x_.release(), y_.release(), y0_.release();
  }
};

} // namespace real_work
