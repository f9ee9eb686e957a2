// PTX forms behind ptxw/inter_block/last_block.h and ptxw/inter_block/work_queue.h: atom with an explicit .sem and .scope on
// global memory, which cuda::ptx (CCCL 3.0.1) has no binding for, and the gpu-scope acq_rel fence,
// which it has (forwarded here with ptxw's gate).
//
// What ptxas 13.0 emits (sm_90a and sm_100a alike, tests/codegen/last_block): atom.release.gpu is
// MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR; ATOMG.E.ADD.STRONG.GPU; fence.acq_rel.gpu is MEMBAR.ALL.GPU;
// ERRBAR; CGAERRBAR; CCTL.IVALL (the L1 invalidation is the acquire); atom.relaxed.gpu is the ATOMG
// alone. For comparison __threadfence() (fence.sc.gpu) is MEMBAR.SC.GPU; ERRBAR; CGAERRBAR;
// CCTL.IVALL.
#pragma once

#include <ptxw/isa/qualifiers.h>

#if PTXW_CCCL_FAMILY_HEADERS
#  include <cuda/__ptx/instructions/fence.h>
#endif

PTXW_NAMESPACE_BEGIN
namespace detail::isa {
// The count types atom.add takes as unsigned integers: .u32 and .u64.
template <class Count>
inline constexpr bool is_atom_count = (is_same_v<Count, unsigned> || is_same_v<Count, unsigned long>
                                       || is_same_v<Count, unsigned long long>)
                                   && (sizeof(Count) == 4 || sizeof(Count) == 8);

// atom{.sem}{.scope}{.space}.add.type d, [a], b;  .sem = .release; .scope = .gpu; .space = .global;
// .type = .u32, .u64  // PTX ISA 60, SM_70 (.sem and .scope: PTX ISA 6.0, sm_70). Other sizes emit
// nothing: their callers fail with R18 (is_atom_count).
template <class Count>
__device__ Count atom_add_release_gpu(Count* addr, Count value)
{
  constexpr bool target_ok = qualifiers::on_target<qualifiers::atom_add, dependent_t<ptx::sem_release_t, Count>,
                                                  ptx::scope_gpu_t, ptx::space_global_t>();
  Count old = 0;
  if constexpr (target_ok && sizeof(Count) == 4)
  {
    asm volatile("atom.release.gpu.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(addr), "r"(value) : "memory");
  }
  else if constexpr (target_ok && sizeof(Count) == 8)
  {
    asm volatile("atom.release.gpu.global.add.u64 %0, [%1], %2;" : "=l"(old) : "l"(addr), "l"(value) : "memory");
  }
  return old;
}

// @p atom.relaxed.gpu.global.add.u64 d, [a], b;  // PTX ISA 60, SM_70
// Predicated, and `d` output only: where p is false nothing is written and d is not to be read.
// A branch around the atomic would end in a copy of its result, where the compiler waits for it;
// predicated, its result stays in the register the atomic writes until the caller first uses it.
template <class Deferred = void>
__device__ void atom_add_relaxed_gpu_if(bool p, unsigned long long* addr, unsigned long long value,
                                        unsigned long long& d)
{
  constexpr bool target_ok = qualifiers::on_target<qualifiers::atom_add, dependent_t<ptx::sem_relaxed_t, Deferred>,
                                                  ptx::scope_gpu_t, ptx::space_global_t>();
  if constexpr (target_ok)
  {
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %3, 0;\n\t@p atom.relaxed.gpu.global.add.u64 %0, [%1], %2;\n\t}"
                 : "=l"(d)
                 : "l"(addr), "l"(value), "r"(p ? 1u : 0u)
                 : "memory");
  }
}

// fence.acq_rel.gpu;  // PTX ISA 60, SM_70 (cuda::ptx::fence(sem_acq_rel, scope_gpu))
template <class Deferred = void>
__device__ void fence_acq_rel_gpu()
{
  constexpr bool target_ok = qualifiers::on_target<qualifiers::fence, dependent_t<ptx::sem_acq_rel_t, Deferred>, ptx::scope_gpu_t>();
  if constexpr (target_ok)
  {
    ptx::fence(ptx::sem_acq_rel, ptx::scope_gpu);
  }
}

} // namespace detail::isa
PTXW_NAMESPACE_END
