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

#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>

namespace ptxw_bench {
// `--name V` at argv[i]: V clamped to [lo, hi] into out, i past it; false if argv[i] is not that.
inline bool int_option(int argc, char** argv, int& i, const char* name, long long lo, long long hi, long long& out)
{
  if (std::strcmp(argv[i], name) != 0 || i + 1 >= argc)
  {
    return false;
  }
  out = std::min(hi, std::max(lo, std::atoll(argv[++i])));
  return true;
}

// Exit status 2 (nothing measured) where there is no CUDA device.
inline void require_device()
{
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
  {
    std::printf("no CUDA device\n");
    std::exit(2);
  }
}
} // namespace ptxw_bench
