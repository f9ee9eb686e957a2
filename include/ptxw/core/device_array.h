// ptxw/core/device_array.h: what every host header of ptxw needs -- CUDA errors as exceptions, and device
// memory that frees itself (and grows, for the examples and benchmarks that keep buffers between calls).
#pragma once

#include <ptxw/core/config.h>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

PTXW_NAMESPACE_BEGIN
namespace detail {
// Throws std::runtime_error("ptxw: <what>: <CUDA's message>") unless err is cudaSuccess. Built without
// exceptions (-fno-exceptions: host code that reports errors as values includes this header for device_array),
// it prints that and aborts.
inline void cuda_check(cudaError_t err, const char* what)
{
  if (err != cudaSuccess)
  {
#if defined(__cpp_exceptions)
    throw std::runtime_error(std::string("ptxw: ") + what + ": " + cudaGetErrorString(err));
#else
    std::fprintf(stderr, "ptxw: %s: %s\n", what, cudaGetErrorString(err));
    std::abort();
#endif
  }
}

// `count` elements of T in device memory, owned.
template <class T>
class device_array
{
  T* ptr_            = nullptr;
  std::size_t count_ = 0;

public:
  device_array() = default;
  device_array(std::size_t count, const char* what)
  {
    reserve(count, what);
  }
  device_array(const device_array&)            = delete;
  device_array& operator=(const device_array&) = delete;
  ~device_array()
  {
    release();
  }

  // Room for `count` elements: a larger array (the contents not kept) where this one is smaller; never shrinks.
  void reserve(std::size_t count, const char* what = "allocating device memory")
  {
    cuda_check(try_reserve(count), what);
  }
  // reserve() with the error returned instead of reported.
  cudaError_t try_reserve(std::size_t count) noexcept
  {
    if (count <= count_)
    {
      return cudaSuccess;
    }
    release();
    const cudaError_t err = cudaMalloc(&ptr_, sizeof(T) * count);
    count_                = err == cudaSuccess ? count : 0;
    return err;
  }
  void release() noexcept
  {
    if (ptr_ != nullptr)
    {
      (void) cudaFree(ptr_);
    }
    ptr_   = nullptr;
    count_ = 0;
  }
  // The host's elements to the front, the array grown to hold them.
  void upload(const std::vector<T>& host, const char* what = "copying to the device")
  {
    reserve(host.size(), what);
    cuda_check(cudaMemcpy(ptr_, host.data(), sizeof(T) * host.size(), cudaMemcpyHostToDevice), what);
  }
  // Elements [first, first + n) to the host.
  std::vector<T> download(std::size_t n, std::size_t first = 0, const char* what = "copying to the host") const
  {
    std::vector<T> host(n);
    cuda_check(cudaMemcpy(host.data(), ptr_ + first, sizeof(T) * n, cudaMemcpyDeviceToHost), what);
    return host;
  }

  T* get() const noexcept
  {
    return ptr_;
  }
  std::size_t size() const noexcept
  {
    return count_;
  }
};

// A two-phase call, call(storage, bytes) (CUB's convention, and ptxw::device's): with a null storage it only sets
// bytes, then it runs on `temp`, grown to fit and kept, as a caller keeps it between calls.
template <class Call>
void two_phase(device_array<unsigned char>& temp, Call call, const char* what = "a two-phase call")
{
  std::size_t bytes = 0;
  cuda_check(call(static_cast<void*>(nullptr), bytes), what);
  temp.reserve(bytes > 0 ? bytes : 1, what);
  bytes = temp.size();
  cuda_check(call(static_cast<void*>(temp.get()), bytes), what);
}

} // namespace detail
PTXW_NAMESPACE_END
