// PTX forms cuda::ptx (CCCL 3.0.1) lacks on a shared::cta mbarrier: complete_tx, inval, and the .layout
// forms of init and check_layout. Qualifier legality and target gates are checked by the callers in
// ptxw/mbarrier/barrier.h.
#pragma once

#include <ptxw/detail/qualifiers.h>
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

// mbarrier.init.layout::v1.shared::cta.b64 [addr], count;  // PTX ISA 93, SM_90
__device__ inline void mbarrier_init_layout_v1(::cuda::std::uint32_t addr, ::cuda::std::uint32_t count)
{
  asm volatile("mbarrier.init.layout::v1.shared::cta.b64 [%0], %1;" : : "r"(addr), "r"(count) : "memory");
}

// A predicate leaves inline PTX as a 32-bit value. Not volatile: a check whose result is unread may
// go (ptxas drops one too); the memory clobber keeps it after the init whose layout it reads.
// mbarrier.check_layout.layout::v0.shared::cta.b64 p, [addr];  // PTX ISA 93, SM_90
__device__ inline bool mbarrier_check_layout(layout_v0_t, ::cuda::std::uint32_t addr)
{
  ::cuda::std::uint32_t p;
  asm("{\n\t.reg .pred p;\n\t"
      "mbarrier.check_layout.layout::v0.shared::cta.b64 p, [%1];\n\t"
      "selp.b32 %0, 1, 0, p;\n\t}"
      : "=r"(p)
      : "r"(addr)
      : "memory");
  return p != 0;
}

// mbarrier.check_layout.layout::v1.shared::cta.b64 p, [addr];  // PTX ISA 93, SM_90
__device__ inline bool mbarrier_check_layout(layout_v1_t, ::cuda::std::uint32_t addr)
{
  ::cuda::std::uint32_t p;
  asm("{\n\t.reg .pred p;\n\t"
      "mbarrier.check_layout.layout::v1.shared::cta.b64 p, [%1];\n\t"
      "selp.b32 %0, 1, 0, p;\n\t}"
      : "=r"(p)
      : "r"(addr)
      : "memory");
  return p != 0;
}

} // namespace detail::isa
PTXW_NAMESPACE_END