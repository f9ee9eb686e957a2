// ptxw::device::sum (one launch, ptxw::last_block merging) against cub::DeviceReduce::Sum, side by side.
//
//   ptxw_bench_last_block_reduce [--reps R] [--max N]
//
// int32 inputs, int64 sums (CUB's accumulator for an int64 output is int64 too), n = 10^3 .. 10^9.
// ptxw: ptxw::device::sum (ptxw/algorithms/reduce.h) -- a memset of its ticket and one kernel: a
// vectorised grid-stride sum per block (4 int4 loads in flight per thread), the partial of each
// block, and the merge in the block that arrives last. CUB: its two-phase call, which for more than
// one tile launches two kernels. Both with their temporary storage allocated once before timing
// (what a user keeps between calls). Each is timed two ways, the
// two interleaved: the latency of one call (events around it, median of R) and the time per call of
// a stream of back-to-back calls (events around many, best of 5). Every result of every timed call
// is checked against the host's exact sum; a wrong one makes the exit code 1.
#include <ptxw/algorithms/reduce.h>

#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "check.h"
#include "harness.h"

namespace {

__host__ __device__ int value_at(unsigned long long i)
{
  unsigned long long x = i * 0x9e3779b97f4a7c15ull;
  x ^= x >> 31;
  return static_cast<int>(static_cast<unsigned>(x)); // the whole int range
}

__global__ void fill(int* in, unsigned long long n)
{
  for (unsigned long long i = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<unsigned long long>(gridDim.x) * blockDim.x)
  {
    in[i] = value_at(i);
  }
}

struct Options
{
  long long reps           = 51;
  unsigned long long max_n = 1000000000ull;
};

struct Timing
{
  double latency_us; // one call, median
  double stream_us; // per call, back to back, best of 5
};

// The better of two: each figure on its own (ptxw_bench::best_in_turn).
Timing best_of(const Timing& a, const Timing& b)
{
  return {std::min(a.latency_us, b.latency_us), std::min(a.stream_us, b.stream_us)};
}

class Bench
{
  Options o_;
  unsigned resident_     = 0;
  ptxw_bench::device_array<int> in_;
  ptxw_bench::device_array<long long> out_; // one slot per timed call
  ptxw_bench::device_array<unsigned char> cub_temp_, ptxw_temp_;
  static constexpr ptxw::device::reduce_policy kPolicy = ptxw::device::reduce_selector{}({90});
  ptxw_bench::event_timer timer_;
  static constexpr unsigned kSlots = 4096;

public:
  explicit Bench(Options o)
      : o_(o)
  {
    cudaDeviceProp prop{};
    PTXW_BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
    int per_sm = 0;
    PTXW_BENCH_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm, ptxw::device::detail::reduce_kernel<kPolicy.block_threads, kPolicy.items_per_thread, const int*,
                                                   long long*, ::cuda::std::plus<long long>, long long>,
      kPolicy.block_threads, 0));
    resident_ = static_cast<unsigned>(per_sm) * prop.multiProcessorCount;
    std::printf("%s, %d SMs, %u resident blocks of %d threads for the ptxw kernel; int32 in, int64 sum\n", prop.name,
                prop.multiProcessorCount, resident_, kPolicy.block_threads);
    in_.reserve(o_.max_n);
    out_.reserve(kSlots);
    fill<<<4096, 256>>>(in_.get(), o_.max_n);
    PTXW_BENCH_CHECK(cudaDeviceSynchronize());
  }

  unsigned grid(unsigned long long n) const
  {
    return static_cast<unsigned>(std::min<unsigned long long>(ptxw::device::detail::reduce_blocks(kPolicy, n), resident_));
  }

  // One call on the storage sized in run(): the timed calls are single-phase.
  void ptxw_call(unsigned long long n, long long* out)
  {
    std::size_t bytes = ptxw_temp_.size();
    PTXW_BENCH_CHECK(ptxw::device::sum(ptxw_temp_.get(), bytes, static_cast<const int*>(in_.get()), out, n));
  }

  void cub_call(unsigned long long n, long long* out)
  {
    std::size_t bytes = cub_temp_.size();
    PTXW_BENCH_CHECK(cub::DeviceReduce::Sum(cub_temp_.get(), bytes, in_.get(), out, static_cast<int>(n)));
  }

  template <class Call>
  Timing time(unsigned long long n, Call call, unsigned stream_calls)
  {
    std::vector<double> latency;
    for (int r = 0; r < o_.reps; ++r)
    {
      latency.push_back(timer_.us([&] { call(n, out_.get() + r); }));
    }
    std::nth_element(latency.begin(), latency.begin() + latency.size() / 2, latency.end());
    double best = 1e30;
    for (int r = 0; r < 5; ++r)
    {
      const double us = timer_.us([&] {
        for (unsigned k = 0; k < stream_calls; ++k)
        {
          call(n, out_.get() + o_.reps + k);
        }
      });
      best = std::min(best, us / stream_calls);
    }
    return {latency[latency.size() / 2], best};
  }

  // Results of the last time(): all equal to the exact sum.
  unsigned wrong(long long expected, unsigned calls)
  {
    std::vector<long long> got(calls);
    PTXW_BENCH_CHECK(cudaMemcpy(got.data(), out_.get(), calls * sizeof(long long), cudaMemcpyDeviceToHost));
    unsigned bad = 0;
    for (long long g : got)
    {
      bad += g != expected;
    }
    return bad;
  }

  int run()
  {
    unsigned total_wrong = 0;
    std::printf("\n%12s %7s | %10s %10s %7s | %10s %10s %7s %9s | %s\n", "n", "blocks", "ptxw us", "CUB us", "ratio",
                "ptxw us/c", "CUB us/c", "ratio", "ptxw GB/s", "checks");
    std::printf("%12s %7s | %30s | %38s |\n", "", "", "one call (median)", "back to back (per call, best of 5)");
    for (unsigned long long n = 1000; n <= o_.max_n; n *= 10)
    {
      long long expected = 0;
      for (unsigned long long i = 0; i < n; ++i)
      {
        expected += value_at(i);
      }
      // Warm-up: each call in both phases, which sizes its storage for n; then the two interleaved:
      // ptxw, CUB, ptxw, CUB, every result of each checked.
      ptxw_bench::two_phase(ptxw_temp_, [&](void* temp, std::size_t& bytes) {
        return ptxw::device::sum(temp, bytes, static_cast<const int*>(in_.get()), out_.get(), n);
      });
      ptxw_bench::two_phase(cub_temp_, [&](void* temp, std::size_t& bytes) {
        return cub::DeviceReduce::Sum(temp, bytes, in_.get(), out_.get(), static_cast<int>(n));
      });
      PTXW_BENCH_CHECK(cudaDeviceSynchronize());
      const unsigned calls = n <= 1000000 ? 2000u : n <= 10000000 ? 400u : n <= 100000000 ? 60u : 12u;
      const unsigned slots = o_.reps + calls;
      unsigned bad    = 0;
      const auto [p, c] = ptxw_bench::best_in_turn<Timing>(
        2,
        [&] {
          const Timing t = time(n, [&](auto m, auto* o) { ptxw_call(m, o); }, calls);
          bad += wrong(expected, slots);
          return t;
        },
        [&] {
          const Timing t = time(n, [&](auto m, auto* o) { cub_call(m, o); }, calls);
          bad += wrong(expected, slots);
          return t;
        });
      total_wrong += bad;
      std::printf("%12llu %7u | %10.2f %10.2f %7.3f | %10.2f %10.2f %7.3f %9.0f | %s\n", n, grid(n), p.latency_us,
                  c.latency_us, p.latency_us / c.latency_us, p.stream_us, c.stream_us, p.stream_us / c.stream_us,
                  n * sizeof(int) / (p.stream_us * 1e3), bad ? (std::to_string(bad) + " WRONG").c_str() : "ok");
    }
    std::printf("\nratio = ptxw / CUB (below 1: ptxw faster). Every result checked against the host's exact sum: %s\n",
                total_wrong ? "WRONG RESULTS" : "all exact");
    return total_wrong ? 1 : 0;
  }
};

} // namespace

int main(int argc, char** argv)
{
  return ptxw_bench::run_main<Bench, Options>(
    argc, argv, "ptxw_bench_last_block_reduce [--reps R] [--max N]", [&](Options& o, int& i) {
      long long max_n = 0;
      if (ptxw_bench::int_option(argc, argv, i, "--max", 1, 2000000000, max_n)) // CUB gets an int count
      {
        o.max_n = static_cast<unsigned long long>(max_n);
        return true;
      }
      return ptxw_bench::int_option(argc, argv, i, "--reps", 1, 1000, o.reps);
    });
}
