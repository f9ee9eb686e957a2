// ptxw/host/device_array.h: what every host header of ptxw needs -- CUDA errors as exceptions, and device
// memory that frees itself.
#pragma once

#include <ptxw/config.h>

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>

PTXW_NAMESPACE_BEGIN
namespace detail {
// Throws std::runtime_error("ptxw: <what>: <CUDA's message>") unless err is cudaSuccess.
inline void cuda_check(cudaError_t err, const char* what)
{
  if (err != cudaSuccess)
  {
    throw std::runtime_error(std::string("ptxw: ") + what + ": " + cudaGetErrorString(err));
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
      : count_(count)
  {
    if (count != 0)
    {
      cuda_check(cudaMalloc(&ptr_, sizeof(T) * count), what);
    }
  }
  device_array(const device_array&)            = delete;
  device_array& operator=(const device_array&) = delete;
  ~device_array()
  {
    if (ptr_ != nullptr)
    {
      (void) cudaFree(ptr_);
    }
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

} // namespace detail
PTXW_NAMESPACE_END
