// PTX forms cuda::ptx (CCCL 3.0.1) lacks on a shared::cta mbarrier: complete_tx and inval.
// Qualifier legality and target gates are checked by the callers in ptxw/mbarrier/barrier.h.
#pragma once

#include <ptxw/target.h>
#include <cuda/std/cstdint>

PTXW_NAMESPACE_BEGIN
namespace detail::isa {
// mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [addr], txCount;      // PTX ISA 80, SM_90
// mbarrier.complete_tx.relaxed.cluster.shared::cta.b64 [addr], txCount;  // PTX ISA 80, SM_90
template <::cuda::ptx::dot_scope Scope>
__device__ inline void
mbarrier_complete_tx(::cuda::ptx::scope_t<Scope>, ::cuda::std::uint32_t addr, ::cuda::std::uint32_t tx_count)
{
  if constexpr (Scope == ::cuda::ptx::dot_scope::cta)
  {
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" : : "r"(addr), "r"(tx_count) : "memory");
  }
  else
  {
    asm volatile("mbarrier.complete_tx.relaxed.cluster.shared::cta.b64 [%0], %1;"
                 :
                 : "r"(addr), "r"(tx_count)
                 : "memory");
  }
}

// mbarrier.inval.shared::cta.b64 [addr];  // PTX ISA 70, SM_80
__device__ inline void mbarrier_inval(::cuda::std::uint32_t addr)
{
  asm volatile("mbarrier.inval.shared::cta.b64 [%0];" : : "r"(addr) : "memory");
}

} // namespace detail::isa
PTXW_NAMESPACE_END