// benchmarks/real_work/spmv_fractal_options.cuh: the command line of the benchmarks that time
// power-law SpMV (pareto_csr.cuh) and Mandelbrot tiles (fractals.cuh) -- clc_ring.cu and
// clc_for_each_real.cu: the matrix's rows, the image's side, the view and the timed passes.
#pragma once

#include "../check.h"
#include "fractals.cuh"

namespace real_work {

template <long long MinRowsLog2, long long Passes>
struct spmv_fractal_options
{
  long long rows_log2  = 22;
  long long image_log2 = 12; // the Mandelbrot image is 2^N x 2^N pixels
  long long view       = 0;  // fractal_views[N]
  long long passes     = Passes;

  // Takes argv[i] (and its value) when it is one of these options.
  bool parse(int& i, int argc, char** argv)
  {
    constexpr long long views = sizeof(fractal_views) / sizeof(fractal_views[0]);
    return ptxw_bench::int_option(argc, argv, i, "--rows-log2", MinRowsLog2, 26, rows_log2)
        || ptxw_bench::int_option(argc, argv, i, "--image-log2", 6, 14, image_log2)
        || ptxw_bench::int_option(argc, argv, i, "--view", 0, views - 1, view)
        || ptxw_bench::int_option(argc, argv, i, "--passes", 1, 100, passes);
  }
};

} // namespace real_work
