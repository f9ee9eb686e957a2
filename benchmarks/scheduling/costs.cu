// Where the time between the bound and a scheduler goes: the costs docs/scheduling.md and docs/clc.md cite,
// each measured on its own, in one run.
//
//   build/benchmarks/ptxw_bench_sched_costs
//
// 1. Launching: ns per CTA of a kernel whose CTAs do nothing (what a launched-and-canceled block
//    costs the GPU's block dispatcher), and the tail that the CTAs beyond a persistent grid add when
//    they are launched only to leave (what a scheduler that launches the whole grid pays).
// 2. One request, by hand through the typed API, per backend: thread 0's cycles in request(), in
//    the work and in wait()+decode(), per block, under the scheduling benchmark's load (a full GPU
//    of 128-thread CTAs, one warp of each spinning on clock64 for the block's cost) -- and with
//    work that sleeps (__nanosleep) for its cost instead, which leaves the issue slots free.
// 3. A CTA's warps that finish early: how many 256-thread CTAs an SM holds at once when one warp of
//    each works longer than the others, against the occupancy calculator's figure, when the others
//    leave and when they wait at a barrier -- what a plain launch gains on work whose threads finish
//    at very different times, and a persistent CTA, whose warps wait for its next block, does not
//    (docs/clc.md).
#include "../harness.h"
#include "work.cuh"

#include <ptxw/clc.h>
#include <ptxw/clc/host/scheduler.h>
#include <ptxw/core/device_array.h>

#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

namespace {
using ptxw::detail::cuda_check;
using ptxw::detail::device_array;

__global__ void leave() {}

// The first `persistent` CTAs spin for `cycles`; the others leave at once.
__global__ void persistent_prefix(unsigned persistent, long long cycles)
{
  if (blockIdx.x < persistent)
  {
    sched::spin(cycles);
  }
}

__device__ unsigned long long phase_cycles[3]; // request, work, wait + decode (thread 0, summed)

__device__ __forceinline__ long long clock_now()
{
  long long c;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c)::"memory");
  return c;
}

// Warp 0 sleeps for `cycles`, the others wait at the barrier.
__device__ void sleep_for(long long cycles)
{
  if (threadIdx.x < 32)
  {
    const long long start = clock64();
    while (clock64() - start < cycles)
    {
      __nanosleep(200);
    }
  }
  __syncthreads();
}

// The loop of work_stealing.h written out, with thread 0's clock read between its steps.
template <class Backend>
__global__ void __launch_bounds__(128) by_hand(long long cycles, bool sleep, ptxw::clc::context<Backend> ctx)
{
  __shared__ ptxw::clc::slot<ptxw::clc::cta_t> slot;
  auto clc = ptxw::clc::open(slot, ctx);
  if (!clc.started())
  {
    return;
  }
  long long sum[3] = {0, 0, 0};
  while (true)
  {
    __syncthreads();
    const long long t0 = clock_now();
    clc.request(clc.elect());
    const long long t1 = clock_now();
    if (sleep)
    {
      sleep_for(cycles);
    }
    else
    {
      sched::spin(cycles);
    }
    const long long t2 = clock_now();
    const bool more    = clc.wait().decode([](auto) {});
    const long long t3 = clock_now();
    sum[0] += t1 - t0;
    sum[1] += t2 - t1;
    sum[2] += t3 - t2;
    if (!more)
    {
      break;
    }
  }
  if (threadIdx.x == 0)
  {
    for (int k = 0; k < 3; ++k)
    {
      atomicAdd(&phase_cycles[k], static_cast<unsigned long long>(sum[k]));
    }
  }
}

__device__ __forceinline__ unsigned long long global_ns()
{
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}

struct cta_span
{
  unsigned long long start, end;
  unsigned sm;
};

// Warp 0 spins for `cycles`, the other warps for `rest` and then leave -- or, with `barrier`, wait
// for warp 0 at a barrier, as a persistent CTA's warps wait for its next block. Thread 0 (warp 0's:
// the last to leave) writes its CTA's SM and its first and last instant.
__global__ void uneven(long long cycles, long long rest, bool barrier, cta_span* spans)
{
  __shared__ unsigned long long start;
  if (threadIdx.x == 0)
  {
    start = global_ns();
  }
  __syncthreads();
  const long long mine = threadIdx.x < 32 ? cycles : rest; // not sched::spin: its barrier is the question
  for (const long long t0 = clock64(); clock64() - t0 < mine;)
  {
  }
  if (barrier)
  {
    __syncthreads();
  }
  if (threadIdx.x == 0)
  {
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    spans[blockIdx.x] = {start, global_ns(), sm};
  }
}

// The CTAs an SM held at once, from the CTAs' spans: the mean over the SMs of each SM's CTA time
// over its busy time, and the most at any instant.
std::pair<double, unsigned> at_once(const std::vector<cta_span>& spans, int sms)
{
  double mean   = 0;
  unsigned most = 0;
  for (int sm = 0; sm < sms; ++sm)
  {
    std::vector<std::pair<unsigned long long, int>> edges;
    unsigned long long first = ~0ull, last = 0;
    double held = 0;
    for (const cta_span& s : spans)
    {
      if (static_cast<int>(s.sm) == sm)
      {
        edges.push_back({s.start, 1});
        edges.push_back({s.end, -1});
        first = std::min(first, s.start);
        last  = std::max(last, s.end);
        held += static_cast<double>(s.end - s.start);
      }
    }
    std::sort(edges.begin(), edges.end()); // an end before a start at the same instant
    int now = 0;
    for (const auto& e : edges)
    {
      now += e.second;
      most = std::max(most, static_cast<unsigned>(now));
    }
    mean += last > first ? held / static_cast<double>(last - first) / sms : 0;
  }
  return {mean, most};
}

template <class Backend>
void request_phases(const char* name, unsigned blocks, double us, bool sleep, double mhz, ptxw::clc::scheduler& sched)
{
  const unsigned long long zero[3] = {0, 0, 0};
  cuda_check(cudaMemcpyToSymbol(phase_cycles, zero, sizeof(zero)), "reset");
  const auto p = sched.prepare(by_hand<Backend>, dim3(blocks), dim3(128));
  by_hand<Backend><<<p.grid, 128>>>(static_cast<long long>(us * mhz), sleep, p.ctx);
  cuda_check(cudaDeviceSynchronize(), name);
  unsigned long long c[3];
  cuda_check(cudaMemcpyFromSymbol(c, phase_cycles, sizeof(c)), "read");
  std::printf("  %-12s %5.1f us %s: request %7.0f   work %7.0f   wait+decode %5.0f   (cycles per block)\n", name,
              us, sleep ? "sleep" : "spin ", double(c[0]) / blocks, double(c[1]) / blocks, double(c[2]) / blocks);
}

} // namespace

int main()
{
  ptxw_bench::require_device();
  cudaDeviceProp prop{};
  cuda_check(cudaGetDeviceProperties(&prop, 0), "properties");
  int per_sm = 0;
  cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, by_hand<ptxw::clc::counter_t>, 128, 0),
             "occupancy");
  const unsigned resident = static_cast<unsigned>(per_sm * prop.multiProcessorCount);
  ptxw_bench::event_timer t;
  // The SM clock under load: a full GPU spinning 2e6 cycles.
  const double mhz = 2e6 / t.best_us(3, [&] { persistent_prefix<<<resident, 128>>>(resident, 2000000); });
  std::printf("%s, %d SMs, %u resident 128-thread CTAs, SM clock under load %.0f MHz\n\n", prop.name,
              prop.multiProcessorCount, resident, mhz);

  std::printf("1. launching (best of 5)\n");
  for (unsigned grid : {200000u, 2000000u})
  {
    const double ms = t.best_us(5, [&] { leave<<<grid, 128>>>(); }) / 1e3;
    std::printf("  %8u CTAs that do nothing: %.3f ms, %.3f ns per CTA\n", grid, ms, ms * 1e6 / grid);
  }
  const long long ms1 = static_cast<long long>(mhz * 1000);
  const double alone  = t.best_us(5, [&] { persistent_prefix<<<resident, 128>>>(resident, ms1); }) / 1e3;
  for (unsigned grid : {200000u, 2000000u})
  {
    const double ms = t.best_us(5, [&] { persistent_prefix<<<grid, 128>>>(resident, ms1); }) / 1e3;
    std::printf("  %u CTAs spin 1 ms, %8u launched: %.3f ms, the %u that leave add %.3f ns each\n", resident, grid,
                ms, grid - resident, (ms - alone) * 1e6 / (grid - resident));
  }

  std::printf("\n2. one request by hand, thread 0 (200000 blocks, persistent launch where the backend allows)\n");
  ptxw::clc::scheduler sched(200000);
  for (bool sleep : {false, true})
  {
    for (double us : {10.0, 1.0})
    {
      request_phases<ptxw::clc::counter_t>("counter_t", 200000, us, sleep, mhz, sched);
      request_phases<ptxw::clc::emulated_t>("emulated_t", 200000, us, sleep, mhz, sched);
    }
  }

  std::printf("\n3. 256-thread CTAs, 8 waves' worth: warp 0 spins 100 us, the other warps as below\n");
  int per_sm256 = 0;
  cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm256, uneven, 256, 0), "occupancy");
  const unsigned grid = 8u * per_sm256 * prop.multiProcessorCount;
  device_array<cta_span> spans(grid, "spans");
  std::vector<cta_span> h(grid);
  const auto us = [&](double n) { return static_cast<long long>(mhz * n); };
  const struct
  {
    const char* others;
    long long rest;
    bool barrier;
  } cases[] = {{"leave at once", 0, false}, {"spin 10 us, leave", us(10), false},
               {"spin 10 us, wait at a barrier", us(10), true}};
  for (const auto& c : cases)
  {
    const double ms = t.best_us(3, [&] { uneven<<<grid, 256>>>(us(100), c.rest, c.barrier, spans.get()); }) / 1e3;
    cuda_check(cudaMemcpy(h.data(), spans.get(), grid * sizeof(cta_span), cudaMemcpyDeviceToHost), "spans");
    const auto [mean, most] = at_once(h, prop.multiProcessorCount);
    std::printf("  the others %-30s %.3f ms; CTAs an SM at once: %.2f on average, at most %u "
                "(occupancy calculator: %d)\n",
                c.others, ms, mean, most, per_sm256);
  }
  return 0;
}
