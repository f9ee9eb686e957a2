// Benchmark: what a cluster launch control request costs through ptxw on this GPU -- with Hopper's
// fast backend (counter_t, a persistent launch) and the faithful emulation (emulated_t, every block
// launched), each with checked mode off and on -- next to a plain launch of the same blocks (one
// block per index, no stealing).
//
// Every variant runs the same block indices, each adding its x to one sum (checked against
// n(n-1)/2, so a variant that skipped or repeated an index is reported, not timed), with no work
// of its own: ns per index is the median kernel time over the indices, the price of scheduling
// one block index.
//
//   build/benchmarks/ptxw_bench_clc_request [--reps N]   (N: launches a median is of, 15 unless given)
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "harness.h"

double time_counter_unchecked(unsigned blocks, unsigned threads, int reps, unsigned long long* sum);
double time_counter_checked(unsigned blocks, unsigned threads, int reps, unsigned long long* sum);
double time_emulated_unchecked(unsigned blocks, unsigned threads, int reps, unsigned long long* sum);
double time_emulated_checked(unsigned blocks, unsigned threads, int reps, unsigned long long* sum);

namespace {

__global__ void plain(unsigned long long* sum)
{
  if (threadIdx.x == 0)
  {
    atomicAdd(sum, static_cast<unsigned long long>(blockIdx.x));
  }
}

// As time_steal_all (clc_request_kernels.cuh), for a plain launch of every block.
double time_plain(unsigned blocks, unsigned threads, int reps, unsigned long long* sum)
{
  ptxw_bench::event_timer timer;
  std::vector<double> us;
  for (int rep = -2; rep < reps; ++rep) // two warm-up launches
  {
    PTXW_BENCH_CHECK(cudaMemset(sum, 0, sizeof(*sum)));
    const double t = timer.us([&] { plain<<<blocks, threads>>>(sum); });
    if (rep >= 0)
    {
      us.push_back(t);
    }
  }
  return ptxw_bench::stats_of(us).median;
}

bool check(const char* what, unsigned blocks, unsigned long long* sum)
{
  const unsigned long long got = ptxw_bench::download(sum, 1)[0];
  const unsigned long long want = static_cast<unsigned long long>(blocks) * (blocks - 1) / 2;
  if (got != want)
  {
    std::printf("%s: sum %llu, expected %llu: an index was lost or repeated\n", what, got, want);
  }
  return got == want;
}

struct options
{
  long long reps = 15;
};

} // namespace

int main(int argc, char** argv)
{
  options o;
  if (!ptxw_bench::parse_options(argc, argv, "ptxw_bench_clc_request [--reps N]", o, [&](options& opt, int& i) {
        return ptxw_bench::int_option(argc, argv, i, "--reps", 1, 1000, opt.reps);
      }))
  {
    return 2;
  }
  ptxw_bench::require_device();
  const int reps = static_cast<int>(o.reps);
  cudaDeviceProp prop{};
  PTXW_BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, %d SMs; median of %d launches; ns per block index\n", prop.name, prop.multiProcessorCount, reps);
  std::printf("%10s %8s %8s %10s %10s %10s %10s %14s %14s\n", "indices", "threads", "plain", "counter", "counter+chk",
              "emulated", "emul.+chk", "emulated/cntr", "checked/unchk");
  ptxw_bench::device_array<unsigned long long> sum(1, "the sum");
  bool ok = true;
  for (unsigned blocks : {100000u, 1000000u, 10000000u})
  {
    for (unsigned threads : {64u, 256u})
    {
      const double plain_us = time_plain(blocks, threads, reps, sum.get());
      ok &= check("plain", blocks, sum.get());
      const double counter_us = time_counter_unchecked(blocks, threads, reps, sum.get());
      ok &= check("counter_t", blocks, sum.get());
      const double counter_checked_us = time_counter_checked(blocks, threads, reps, sum.get());
      ok &= check("counter_t, checked", blocks, sum.get());
      const double emulated_us = time_emulated_unchecked(blocks, threads, reps, sum.get());
      ok &= check("emulated_t", blocks, sum.get());
      const double emulated_checked_us = time_emulated_checked(blocks, threads, reps, sum.get());
      ok &= check("emulated_t, checked", blocks, sum.get());
      const double scale = 1e3 / blocks; // us over the indices to ns per index
      std::printf("%10u %8u %8.2f %10.2f %10.2f %10.2f %10.2f %14.2f %14.2f\n", blocks, threads, plain_us * scale,
                  counter_us * scale, counter_checked_us * scale, emulated_us * scale, emulated_checked_us * scale,
                  emulated_us / counter_us, emulated_checked_us / emulated_us);
    }
  }
  PTXW_BENCH_CHECK(cudaDeviceSynchronize());
  return ok ? 0 : 1;
}
