// benchmarks/harness.h: what the benchmark programs share beyond check.h -- device memory (ptxw's
// device_array) and copies from it, the two-phase calls (CUB's convention, and ptxw::device's) on storage
// kept between calls, CUDA event timing, contenders timed in turn, and CSV files.
#pragma once

#include <ptxw/core/device_array.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "check.h"

namespace ptxw_bench {

// Device memory: ptxw's own arrays (grow on reserve(), copies to and from them) and two-phase calls on
// storage kept between calls, as a user keeps it.
using ptxw::detail::device_array;
using ptxw::detail::two_phase;

// n elements of T at p on the device, to the host.
template <class T>
std::vector<T> download(const T* p, std::size_t n)
{
  std::vector<T> h(n);
  PTXW_BENCH_CHECK(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

// Microseconds between two events recorded on the default stream around what body() enqueues: from
// an idle GPU the host's launch work shows in them.
class event_timer
{
  cudaEvent_t start_{}, stop_{};

public:
  event_timer()
  {
    PTXW_BENCH_CHECK(cudaEventCreate(&start_));
    PTXW_BENCH_CHECK(cudaEventCreate(&stop_));
  }
  event_timer(const event_timer&) = delete;
  event_timer& operator=(const event_timer&) = delete;
  ~event_timer()
  {
    (void) cudaEventDestroy(start_);
    (void) cudaEventDestroy(stop_);
  }
  template <class Body>
  double us(Body&& body)
  {
    PTXW_BENCH_CHECK(cudaEventRecord(start_));
    body();
    PTXW_BENCH_CHECK(cudaGetLastError()); // a launch body() made that failed
    PTXW_BENCH_CHECK(cudaEventRecord(stop_));
    PTXW_BENCH_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    PTXW_BENCH_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms * 1000.0;
  }
  // The best of `reps` timings of body().
  template <class Body>
  double best_us(int reps, Body&& body)
  {
    double best = us(body);
    for (int r = 1; r < reps; ++r)
    {
      best = std::min(best, us(body));
    }
    return best;
  }
};

// The least, median and greatest of a contender's timings over the rounds.
struct round_stats
{
  double min = 0, median = 0, max = 0;
};

inline round_stats stats_of(std::vector<double> v)
{
  round_stats s;
  if (v.empty())
  {
    return s;
  }
  std::sort(v.begin(), v.end());
  s.min    = v.front();
  s.max    = v.back();
  s.median = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  return s;
}

// The better of two timings; a program with a timing of several figures gives its type its own.
inline double best_of(double a, double b)
{
  return std::min(a, b);
}

// Each contender's time() in turn, `passes` times over (A B C A B C ...), and the best of each:
// timings drift over a run by more than the differences between contenders, so each is measured
// right beside the others.
template <class T, class... Time>
std::array<T, sizeof...(Time)> best_in_turn(int passes, Time&&... time)
{
  std::array<T, sizeof...(Time)> best{};
  for (int p = 0; p < passes; ++p)
  {
    std::size_t j = 0;
    ((best[j] = p == 0 ? time() : best_of(best[j], time()), ++j), ...);
  }
  return best;
}

// What a kernel costs in resources at a block size: registers a thread and CTAs an SM.
struct kernel_shape
{
  int regs;
  int per_sm;
};

template <class Kernel>
kernel_shape shape_of(Kernel kernel, int threads)
{
  cudaFuncAttributes a{};
  PTXW_BENCH_CHECK(cudaFuncGetAttributes(&a, kernel));
  int per_sm = 0;
  PTXW_BENCH_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
  return {a.numRegs, per_sm};
}

// A CSV file with its header line; nothing where the path is empty. A file that cannot be written ends
// the program with exit status 2 (nothing measured yet).
class csv_out
{
  std::FILE* f_ = nullptr;

public:
  csv_out(const std::string& path, const std::string& header)
  {
    if (!path.empty())
    {
      f_ = std::fopen(path.c_str(), "w");
      if (f_ == nullptr)
      {
        std::fprintf(stderr, "cannot write %s\n", path.c_str());
        std::exit(2);
      }
      std::fprintf(f_, "%s\n", header.c_str());
    }
  }
  csv_out(const csv_out&)            = delete;
  csv_out& operator=(const csv_out&) = delete;
  ~csv_out()
  {
    if (f_ != nullptr)
    {
      std::fclose(f_);
    }
  }
  explicit operator bool() const
  {
    return f_ != nullptr;
  }
  // One row: printf's format (without the line's end) and its arguments.
  __attribute__((format(printf, 2, 3))) void row(const char* format, ...)
  {
    if (f_ != nullptr)
    {
      std::va_list args;
      va_start(args, format);
      std::vfprintf(f_, format, args);
      va_end(args);
      std::fputc('\n', f_);
    }
  }
  // What the rows so far wrote, to the file: a run cut short keeps them.
  void flush()
  {
    if (f_ != nullptr)
    {
      std::fflush(f_);
    }
  }
};

} // namespace ptxw_bench
