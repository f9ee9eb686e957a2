// benchmarks/real_work/pareto_csr.cuh: the power-law sparse matrix of the cluster launch control
// benchmarks (clc_ring.cu, clc_for_each_real.cu), in float CSR on the device with x and y.
//
// Row lengths are floor(2 u^(-1/1.2)) for u uniform in (0, 1] -- a Pareto law of shape 1.2 and
// scale 2, capped at 4096: most rows short, a few long -- columns uniform over the rows (square),
// values and x in [0, 1) in steps of 1/1000, all from one xorshift64 stream, so every run and both
// programs have the same matrix for the same number of rows.
#pragma once

#include <cmath>
#include <vector>

#include "../harness.h"

namespace real_work {

// The matrix as a kernel reads it, passed by value: y = A x over `rows` rows.
struct csr_view
{
  const unsigned* row_start; // rows + 1
  const int* col;            // nnz
  const float *val, *x;      // nnz, rows
  float* y;                  // rows
  unsigned rows;
};

class pareto_csr
{
public:
  ptxw_bench::device_array<unsigned> row_start; // rows + 1
  ptxw_bench::device_array<int> col; // nnz
  ptxw_bench::device_array<float> val, x, y; // nnz, rows, rows
  unsigned rows = 0;
  unsigned nnz  = 0;

  explicit pareto_csr(unsigned n)
      : rows(n)
  {
    std::vector<unsigned> starts(rows + 1, 0);
    unsigned long long s = 88172645463325252ull;
    auto next            = [&] {
      s ^= s << 13;
      s ^= s >> 7;
      s ^= s << 17;
      return s;
    };
    for (unsigned r = 0; r < rows; ++r)
    {
      const double u   = (static_cast<double>(next() >> 11) + 1.0) / 9007199254740993.0;
      const double len = std::floor(2.0 * std::pow(u, -1.0 / 1.2));
      starts[r + 1]    = starts[r] + static_cast<unsigned>(len < 4096.0 ? len : 4096.0);
    }
    nnz = starts[rows];
    std::vector<int> c(nnz);
    std::vector<float> v(nnz), xs(rows);
    for (unsigned j = 0; j < nnz; ++j)
    {
      c[j] = static_cast<int>(next() % rows);
      v[j] = static_cast<float>(next() % 1000) / 1000.f;
    }
    for (auto& e : xs)
    {
      e = static_cast<float>(next() % 1000) / 1000.f;
    }
    row_start.upload(starts);
    col.upload(c);
    val.upload(v);
    x.upload(xs);
    y.reserve(rows);
  }

  csr_view view()
  {
    return {row_start.get(), col.get(), val.get(), x.get(), y.get(), rows};
  }

  std::vector<float> output() const
  {
    return ptxw_bench::download(y.get(), rows);
  }
  // A row that no run wrote keeps the NaNs of 0xff bytes, and differs from any result.
  void clear()
  {
    PTXW_BENCH_CHECK(cudaMemset(y.get(), 0xff, rows * sizeof(float)));
  }
};

} // namespace real_work
