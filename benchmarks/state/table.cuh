// benchmarks/state/table.cuh: the per-CTA-state benchmark's tables (device_state.cu): y = f(x), f
// interpolated in a table each CTA builds in shared memory from a polynomial, the same op for ptxw and
// for the plain launch; a table at one size; and the same f on the CPU.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tally.cuh"

namespace state_work {

// The table's polynomial: coefficient d = cos(d) / (d + 1)^2 (|f| < 1.65 on [0, 1]).
inline std::vector<float> table_coefficients(int degree)
{
  std::vector<float> c(degree + 1);
  for (int d = 0; d <= degree; ++d)
  {
    c[d] = static_cast<float>(std::cos(static_cast<double>(d)) / ((d + 1.0) * (d + 1.0)));
  }
  return c;
}

// y[i] = f(x[i]) for the 4 floats of index i, f interpolated linearly in a table of Entries + 1 knots
// of a polynomial of Degree that each CTA builds in shared memory: the coefficients staged from
// global memory, a barrier, then Horner at each knot.
template <int Entries, int Degree>
struct table_op
{
  struct alignas(16) state
  {
    tally_part tally;
    float c[Degree + 1];
    float t[Entries + 4];
  };
  const float4* x;
  float4* y;
  const float* coefficients;
  unsigned long long* tally;

  __device__ void setup(state& s) const
  {
    zero_shared(&s.tally, sizeof(tally_part));
    for (int d = threadIdx.x; d <= Degree; d += blockDim.x)
    {
      s.c[d] = coefficients[d];
    }
    __syncthreads(); // setup() is called by every thread of the CTA, converged
    for (int k = threadIdx.x; k <= Entries; k += blockDim.x)
    {
      const float u = __fdiv_rn(static_cast<float>(k), static_cast<float>(Entries));
      float r       = s.c[Degree];
#pragma unroll 8
      for (int d = Degree - 1; d >= 0; --d)
      {
        r = fmaf(r, u, s.c[d]);
      }
      s.t[k] = r;
    }
  }
  static __device__ float lookup(const state& s, float v)
  {
    // Rounded operations only (no contraction the compiler might make in one kernel and not in the
    // other): ptxw's and the plain launch's outputs are compared bit for bit.
    const float u = __fmul_rn(fminf(fmaxf(v, 0.0f), 1.0f), static_cast<float>(Entries));
    const int j   = min(static_cast<int>(u), Entries - 1);
    const float f = __fsub_rn(u, static_cast<float>(j));
    const float a = s.t[j];
    return fmaf(f, __fsub_rn(s.t[j + 1], a), a);
  }
  __device__ void operator()(state& s, unsigned long long i) const
  {
    const float4 v = __ldg(x + i);
    y[i]           = make_float4(lookup(s, v.x), lookup(s, v.y), lookup(s, v.z), lookup(s, v.w));
    count_index(s.tally, i);
  }
  __device__ void flush(state& s) const
  {
    flush_tally(s.tally, tally);
  }
};

// The same f on the CPU, in double.
inline double table_cpu(const std::vector<float>& c, int entries, float v)
{
  auto poly = [&](double u) {
    double r = c.back();
    for (int d = static_cast<int>(c.size()) - 2; d >= 0; --d)
    {
      r = r * u + c[d];
    }
    return r;
  };
  const double u = std::min(std::max(static_cast<double>(v), 0.0), 1.0) * entries;
  const int j    = std::min(static_cast<int>(u), entries - 1);
  const double f = u - j;
  const double a = poly(static_cast<double>(j) / entries), b = poly(static_cast<double>(j + 1) / entries);
  return a + f * (b - a);
}

// A table at n elements (4 an index): the op's type, its input, output, reference and coefficients.
template <int Entries, int Degree>
struct table_case
{
  using op_t = table_op<Entries, Degree>;
  std::string name;
  const float* xs;
  float* y;
  float* ref;
  const float* coefficients;
  unsigned long long n;
  unsigned long long indices() const
  {
    return n / 4;
  }
  op_t op(unsigned long long* tally) const
  {
    return {reinterpret_cast<const float4*>(xs), reinterpret_cast<float4*>(y), coefficients, tally};
  }
};

} // namespace state_work
