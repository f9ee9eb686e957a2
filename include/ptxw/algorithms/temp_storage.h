// ptxw/algorithms/temp_storage.h: the two-phase temporary-storage call of CUB's device-scope
// algorithms, and the checks every ptxw::device algorithm makes before it touches the GPU.
//
//   std::size_t bytes = 0;
//   ptxw::device::reduce(nullptr, bytes, in, out, n, op, init);    // 1. writes the size, launches nothing
//   cudaMalloc(&temp, bytes);
//   ptxw::device::reduce(temp, bytes, in, out, n, op, init);       // 2. runs
//
// The size depends on the algorithm, its arguments' sizes and the build's policies, never on the
// device, so it can be queried before a device is chosen. It is exact for any pointer: a buffer of
// exactly that many bytes works wherever it starts (the parts are aligned inside it), one byte less
// is refused with cudaErrorInvalidValue before anything is written or launched.
#pragma once

#include <ptxw/core/rules.h>

#include <cuda/std/type_traits>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

PTXW_NAMESPACE_BEGIN
namespace device::detail {
// Every part starts on a multiple of this (16-byte vector and 8-byte atomic accesses).
inline constexpr std::size_t part_alignment = 16;

constexpr std::size_t round_up(std::size_t bytes)
{
  return (bytes + part_alignment - 1) / part_alignment * part_alignment;
}

// N parts of given sizes, carved from one buffer in order.
template <int N>
struct temp_layout
{
  std::size_t bytes[N];

  // What the caller provides: the parts, each rounded up, plus what aligning an arbitrary start
  // takes; at least one byte, so that a zero-sized allocation is never asked for.
  constexpr std::size_t required() const
  {
    std::size_t total = 0;
    for (std::size_t b : bytes)
    {
      total += round_up(b);
    }
    return total + part_alignment - 1;
  }

  // The parts' addresses in `base` (already checked to hold required() bytes).
  void carve(void* base, void* (&parts)[N]) const
  {
    auto at = (reinterpret_cast<std::uintptr_t>(base) + part_alignment - 1) / part_alignment * part_alignment;
    for (int i = 0; i < N; ++i)
    {
      parts[i] = reinterpret_cast<void*>(at);
      at += round_up(bytes[i]);
    }
  }
};

// num_items as CUB takes it, of any integer type, in n; false (cudaErrorInvalidValue) where negative.
template <class NumItems>
constexpr bool item_count(NumItems num_items, unsigned long long& n)
{
  static_assert(::cuda::std::is_integral_v<NumItems>, PTXW_RULE(R18) "num_items is an integer");
  if constexpr (::cuda::std::is_signed_v<NumItems>)
  {
    if (num_items < 0)
    {
      return false;
    }
  }
  n = static_cast<unsigned long long>(num_items);
  return true;
}

// The steps every algorithm takes, in order, before it launches: a size query answers; too small
// a buffer is refused; then the stream must belong to the current device.
template <int N>
cudaError_t two_phase(const temp_layout<N>& layout, void* d_temp_storage, std::size_t& temp_storage_bytes,
                      void* (&parts)[N])
{
  if (d_temp_storage == nullptr)
  {
    temp_storage_bytes = layout.required();
    return cudaSuccess;
  }
  if (temp_storage_bytes < layout.required())
  {
    return cudaErrorInvalidValue;
  }
  layout.carve(d_temp_storage, parts);
  return cudaSuccess;
}

// cudaErrorInvalidDevice where `stream` belongs to another device than `device`, the current one.
// The default streams belong to the current device. A stream being captured into a graph cannot
// be asked (cudaStreamGetDevice is not permitted then); its launches become nodes of a graph that
// is instantiated for a device later, so it passes.
inline cudaError_t check_stream(cudaStream_t stream, int device)
{
  if (stream == 0 || stream == cudaStreamLegacy || stream == cudaStreamPerThread)
  {
    return cudaSuccess;
  }
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  int owner                       = device;
  cudaError_t err                 = cudaStreamIsCapturing(stream, &capture);
  if (err == cudaSuccess && capture == cudaStreamCaptureStatusNone)
  {
    err = cudaStreamGetDevice(stream, &owner);
  }
  return err != cudaSuccess ? err : owner == device ? cudaSuccess : cudaErrorInvalidDevice;
}
} // namespace device::detail
PTXW_NAMESPACE_END
