// PTX forms cuda::ptx (CCCL 3.0.1) lacks: mbarrier operations on a shared::cluster address.
// See mapa.h for why these take a 32-bit shared::cluster address instead of a generic pointer.
// Qualifier legality and target gates are checked by the callers in ptxw/mbarrier/barrier.h.
#pragma once

#include <ptxw/target.h>
#include <cuda/std/cstdint>

PTXW_NAMESPACE_BEGIN
namespace detail::isa {
// mbarrier.arrive.release.cluster.shared::cluster.b64 _, [addr];         // PTX ISA 80, SM_90
// mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [addr];         // PTX ISA 86, SM_90
template <::cuda::ptx::dot_sem Sem>
__device__ inline void mbarrier_arrive_remote(::cuda::ptx::sem_t<Sem>, ::cuda::std::uint32_t addr)
{
  if constexpr (Sem == ::cuda::ptx::dot_sem::release)
  {
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" : : "r"(addr) : "memory");
  }
  else
  {
    asm volatile("mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%0];" : : "r"(addr) : "memory");
  }
}

// mbarrier.arrive.release.cluster.shared::cluster.b64 _, [addr], count;  // PTX ISA 80, SM_90
// mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [addr], count;  // PTX ISA 86, SM_90
template <::cuda::ptx::dot_sem Sem>
__device__ inline void
mbarrier_arrive_remote(::cuda::ptx::sem_t<Sem>, ::cuda::std::uint32_t addr, ::cuda::std::uint32_t count)
{
  if constexpr (Sem == ::cuda::ptx::dot_sem::release)
  {
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0], %1;"
                 :
                 : "r"(addr), "r"(count)
                 : "memory");
  }
  else
  {
    asm volatile("mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%0], %1;"
                 :
                 : "r"(addr), "r"(count)
                 : "memory");
  }
}

// mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [addr], txCount;  // PTX ISA 80, SM_90
__device__ inline void mbarrier_complete_tx_remote(::cuda::std::uint32_t addr, ::cuda::std::uint32_t tx_count)
{
  asm volatile("mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [%0], %1;"
               :
               : "r"(addr), "r"(tx_count)
               : "memory");
}

} // namespace detail::isa
PTXW_NAMESPACE_END