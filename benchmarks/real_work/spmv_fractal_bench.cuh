// benchmarks/real_work/spmv_fractal_bench.cuh: what clc_ring.cu and clc_for_each_real.cu share
// around their own contenders -- the hand-written atomicAdd queue both time, the Mandelbrot image
// on the device, the benchmark's state and run() (SpMV, then the Mandelbrot view), the check of a
// contender's output against the reference, and main().
#pragma once

#include <ptxw/clc/host/scheduler.h>

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include "../harness.h"
#include "fractals.cuh"
#include "pareto_csr.cuh"
#include "spmv_fractal_options.cuh"

namespace real_work {

// The queue a kernel author writes by hand over a persistent grid: each CTA starts at tile
// blockIdx.x; thread 0 claims the next tile (gridDim.x on) with atomicAdd before the current one's
// work, and the barrier that ends that work hands it over (two alternating slots, so that the next
// claim cannot overwrite a tile index not yet read). tile(t) is every thread's share of tile t.
template <class Tile>
__device__ __forceinline__ void atomic_queue(unsigned tiles, unsigned* counter, const Tile& tile)
{
  __shared__ unsigned next[2];
  unsigned t = blockIdx.x;
  for (unsigned k = 0; t < tiles; k ^= 1)
  {
    if (threadIdx.x == 0)
    {
      next[k] = gridDim.x + atomicAdd(counter, 1u);
    }
    tile(t);
    __syncthreads();
    t = next[k];
  }
}

// A fractal view of side x side pixels on the device, cut into tiles of tile_side x tile_side
// (tiles_x a row). Its escape_time adds iterations + 1 to each pixel, so from clear()'s zeros a
// pixel skipped stays 0 and one run twice doubles.
class fractal_image
{
public:
  const fractal_view& view;
  const int log2n; // pixels: 2^log2n
  const unsigned side;
  const unsigned tiles_x;
  const std::size_t pixels;
  ptxw_bench::device_array<unsigned> out;
  escape_time e;

  fractal_image(const fractal_view& v, long long image_log2, unsigned tile_side)
      : view(v)
      , log2n(static_cast<int>(2 * image_log2))
      , side(1u << image_log2)
      , tiles_x(side / tile_side)
      , pixels(std::size_t{side} * side)
      , e(make_escape_time(v, log2n))
  {
    out.reserve(pixels);
    e.out = out.get();
  }

  std::vector<unsigned> output() const
  {
    return ptxw_bench::download(out.get(), pixels);
  }
  void clear()
  {
    PTXW_BENCH_CHECK(cudaMemset(out.get(), 0, pixels * sizeof(unsigned)));
  }
};

// The state of both benchmarks and their run(): Derived's spmv() and mandelbrot() each compare its
// contenders on one workload and return 1 where an output differed.
template <class Derived, class Options>
class spmv_fractal_bench
{
protected:
  Options o_;
  int sms_ = 0;
  ptxw::clc::scheduler sched_; // counter_t's, for the launches on it
  ptxw_bench::event_timer timer_;
  ptxw_bench::device_array<unsigned> counter_; // atomic_queue's

  // One contender's run from a cleared output, its output compared with the reference `expected`;
  // a difference is printed under the comparison's title. 1 where it differs.
  template <class Expected, class Output, class Clear, class Run>
  static int differs(const char* title, const char* name, const Expected& expected, const Output& output,
                     const Clear& clear, const Run& run)
  {
    clear();
    (void) run();
    PTXW_BENCH_CHECK(cudaGetLastError());
    PTXW_BENCH_CHECK(cudaDeviceSynchronize());
    if (output() != expected)
    {
      std::printf("%s: %s: the output differs from the plain launch's\n", title, name);
      return 1;
    }
    return 0;
  }

public:
  explicit spmv_fractal_bench(const Options& o)
      : o_(o)
  {}

  int run()
  {
    PTXW_BENCH_CHECK(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, 0));
    counter_.reserve(1);
    const int wrong = static_cast<Derived*>(this)->spmv();
    return static_cast<Derived*>(this)->mandelbrot() | wrong;
  }
};

// main() of either benchmark: its options (spmv_fractal_options), then Bench(o).run().
template <class Bench, class Options>
int spmv_fractal_main(int argc, char** argv, const char* program)
{
  const std::string usage = std::string(program) + " [--rows-log2 N] [--image-log2 N] [--view N] [--passes N]";
  return ptxw_bench::run_main<Bench, Options>(argc, argv, usage.c_str(),
                                              [&](Options& o, int& i) { return o.parse(i, argc, argv); });
}

} // namespace real_work
