// ptxw::device::for_each_canceled against cub::DeviceFor::ForEachN and thrust::for_each, side by
// side in one run, on per-index costs that are uniform or skewed; then a policy sweep (docs/device.md:
// where stealing pays; the default is chosen on real work, benchmarks/device_real_work.cu).
//
//   ptxw_bench_device_for_each [--log2n K] [--reps R] [--no-sweep]
//
// Then lognormal sigma 1.5 from five more seeds; n from 2^16 up with uniform 1-us costs and with
// no wait at all (op loads its cost and marks: memory-bound, as a plain transform); and every cost
// distribution at 2^25 and 2^26 indices, beyond what one wave of the default's tiles takes on an
// H100 (at 2^24 one wave takes them all and nothing is stolen).
//
// The work of index i waits cost[i] nanoseconds of wall time (%globaltimer), sleeping in steps of
// 64 ns until then. Waiting rather than computing is the case work stealing is for (memory-latency-bound work,
// such as walking a variable-length list per index); sleeping warps issue nothing, so no warp
// starves the others (spinning warps do: docs/scheduling.md, "The benchmark"). Every contender
// runs the same functor; each index writes its mark, and every run is checked to have marked every
// index exactly once (exit code 1 otherwise).
//
// Costs, all with a mean of 1 us: uniform; lognormal sigma 1 (heavy tail: p99 about 10x the
// median); lognormal sigma 1.5; a hot spot (a sixteenth of the range, in one piece, costs 8 us and
// the rest 0.53 us: correlated costs, as a dense region of a sparse problem). The bound printed is
// that of any schedule: the total cost over the GPU's thread slots (2048 per SM), or the longest
// index if longer. Each index also waits for its cost's load and wakes up late by up to a sleep
// step, which no schedule avoids (docs/device.md).
//
// Times are of one call from an idle GPU (cudaEvent around the call: the host's launch work shows)
// and, for ptxw and CUB, per call of 4 back to back (the host's work overlaps the GPU's); the
// sweep's are back to back.
#include <ptxw/algorithms/for_each_canceled.h>

#include <cub/device/device_for.cuh>
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "harness.h"

namespace {

// %globaltimer: nanoseconds, in steps of 32 on an H100 -- wall time, whatever the SM clock does.
__device__ unsigned long long now_ns()
{
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

struct wait_op
{
  const unsigned* cost;
  unsigned* mark;
  __device__ void operator()(unsigned i) const
  {
    const unsigned long long until = now_ns() + cost[i];
    while (now_ns() < until)
    {
      __nanosleep(64);
    }
    atomicAdd(mark + i, 1u);
  }
};

template <int Threads, int Rounds, int Shared, int Cluster>
struct fixed
{
  constexpr ptxw::device::for_each_policy operator()(ptxw::device::compute_capability) const
  {
    return {Threads, Rounds, Cluster, ptxw::clc::backend_id::automatic, Shared};
  }
};

struct Options
{
  long long log2n = 24;
  long long reps  = 5;
  bool sweep      = true;
};

class Bench
{
  Options o_;
  unsigned capacity_;
  unsigned n_;
  ptxw_bench::device_array<unsigned> cost_, mark_;
  ptxw_bench::device_array<unsigned char> temp_;
  ptxw_bench::event_timer timer_;
  double clock_mhz_ = 0;
  int thread_slots_ = 0;
  unsigned wrong_runs_ = 0;
  // The cost distributions (sigma as load() takes it).
  static constexpr double sigmas_[] = {0.0, 1.0, 1.5, -1.0};
  static constexpr const char* names_[] = {"uniform", "lognormal s=1", "lognormal s=1.5", "hot spot"};

public:
  explicit Bench(Options o)
      : o_(o)
      , capacity_(1u << std::max(o.log2n, 26ll)) // up to 2^26 for the table beyond one wave
      , n_(1u << o.log2n)
  {
    cudaDeviceProp prop{};
    PTXW_BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
    int khz = 0;
    PTXW_BENCH_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
    clock_mhz_  = khz / 1000.0;
    thread_slots_ = prop.multiProcessorCount * prop.maxThreadsPerMultiProcessor;
    std::printf("%s, %d SMs, %d thread slots, %.0f MHz; n = 2^%lld indices\n", prop.name, prop.multiProcessorCount,
                thread_slots_, clock_mhz_, o_.log2n);
    cost_.reserve(capacity_);
    mark_.reserve(capacity_);
  }

  // Costs in ns with a mean of 1000 (sigma 0: uniform, < 0: the hot spot; `uniform` ns each where
  // sigma is 0) for the first n indices; returns the bound in us.
  double load(double sigma, std::vector<unsigned>& cost, unsigned n, unsigned uniform = 1000, unsigned seed = 12345)
  {
    n_ = n;
    std::mt19937_64 rng(seed);
    std::lognormal_distribution<double> d(std::log(1000.0) - sigma * sigma / 2, sigma);
    cost.resize(n_);
    for (unsigned i = 0; i < n_; ++i)
    {
      const bool hot = i >= n_ / 2 && i < n_ / 2 + n_ / 16;
      cost[i]        = sigma == 0  ? uniform
                     : sigma < 0 ? (hot ? 8000u : 533u)
                                 : static_cast<unsigned>(std::min(d(rng), 4e9));
    }
    PTXW_BENCH_CHECK(cudaMemcpy(cost_.get(), cost.data(), n_ * sizeof(unsigned), cudaMemcpyHostToDevice));
    const double total   = std::accumulate(cost.begin(), cost.end(), 0.0);
    const double longest = *std::max_element(cost.begin(), cost.end());
    return std::max(total / thread_slots_, longest) / 1000.0;
  }

  // The best of reps timings of `calls` calls back to back, per call.
  template <class Call>
  double time(Call call, int calls = 1)
  {
    double best = 1e30;
    for (int r = 0; r < o_.reps; ++r)
    {
      PTXW_BENCH_CHECK(cudaMemset(mark_.get(), 0, n_ * sizeof(unsigned)));
      PTXW_BENCH_CHECK(cudaDeviceSynchronize());
      const double us = timer_.us([&] {
        for (int c = 0; c < calls; ++c)
        {
          call();
        }
      });
      best = std::min(best, us / calls);
      check_marks(static_cast<unsigned>(calls));
    }
    return best;
  }

  void check_marks(unsigned calls)
  {
    std::vector<unsigned> m(n_);
    PTXW_BENCH_CHECK(cudaMemcpy(m.data(), mark_.get(), n_ * sizeof(unsigned), cudaMemcpyDeviceToHost));
    wrong_runs_ += std::any_of(m.begin(), m.end(), [&](unsigned v) { return v != calls; });
  }

  wait_op op() const
  {
    return {cost_.get(), mark_.get()};
  }

  // Both phases in every call; the size query is host arithmetic.
  template <class Selector>
  void ptxw_call()
  {
    ptxw_bench::two_phase(temp_, [&](void* temp, std::size_t& bytes) {
      return ptxw::device::for_each_canceled<Selector>(temp, bytes, n_, op());
    });
  }

  void cub_call()
  {
    PTXW_BENCH_CHECK(cub::DeviceFor::ForEachN(thrust::counting_iterator<unsigned>(0), n_, op()));
  }

  void thrust_call()
  {
    thrust::for_each(thrust::device, thrust::counting_iterator<unsigned>(0), thrust::counting_iterator<unsigned>(n_),
                     op());
    PTXW_BENCH_CHECK(cudaGetLastError());
  }

  // Timings of ptxw's default and of CUB: one call, and per call of 4 back to back.
  double ptxw_us(int calls = 1)
  {
    return time([&] { ptxw_call<ptxw::device::for_each_selector>(); }, calls);
  }
  double cub_us(int calls = 1)
  {
    return time([&] { cub_call(); }, calls);
  }

  // A policy against CUB measured right before it (timings drift over a run by more than the
  // differences between policies), back to back: one call's time carries the host's work.
  template <class Selector>
  void sweep_one(const char* name, double bound)
  {
    const double cub = cub_us(4);
    const double us  = time([&] { ptxw_call<Selector>(); }, 4);
    std::printf("  %-22s %10.1f %8.3f %8.3f\n", name, us, cub / us, us / bound);
  }

  // lognormal sigma 1.5 drawn from other seeds: where its longest index falls decides the time.
  void seeds()
  {
    std::printf("\n%-16s %9s %9s | %10s %10s %9s\n", "lognormal s=1.5", "bound us", "longest@", "ptxw us", "CUB us",
                "CUB/ptxw");
    for (unsigned seed = 1; seed <= 5; ++seed)
    {
      std::vector<unsigned> cost;
      const double bound = load(1.5, cost, 1u << o_.log2n, 1000, seed);
      const double at    = double(std::max_element(cost.begin(), cost.end()) - cost.begin()) / cost.size();
      const auto [p, c] = ptxw_bench::best_in_turn<double>(2, [&] { return ptxw_us(); }, [&] { return cub_us(); });
      std::printf("  seed %-10u %9.1f %9.3f | %10.1f %10.1f %9.3f\n", seed, bound, at, p, c, c / p);
    }
  }

  // ptxw's default against CUB at n indices of `name`'s costs (sigma as load()), one row.
  void size_row(const char* name, double sigma, unsigned n, unsigned wait = 1000)
  {
    std::vector<unsigned> cost;
    load(sigma, cost, n, wait);
    ptxw_call<ptxw::device::for_each_selector>();
    cub_call();
    const auto [p, c, pb, cb] = ptxw_bench::best_in_turn<double>(
      2, [&] { return ptxw_us(); }, [&] { return cub_us(); }, [&] { return ptxw_us(4); }, [&] { return cub_us(4); });
    std::printf("%-16s %9u | %10.1f %10.1f %9.3f | %9.1f %9.1f %9.3f\n", name, n, p, c, c / p, pb, cb, cb / pb);
  }

  // Smaller n, uniform 1-us costs and no wait; then every cost distribution at 2^25 and 2^26, where
  // any policy of the sweep needs more than one wave of tiles on an H100, so tiles are stolen.
  void sizes()
  {
    std::printf("\n%-16s %9s | %10s %10s %9s | %9s %9s %9s\n", "costs", "n", "ptxw us", "CUB us", "CUB/ptxw",
                "ptxw b2b", "CUB b2b", "CUB/ptxw");
    for (unsigned wait : {1000u, 0u})
    {
      for (unsigned n : {1u << 16, 1u << 18, 1u << 20, 1u << 22, 8700000u, 1u << 24})
      {
        size_row(wait ? "uniform" : "no wait", 0.0, n, wait);
      }
    }
    std::printf("\nbeyond one wave (tiles stolen)\n");
    for (unsigned n : {1u << 25, 1u << 26})
    {
      for (int k = 0; k < 4; ++k)
      {
        size_row(names_[k], sigmas_[k], n);
      }
    }
  }

  int run()
  {
    std::printf("\n%-16s %9s | %10s %10s %10s | %9s %9s | %8s %8s | %9s %9s %9s\n", "costs", "bound us", "ptxw us",
                "CUB us", "thrust us", "CUB/ptxw", "thr/ptxw", "ptxw/bd", "CUB/bd", "ptxw b2b", "CUB b2b", "CUB/ptxw");
    for (int k = 0; k < 4; ++k)
    {
      std::vector<unsigned> cost;
      const double bound = load(sigmas_[k], cost, 1u << o_.log2n);
      ptxw_call<ptxw::device::for_each_selector>(); // warm-up (and the temporary storage)
      cub_call();
      thrust_call();
      PTXW_BENCH_CHECK(cudaDeviceSynchronize());
      // One call each, then per call of 4 back to back, in turn twice.
      const auto [p, c, t, pb, cb] = ptxw_bench::best_in_turn<double>(
        2, [&] { return ptxw_us(); }, [&] { return cub_us(); }, [&] { return time([&] { thrust_call(); }); },
        [&] { return ptxw_us(4); }, [&] { return cub_us(4); });
      std::printf("%-16s %9.1f | %10.1f %10.1f %10.1f | %9.3f %9.3f | %8.3f %8.3f | %9.1f %9.1f %9.3f\n", names_[k],
                  bound, p, c, t, c / p, t / p, p / bound, c / bound, pb, cb, cb / pb);
      if (o_.sweep)
      {
        std::printf("  sweep, back to back (threads x rounds (shared) x cluster)\n  %-22s %10s %8s %8s\n", "policy",
                    "us", "CUB/this", "this/bd");
        sweep_one<fixed<512, 32, 0, 1>>("512 x 32 (0) x 1", bound);
        sweep_one<fixed<512, 32, 8, 1>>("512 x 32 (8) x 1", bound);
        sweep_one<fixed<512, 64, 0, 1>>("512 x 64 (0) x 1", bound);
        sweep_one<fixed<512, 64, 16, 1>>("512 x 64 (16) x 1", bound);
        sweep_one<fixed<512, 64, 32, 1>>("512 x 64 (32) x 1", bound);
        sweep_one<fixed<256, 64, 16, 1>>("256 x 64 (16) x 1", bound);
        sweep_one<fixed<1024, 32, 8, 1>>("1024 x 32 (8) x 1", bound);
        sweep_one<fixed<512, 32, 8, 2>>("512 x 32 (8) x 2", bound);
      }
    }
    seeds();
    sizes();
    std::printf("\nCUB/ptxw above 1: ptxw faster. bd: the bound. Every run marked every index once: %s\n",
                wrong_runs_ ? "NO" : "yes");
    return wrong_runs_ ? 1 : 0;
  }
};

} // namespace

int main(int argc, char** argv)
{
  return ptxw_bench::run_main<Bench, Options>(
    argc, argv, "ptxw_bench_device_for_each [--log2n K] [--reps R] [--no-sweep]", [&](Options& o, int& i) {
      return ptxw_bench::flag_option(argv, i, "--no-sweep", o.sweep, false)
             || ptxw_bench::int_option(argc, argv, i, "--log2n", 10, 28, o.log2n)
             || ptxw_bench::int_option(argc, argv, i, "--reps", 1, 100, o.reps);
    });
}
