// Host side of the runtime tests: the fixture that skips without an sm_90 GPU, CUDA error checks,
// device buffers (ptxw's device_array, its errors returned), and the check of a kernel's
// ptxw_test::Report (device_check.h).
#pragma once

#include <ptxw/core/device_array.h>

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "device_check.h"

#define PTXW_CUDA_OK(expr)                                                                       \
  do                                                                                             \
  {                                                                                              \
    cudaError_t ptxw_err_ = (expr);                                                              \
    ASSERT_EQ(ptxw_err_, cudaSuccess) << #expr << ": " << cudaGetErrorString(ptxw_err_);         \
  } while (0)

// After a kernel launch: the launch itself, then the kernel's completion (a fault in the kernel is
// reported here).
#define PTXW_LAUNCH_OK()                                                                         \
  do                                                                                             \
  {                                                                                              \
    PTXW_CUDA_OK(cudaGetLastError());                                                            \
    PTXW_CUDA_OK(cudaDeviceSynchronize());                                                       \
  } while (0)

// A test that plants a violation for checked mode to report runs in checked builds only.
#define PTXW_SKIP_UNLESS_CHECKED()                                                                              \
  do                                                                                                             \
  {                                                                                                              \
    if (!ptxw::checked::on)                                                                                      \
    {                                                                                                            \
      GTEST_SKIP() << "checked mode is off in this build (PTXW_CHECKED=0): nothing would report the violation "  \
                      "this test plants";                                                                        \
    }                                                                                                            \
  } while (0)

class Gpu : public ::testing::Test
{
protected:
  void SetUp() override
  {
    int count      = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0)
    {
      GTEST_SKIP() << "no CUDA device: " << (err != cudaSuccess ? cudaGetErrorString(err) : "none found");
    }
    cudaDeviceProp prop{};
    PTXW_CUDA_OK(cudaGetDeviceProperties(&prop, 0));
    // The tests are built for sm_90a only; an sm_90a cubin does not load on sm_100 and later.
    if (prop.major != 9)
    {
      GTEST_SKIP() << prop.name << " is sm_" << prop.major << prop.minor << "; these tests are built for sm_90a";
    }
    max_dynamic_smem_ = static_cast<std::size_t>(prop.sharedMemPerBlockOptin);
    // A kernel that faulted (a broken barrier can make one: an arrival beyond the pending count
    // traps) leaves a sticky error that fails every later CUDA call of the process. Say so here
    // instead of in each later test's first call. CTest runs every test in a process of its own.
    const cudaError_t sticky = cudaDeviceSynchronize();
    if (sticky != cudaSuccess)
    {
      FAIL() << "the CUDA context is unusable (" << cudaGetErrorString(sticky)
             << "), most likely after a fault in an earlier test of this process; look at the first "
                "failure, or run this test alone";
    }
  }

  // Largest dynamic shared memory one block may opt into (cudaFuncAttributeMaxDynamicSharedMemorySize),
  // less `reserve` bytes for the kernel's static __shared__ variables.
  bool fits_dynamic_smem(std::size_t bytes, std::size_t reserve = 1024) const
  {
    return bytes + reserve <= max_dynamic_smem_;
  }

  std::size_t max_dynamic_smem_ = 0;
};

// `count` elements of T in ptxw's device_array. Every operation returns the CUDA error, so that callers
// wrap it in PTXW_CUDA_OK.
template <class T>
class DeviceBuffer
{
public:
  cudaError_t allocate(std::size_t count)
  {
    count_ = count;
    return array_.try_reserve(count);
  }
  // cudaMemset of every byte.
  cudaError_t fill_bytes(int value)
  {
    return cudaMemset(get(), value, count_ * sizeof(T));
  }
  cudaError_t upload(const std::vector<T>& host)
  {
    return cudaMemcpy(get(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  }
  // allocate(host.size()), then upload(host).
  cudaError_t assign(const std::vector<T>& host)
  {
    const cudaError_t e = allocate(host.size());
    return e != cudaSuccess ? e : upload(host);
  }
  // allocate(count), then fill_bytes(0).
  cudaError_t allocate_zeroed(std::size_t count)
  {
    const cudaError_t e = allocate(count);
    return e != cudaSuccess ? e : fill_bytes(0);
  }
  cudaError_t download(std::vector<T>& host) const
  {
    host.resize(count_);
    return cudaMemcpy(host.data(), get(), count_ * sizeof(T), cudaMemcpyDeviceToHost);
  }

  T* get() const
  {
    return array_.get();
  }
  std::size_t size() const
  {
    return count_;
  }

private:
  ::ptxw::detail::device_array<T> array_;
  std::size_t count_ = 0; // what allocate() asked for; the array may hold more
};

// A zeroed ptxw_test::Report on the device.
#define PTXW_NEW_REPORT(buffer)                                                                  \
  DeviceBuffer<::ptxw_test::Report> buffer;                                                      \
  PTXW_CUDA_OK(buffer.allocate_zeroed(1))

// Reads back a kernel's Report: no bounded wait ran out of budget, no device-side check failed, and
// exactly `expected_waits` bounded waits succeeded (so a kernel that did nothing cannot pass). The
// line numbers are those of the kernel, which lives in the same file as the test.
#define PTXW_EXPECT_REPORT(buffer, expected_waits)                                               \
  do                                                                                             \
  {                                                                                              \
    ::ptxw_test::Report ptxw_report_{};                                                          \
    PTXW_CUDA_OK(cudaMemcpy(&ptxw_report_, (buffer).get(), sizeof(ptxw_report_), cudaMemcpyDeviceToHost)); \
    EXPECT_EQ(ptxw_report_.timeouts, 0u)                                                         \
      << "a bounded wait ran out of budget (the phase never completed); first at " << __FILE__   \
      << ":" << ptxw_report_.first_timeout_line;                                                 \
    EXPECT_EQ(ptxw_report_.errors, 0u)                                                           \
      << "device-side checks failed; first at " << __FILE__ << ":" << ptxw_report_.first_error_line; \
    EXPECT_EQ(ptxw_report_.waits, static_cast<unsigned long long>(expected_waits))               \
      << "number of waits that saw their phase complete";                                        \
  } while (0)
