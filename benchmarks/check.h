// benchmarks/check.h: the benchmark programs' CUDA error check. A failed call prints where and what
// failed and ends the program with exit status 1: a benchmark that cannot run has measured nothing.
#pragma once

#include <cstdio>
#include <cstdlib>

#define PTXW_BENCH_CHECK(expr)                                                                                         \
  do                                                                                                                   \
  {                                                                                                                    \
    const cudaError_t e_ = (expr);                                                                                     \
    if (e_ != cudaSuccess)                                                                                             \
    {                                                                                                                  \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #expr, cudaGetErrorString(e_));                    \
      std::exit(1);                                                                                                    \
    }                                                                                                                  \
  } while (0)
