// benchmarks/harness.h: what the benchmark programs share beyond check.h -- device memory that grows
// (and copies to and from it), the two-phase calls (CUB's convention, and ptxw::device's) on storage
// kept between calls, CUDA event timing, and contenders timed in turn.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

#include "check.h"

namespace ptxw_bench {

// An owning device array; grows on reserve(), never shrinks until release().
template <class T>
class device_array
{
  T* p_              = nullptr;
  std::size_t count_ = 0;

public:
  device_array() = default;
  device_array(const device_array&) = delete;
  device_array& operator=(const device_array&) = delete;
  ~device_array()
  {
    release();
  }
  void reserve(std::size_t count)
  {
    if (count > count_)
    {
      release();
      PTXW_BENCH_CHECK(cudaMalloc(&p_, count * sizeof(T)));
      count_ = count;
    }
  }
  void release()
  {
    if (p_ != nullptr)
    {
      PTXW_BENCH_CHECK(cudaFree(p_));
    }
    p_     = nullptr;
    count_ = 0;
  }
  T* get() const
  {
    return p_;
  }
  std::size_t capacity() const
  {
    return count_;
  }
};

// n elements of T at p on the device, to the host.
template <class T>
std::vector<T> download(const T* p, std::size_t n)
{
  std::vector<T> h(n);
  PTXW_BENCH_CHECK(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

// The host's elements into d, grown to hold them.
template <class T>
void upload(device_array<T>& d, const std::vector<T>& h)
{
  d.reserve(h.size());
  PTXW_BENCH_CHECK(cudaMemcpy(d.get(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
}

// A two-phase call, call(storage, bytes): with a null storage it only sets bytes (host arithmetic),
// then it runs on `temp`, grown to fit and kept, as a user keeps it between calls.
template <class Call>
void two_phase(device_array<unsigned char>& temp, Call call)
{
  std::size_t bytes = 0;
  PTXW_BENCH_CHECK(call(static_cast<void*>(nullptr), bytes));
  temp.reserve(bytes > 0 ? bytes : 1);
  bytes = temp.capacity();
  PTXW_BENCH_CHECK(call(static_cast<void*>(temp.get()), bytes));
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
    PTXW_BENCH_CHECK(cudaEventRecord(stop_));
    PTXW_BENCH_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    PTXW_BENCH_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms * 1000.0;
  }
};

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

} // namespace ptxw_bench
