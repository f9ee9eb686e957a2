// PTX forms cuda::ptx (CCCL 3.0.1) lacks: mapa into the shared::cluster window.
//
// CCCL's remote mbarrier bindings take a generic pointer (from __cluster_map_shared_rank) and
// convert it back with cvta; ptxas keeps the round trip (S2R SR_SWINHI and four MOVs per remote
// operation on sm_90a and sm_100a, ptxas 13.0). mapa.shared::cluster yields the 32-bit
// shared::cluster address directly, which the remote bindings in this folder take.
#pragma once

#include <ptxw/core/config.h>

#include <cuda/std/cstdint>

PTXW_NAMESPACE_BEGIN
namespace detail::isa {
// mapa.shared::cluster.u32 d, a, b;  // PTX ISA 78, SM_90
__device__ inline ::cuda::std::uint32_t mapa_shared_cluster(::cuda::std::uint32_t local_smem_addr,
                                                            ::cuda::std::uint32_t rank)
{
  ::cuda::std::uint32_t remote;
  asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local_smem_addr), "r"(rank));
  return remote;
}

// The shared::cta address of a generic pointer into this CTA's shared memory.
__device__ inline ::cuda::std::uint32_t smem_addr(const void* p)
{
  return static_cast<::cuda::std::uint32_t>(__cvta_generic_to_shared(p));
}

} // namespace detail::isa
PTXW_NAMESPACE_END