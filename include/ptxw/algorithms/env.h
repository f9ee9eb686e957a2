// ptxw/algorithms/env.h: the one-call form of the device-scope algorithms -- the stream and a memory
// resource in an environment; the algorithm queries its temporary storage, allocates it from the
// resource, runs and frees it, all ordered on the stream.
//
//   ptxw::device::reduce(in, out, n, op, init, ptxw::device::env{stream});         // cudaMallocAsync
//   ptxw::device::reduce(in, out, n, op, init, ptxw::device::env{stream, my_pool}); // the caller's resource
//
// CUB's environment overloads (CCCL 3.1 and newer) take a cuda::std::execution::env of a stream, a
// memory resource and tuning; CCCL 3.0.1 (CUDA 13.0) has neither those overloads nor the env type,
// and its memory resources are experimental (LIBCUDACXX_ENABLE_EXPERIMENTAL_MEMORY_RESOURCE). This
// is the closest equivalent: a resource is anything with CCCL's asynchronous-resource interface,
// allocate_async(bytes, alignment, cuda::stream_ref) and deallocate_async(ptr, bytes, alignment,
// cuda::stream_ref), so CCCL's own resources plug in where enabled; tuning is the selector, a template
// argument as in the two-phase form. A resource that throws, or returns null, is a
// cudaErrorMemoryAllocation; ptxw's own resource returns null and never throws, so the device-scope
// algorithms build without exceptions (-fno-exceptions) and never throw (tests/runtime: the device
// tests are built so).
#pragma once

#include <ptxw/core/config.h>

#include <cuda/stream_ref>

#include <cuda_runtime.h>

#include <cstddef>
#include <exception>

PTXW_NAMESPACE_BEGIN
namespace device {
// Stream-ordered allocation from the device's default memory pool (cudaMallocAsync); null where it
// fails.
struct stream_ordered_resource
{
  void* allocate_async(std::size_t bytes, std::size_t /* alignment: 256 from the pool */, ::cuda::stream_ref stream)
  {
    void* p = nullptr;
    return cudaMallocAsync(&p, bytes, stream.get()) == cudaSuccess ? p : nullptr;
  }
  void deallocate_async(void* p, std::size_t, std::size_t, ::cuda::stream_ref stream)
  {
    (void) cudaFreeAsync(p, stream.get());
  }
};

template <class Resource = stream_ordered_resource>
struct env
{
  cudaStream_t stream = 0;
  Resource resource{};
};
env()->env<stream_ordered_resource>;
env(cudaStream_t)->env<stream_ordered_resource>;
template <class Resource>
env(cudaStream_t, Resource) -> env<Resource>;

namespace detail {
// Both phases of `algorithm(d_temp, bytes)` with storage from e.resource, freed on e.stream after
// the run (also where the run failed).
template <class Resource, class Algorithm>
cudaError_t with_temp_storage(env<Resource>& e, Algorithm&& algorithm)
{
  std::size_t bytes = 0;
  if (const cudaError_t err = algorithm(nullptr, bytes); err != cudaSuccess)
  {
    return err;
  }
  void* temp = nullptr;
#if defined(__cpp_exceptions)
  try
  {
    temp = e.resource.allocate_async(bytes, alignof(std::max_align_t), ::cuda::stream_ref(e.stream));
  }
  catch (const std::exception&)
  {
    return cudaErrorMemoryAllocation;
  }
#else
  temp = e.resource.allocate_async(bytes, alignof(std::max_align_t), ::cuda::stream_ref(e.stream));
#endif
  if (temp == nullptr)
  {
    return cudaErrorMemoryAllocation;
  }
  const cudaError_t err = algorithm(temp, bytes);
  e.resource.deallocate_async(temp, bytes, alignof(std::max_align_t), ::cuda::stream_ref(e.stream));
  return err;
}
} // namespace detail
} // namespace device
PTXW_NAMESPACE_END
