// PTX forms cuda::ptx (CCCL 3.0.1) lacks: the named CTA barrier with a thread count.
#pragma once

#include <ptxw/core/target.h>
#include <cuda/std/cstdint>

PTXW_NAMESPACE_BEGIN
namespace detail::isa {
// bar.sync id, count;  // PTX ISA 20, SM_30. count: a multiple of 32, the threads that take part.
__device__ inline void bar_sync(::cuda::std::uint32_t id, ::cuda::std::uint32_t count)
{
  asm volatile("bar.sync %0, %1;" : : "r"(id), "r"(count) : "memory");
}
} // namespace detail::isa
PTXW_NAMESPACE_END
