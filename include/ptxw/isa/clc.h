// PTX forms behind ptxw/clc/handle.h that cuda::ptx (CCCL 3.0.1) lacks or gates differently from ptxas.
#pragma once

#include <ptxw/core/target.h>

PTXW_NAMESPACE_BEGIN
namespace detail::isa {
// clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128
//   [addr], [smem_bar];  // PTX ISA 86, sm_XXa/sm_XXf of the 100, 103, 110, 120, 121 families.
// CCCL 3.0.1 emits it only for SM100_ALL/SM101_ALL (sm_100a) and links to an undefined symbol
// elsewhere, although ptxas 13.0 accepts it on every arch- or family-specific Blackwell target.
__device__ inline void try_cancel_multicast(::cuda::std::uint32_t addr, ::cuda::std::uint32_t bar)
{
  asm volatile("clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes."
               "multicast::cluster::all.b128 [%0], [%1];"
               :
               : "r"(addr), "r"(bar)
               : "memory");
}

// cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster
//   [dstMem], [srcMem], size, [mbar], ctaMask;  // PTX ISA 80, SM_90. CCCL 3.0.1 gates it to sm_90a
// and sm_100a; ptxas 13.0 accepts it from sm_90 on (with an advisory note on targets other than
// sm_90a, sm_100a/f, sm_103a/f, sm_110a/f). Used by the emulation to deliver a multicast response.
__device__ inline void cp_async_bulk_multicast(::cuda::std::uint32_t dst, const void* src,
                                               ::cuda::std::uint32_t size, ::cuda::std::uint32_t bar,
                                               ::cuda::std::uint16_t mask)
{
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster "
               "[%0], [%1], %2, [%3], %4;"
               :
               : "r"(dst), "l"(static_cast<::cuda::std::uint64_t>(__cvta_generic_to_global(src))), "r"(size), "r"(bar),
                 "h"(mask)
               : "memory");
}

} // namespace detail::isa
PTXW_NAMESPACE_END