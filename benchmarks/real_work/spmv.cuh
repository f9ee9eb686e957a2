// benchmarks/real_work/spmv.cuh: one row of a sparse matrix-vector product per index, y = A x, over
// CSR matrices whose row lengths follow a power law.
//
// Row lengths are drawn i.i.d. from a Zipf law, P(L = k) proportional to k^-s for k in [1, K], with
// K = min(10^5, rows): s = 1.5 has a mean of about 240 nonzeros a row and many rows of 10^4 to
// 10^5 (the heavy one), s = 2.5 a mean of about 2 and a few rows of 10^3 to 10^5. The matrix is
// square; each nonzero's column is uniform (a hash of its position, repeats within a row
// allowed), values and x are in [0.5, 1.5). Index `row` sums val[k] * x[col[k]] over its row in
// order with fused multiply-adds, so the result is the same bits whoever runs it, and is > 0 (the
// exactly-once encoding adds it to y). One thread walks its row alone: the longest row is a
// serial chain of dependent loads and FMAs that no schedule shortens.
#pragma once

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "buffers.cuh"
#include "common.cuh"

namespace real_work {

struct spmv_row
{
  const long long* row_ptr;
  const int* col;
  const double* val;
  const double* x;
  double* y;

  __host__ __device__ double row_sum(int row) const
  {
    double sum = 0.0;
    for (long long k = row_ptr[row], end = row_ptr[row + 1]; k < end; ++k)
    {
      sum = dfma(val[k], x[col[k]], sum);
    }
    return sum;
  }
  __device__ void operator()(int row) const
  {
    y[row] = dadd(y[row], row_sum(row));
  }
};

// The cumulative distribution of the Zipf law on [1, kmax] (cdf[k - 1] = P(L <= k); the last is 1).
inline std::vector<double> zipf_cdf(double s, int kmax)
{
  std::vector<double> cdf(kmax);
  double total = 0;
  for (int k = 1; k <= kmax; ++k)
  {
    total += std::pow(static_cast<double>(k), -s);
    cdf[k - 1] = total;
  }
  for (double& c : cdf)
  {
    c /= total;
  }
  cdf[kmax - 1] = 1.0;
  return cdf;
}

inline double zipf_mean(double s, int kmax)
{
  double num = 0, den = 0;
  for (int k = 1; k <= kmax; ++k)
  {
    num += std::pow(static_cast<double>(k), 1 - s);
    den += std::pow(static_cast<double>(k), -s);
  }
  return num / den;
}

// Row `row`'s length: the first k with u < cdf[k - 1], u uniform in [0, 1) from the row's hash.
struct zipf_length
{
  const double* cdf;
  int kmax;
  std::uint64_t seed;
  long long* len; // rows + 1 entries; the last is 0 (the exclusive scan's total)
  int rows;

  __host__ __device__ long long sample(int row) const
  {
    const double u = unit_double(hash64(seed, static_cast<std::uint64_t>(row)));
    int lo = 0, hi = kmax - 1; // cdf[kmax - 1] = 1 > u
    while (lo < hi)
    {
      const int mid = (lo + hi) / 2;
      if (cdf[mid] > u)
      {
        hi = mid;
      }
      else
      {
        lo = mid + 1;
      }
    }
    return lo + 1;
  }
  __device__ void operator()(int row) const
  {
    len[row] = row < rows ? sample(row) : 0;
  }
};

struct csr_fill
{
  int* col;
  double* val;
  std::uint64_t mask; // columns - 1 (a power of two)
  __device__ void operator()(long long k) const
  {
    const auto i = static_cast<std::uint64_t>(k);
    col[k]       = static_cast<int>(hash64(0x5eed0001, i) & mask);
    val[k]       = 0.5 + unit_double(hash64(0x5eed0002, i));
  }
};

struct vector_fill
{
  double* x;
  __device__ void operator()(int j) const
  {
    x[j] = 0.5 + unit_double(hash64(0x5eed0003, static_cast<std::uint64_t>(j)));
  }
};

class spmv_workload
{
  double s_;
  std::string name_;
  int n_           = 0;
  int kmax_        = 0;
  long long nnz_   = 0;
  long long longest_ = 0;
  device_array<double> cdf_, val_, x_, y_;
  device_array<long long> len_, row_ptr_;
  device_array<int> col_;
  device_array<unsigned char> scratch_; // CUB's temporary storage

public:
  using op_type  = spmv_row;
  using out_type = double;
  static constexpr int row_length_cap = 100000;

  explicit spmv_workload(double s)
      : s_(s)
  {
    char b[32];
    std::snprintf(b, sizeof b, "spmv-zipf%.1f", s);
    name_ = b;
  }
  std::string name() const
  {
    return name_;
  }
  std::string title() const
  {
    char b[256];
    std::snprintf(b, sizeof b,
                  "CSR SpMV, one row per index, row lengths Zipf s = %.1f on [1, min(10^5, rows)] (mean %.1f), "
                  "square, uniform columns, double",
                  s_, zipf_mean(s_, row_length_cap));
    return b;
  }
  // s = 1.5 holds about 240 nonzeros a row: 2^22 rows are 10^9 nonzeros (12 GB), the most kept.
  int max_log2n() const
  {
    return s_ < 2 ? 22 : 26;
  }
  // The expected nonzeros of 2^log2n rows, for the run-time estimate.
  double expected_work(int log2n) const
  {
    return zipf_mean(s_, std::min(row_length_cap, 1 << log2n)) * static_cast<double>(1ull << log2n);
  }
  void prepare(int log2n)
  {
    n_    = 1 << log2n;
    kmax_ = std::min(row_length_cap, n_);
    const std::vector<double> cdf = zipf_cdf(s_, kmax_);
    cdf_.reserve(kmax_);
    PTXW_BENCH_CHECK(cudaMemcpy(cdf_.get(), cdf.data(), kmax_ * sizeof(double), cudaMemcpyHostToDevice));
    len_.reserve(n_ + 1);
    row_ptr_.reserve(n_ + 1);
    generate(n_ + 1, zipf_length{cdf_.get(), kmax_, 0x5eed0000 + static_cast<std::uint64_t>(s_ * 10), len_.get(), n_});
    device_array<long long> result;
    result.reserve(1);
    two_phase(scratch_, [&](void* t, std::size_t& b) {
      return cub::DeviceReduce::Max(t, b, len_.get(), result.get(), n_ + 1);
    });
    PTXW_BENCH_CHECK(cudaMemcpy(&longest_, result.get(), sizeof(long long), cudaMemcpyDeviceToHost));
    two_phase(scratch_, [&](void* t, std::size_t& b) {
      return cub::DeviceScan::ExclusiveSum(t, b, len_.get(), row_ptr_.get(), n_ + 1);
    });
    PTXW_BENCH_CHECK(cudaMemcpy(&nnz_, row_ptr_.get() + n_, sizeof(long long), cudaMemcpyDeviceToHost));
    col_.reserve(nnz_);
    val_.reserve(nnz_);
    generate(nnz_, csr_fill{col_.get(), val_.get(), static_cast<std::uint64_t>(n_ - 1)});
    x_.reserve(n_);
    y_.reserve(n_);
    generate(n_, vector_fill{x_.get()});
    PTXW_BENCH_CHECK(cudaDeviceSynchronize());
  }
  op_type op() const
  {
    return {row_ptr_.get(), col_.get(), val_.get(), x_.get(), y_.get()};
  }
  void reset()
  {
    PTXW_BENCH_CHECK(cudaMemsetAsync(y_.get(), 0, n_ * sizeof(double)));
  }
  out_type* out() const
  {
    return y_.get();
  }
  // Bytes at least: the matrix, row pointers, x once, y read and written.
  size_info info() const
  {
    size_info s;
    s.bytes   = static_cast<unsigned long long>(nnz_) * 12 + (n_ + 1ull) * 8 + n_ * 8ull + n_ * 16ull;
    s.work    = static_cast<double>(nnz_);
    s.longest = static_cast<double>(longest_);
    return s;
  }
  std::string stats(const double*) const
  {
    char b[160];
    std::snprintf(b, sizeof b, "%lld nonzeros (%.1f a row), longest row %lld", nnz_, double(nnz_) / n_, longest_);
    return b;
  }
  void release()
  {
    cdf_.release(), val_.release(), x_.release(), y_.release(), len_.release(), row_ptr_.release(), col_.release();
    scratch_.release();
  }
};

} // namespace real_work
