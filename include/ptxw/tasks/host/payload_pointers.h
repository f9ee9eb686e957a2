// ptxw/tasks/host/payload_pointers.h: R31, checked on the host before a launch -- a seeded task's
// pointers point into memory the device can read. Which pointers a task holds: the task itself where
// T is a pointer, else what T's member `pointers()` returns (any range of pointers), else none.
//
//   struct cell_task { float* data; int level; auto pointers() const { return std::array{data}; } };
//
// A pointer is readable when the CUDA runtime knows it as device, managed or pinned host memory
// (cudaPointerGetAttributes; pinned memory is mapped under unified addressing); null is left alone
// (a task may use it as "none"). Memory freed back to the runtime is refused; memory a stream-ordered
// pool (cudaFreeAsync) still holds is mapped, so it counts as live, and pageable host memory is
// refused even where the device could read it (HMM, ATS): a task pool's payloads are read by every
// block, at device speed. Pointers that tasks push on the device cannot be checked there: the device
// knows no allocations.
#pragma once

#include <ptxw/core/rules.h>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

PTXW_NAMESPACE_BEGIN
namespace detail::tasks {

template <class T, class = void>
struct has_pointers : std::false_type
{};
template <class T>
struct has_pointers<T, std::void_t<decltype(std::declval<const T&>().pointers())>> : std::true_type
{};

// Refuses p (of seed `seed`) unless it is null or points into memory the device can read.
inline void check_payload_pointer(const void* p, std::size_t seed)
{
  if (p == nullptr)
  {
    return;
  }
  cudaPointerAttributes a{};
  const cudaError_t e = cudaPointerGetAttributes(&a, p);
  if (e == cudaSuccess
      && (a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged || a.type == cudaMemoryTypeHost))
  {
    return;
  }
  (void) cudaGetLastError(); // the query's error, if any, is this refusal
  char where[32];
  std::snprintf(where, sizeof where, "%p", p);
  throw std::runtime_error(std::string(PTXW_RULE(R31)) + "seed " + std::to_string(seed) + " points to " + where
                           + ", in no live CUDA allocation (freed, or pageable host memory): a task's pointers "
                             "point into device, managed or pinned host memory");
}

// Every seed's pointers (none where T says of none).
template <class T>
void check_payload_pointers(const std::vector<T>& seeds)
{
  for (std::size_t i = 0; i < seeds.size(); ++i)
  {
    if constexpr (std::is_pointer_v<T>)
    {
      check_payload_pointer(static_cast<const void*>(seeds[i]), i);
    }
    else if constexpr (has_pointers<T>::value)
    {
      for (const auto* p : seeds[i].pointers())
      {
        check_payload_pointer(static_cast<const void*>(p), i);
      }
    }
  }
}
} // namespace detail::tasks
PTXW_NAMESPACE_END
