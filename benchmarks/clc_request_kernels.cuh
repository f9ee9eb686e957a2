// The kernel of the request-cost benchmark and its timing loop, compiled once per checked mode:
// clc_request_checked.cu and clc_request_unchecked.cu include this with PTXW_CHECKED set to 1 and
// 0. ptxw's names carry the mode (ptxw/core/config.h); this file's names have internal linkage (an
// unnamed namespace), so each translation unit keeps its own kernel and timing loop -- two inline
// functions of one name would leave the linker free to keep one of them for both modes.
#pragma once

#include <ptxw/clc.h>
#include <ptxw/clc/host/scheduler.h>

#include <cuda_runtime.h>

#include <vector>

#include "harness.h"

namespace {

// Every block index adds its x to its CTA's sum; the sums keep the loop from being optimised away
// and let the caller check that every index ran once.
template <class Backend>
__global__ void steal_all(unsigned long long* sum, ptxw::clc::context<Backend> ctx)
{
  unsigned long long mine = 0;
  ptxw::for_each_canceled_block<1>(ctx, [&](dim3 block) {
    mine += block.x;
  });
  if (threadIdx.x == 0)
  {
    atomicAdd(sum, mine);
  }
}

// Median time of `reps` launches over `blocks` block indices, in us; *sum: the last launch's sum.
// The faithful emulation launches every block; counter_t a persistent grid (scheduler::prepare).
template <class Backend>
inline double time_steal_all(unsigned blocks, unsigned threads, int reps, unsigned long long* sum)
{
  ptxw::clc::scheduler scheduler(blocks);
  ptxw_bench::event_timer timer;
  std::vector<double> us;
  for (int rep = -2; rep < reps; ++rep) // two warm-up launches
  {
    const auto l = scheduler.prepare(steal_all<Backend>, dim3(blocks), dim3(threads));
    PTXW_BENCH_CHECK(cudaMemset(sum, 0, sizeof(*sum)));
    const double t = timer.us([&] { steal_all<Backend><<<l.grid, threads>>>(sum, l.ctx); });
    if (rep >= 0)
    {
      us.push_back(t);
    }
  }
  return ptxw_bench::stats_of(us).median;
}

} // namespace
