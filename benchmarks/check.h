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
#include <string>
#include <vector>

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

// `--name V` at argv[i]: V into out, i past it; false if argv[i] is not that.
inline bool string_option(int argc, char** argv, int& i, const char* name, std::string& out)
{
  if (std::strcmp(argv[i], name) != 0 || i + 1 >= argc)
  {
    return false;
  }
  out = argv[++i];
  return true;
}

// `--name A,B,...` at argv[i]: its non-empty items, replacing out, i past it; false if argv[i] is not that.
inline bool list_option(int argc, char** argv, int& i, const char* name, std::vector<std::string>& out)
{
  std::string v;
  if (!string_option(argc, argv, i, name, v))
  {
    return false;
  }
  out.clear();
  for (std::size_t p = 0; p <= v.size();)
  {
    const std::size_t q = std::min(v.find(',', p), v.size());
    if (q > p)
    {
      out.push_back(v.substr(p, q - p));
    }
    p = q + 1;
  }
  return true;
}

// `name` at argv[i]: value into out; false if argv[i] is not that.
inline bool flag_option(char** argv, int i, const char* name, bool& out, bool value = true)
{
  if (std::strcmp(argv[i], name) != 0)
  {
    return false;
  }
  out = value;
  return true;
}

// Exit status 2 (nothing measured) where there is no CUDA device, or where the program was built as
// a compile check (outside a Release build: benchmarks/CMakeLists.txt), whose times would mean nothing.
inline void require_device()
{
#if defined(PTXW_BENCH_COMPILE_CHECK)
  std::printf("built as a compile check (device code at --Ofast-compile=max): measure from a build configured with "
              "-DCMAKE_BUILD_TYPE=Release\n");
  std::exit(2);
#endif
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
  {
    std::printf("no CUDA device\n");
    std::exit(2);
  }
}

// Every argument taken by option(o, i) (which moves i past a value it takes; false: not an option
// of this program); else the usage on stderr and false.
template <class Options, class Option>
bool parse_options(int argc, char** argv, const char* usage, Options& o, Option option)
{
  for (int i = 1; i < argc; ++i)
  {
    if (!option(o, i))
    {
      std::fprintf(stderr, "usage: %s\n", usage);
      return false;
    }
  }
  return true;
}

// A benchmark's main: the arguments (parse_options), else exit status 2; then Bench(o).run() on the
// device, whose status is the program's.
template <class Bench, class Options, class Option>
int run_main(int argc, char** argv, const char* usage, Option option)
{
  Options o;
  if (!parse_options(argc, argv, usage, o, option))
  {
    return 2;
  }
  require_device();
  Bench bench(o);
  return bench.run();
}
} // namespace ptxw_bench
