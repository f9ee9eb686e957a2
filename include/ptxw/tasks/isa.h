// ptxw/tasks/isa.h: the PTX forms of the task pools' protocols -- loads, stores and CAS with an
// explicit .sem and .scope on global memory (sm_70, PTX ISA 6.0), which cuda::ptx has no binding
// for. cuda::atomic_ref emits the same .sem and .scope but on generic addresses: ptxas then makes
// LD/ST/ATOM.E (and, for a 64-bit CAS, a fallback path for shared memory) where these give
// LDG/STG/ATOMG. The fence is cuda::ptx's.
//
// What ptxas 13.0 emits on sm_90a (tests/codegen/tasks): st.relaxed.gpu STG.E.64.STRONG.GPU;
// st.release.gpu MEMBAR.ALL.GPU + STG.E.64.STRONG.GPU; ld.relaxed.gpu LDG.E.64.STRONG.GPU;
// ld.acquire.gpu LDG.E.64.STRONG.GPU + CCTL.IVALL; fence.sc.gpu MEMBAR.SC.GPU (+ ERRBAR, CGAERRBAR,
// CCTL.IVALL); atom.acq_rel.gpu.cas MEMBAR.ALL.GPU + ATOMG.E.CAS.64.STRONG.GPU + CCTL.IVALL.
#pragma once

#include <ptxw/target.h>

#if PTXW_CCCL_FAMILY_HEADERS
#  include <cuda/__ptx/instructions/fence.h>
#endif

PTXW_NAMESPACE_BEGIN
namespace detail::tasks::isa {
// ld.relaxed.gpu.global.b64 d, [a];  // PTX ISA 60, SM_70
__device__ inline long long ld_relaxed(const long long* a)
{
  long long d;
  asm volatile("ld.relaxed.gpu.global.b64 %0, [%1];" : "=l"(d) : "l"(a) : "memory");
  return d;
}

// ld.acquire.gpu.global.b64 d, [a];  // PTX ISA 60, SM_70
template <class W>
__device__ W ld_acquire(const W* a)
{
  static_assert(sizeof(W) == 8, "a 64-bit word");
  W d;
  asm volatile("ld.acquire.gpu.global.b64 %0, [%1];" : "=l"(d) : "l"(a) : "memory");
  return d;
}

// st.relaxed.gpu.global.b64 [a], v;  // PTX ISA 60, SM_70
__device__ inline void st_relaxed(long long* a, long long v)
{
  asm volatile("st.relaxed.gpu.global.b64 [%0], %1;" ::"l"(a), "l"(v) : "memory");
}

// st.release.gpu.global.b64 [a], v;  // PTX ISA 60, SM_70
template <class W>
__device__ void st_release(W* a, W v)
{
  static_assert(sizeof(W) == 8, "a 64-bit word");
  asm volatile("st.release.gpu.global.b64 [%0], %1;" ::"l"(a), "l"(v) : "memory");
}

// fence.sc.gpu;  // PTX ISA 60, SM_70: the one fence that orders a store before a later load.
__device__ inline void fence_sc()
{
  ptx::fence(ptx::sem_sc, ptx::scope_gpu);
}

// atom.acq_rel.gpu.global.cas.b64 d, [a], expected, desired;  // PTX ISA 60, SM_70. True where it swapped.
template <class W>
__device__ bool cas_acq_rel(W* a, W expected, W desired)
{
  static_assert(sizeof(W) == 8, "a 64-bit word");
  W old;
  asm volatile("atom.acq_rel.gpu.global.cas.b64 %0, [%1], %2, %3;"
               : "=l"(old)
               : "l"(a), "l"(expected), "l"(desired)
               : "memory");
  return old == expected;
}

// red.release.gpu.global.add.u64 [a], v;  // PTX ISA 60, SM_70
__device__ inline void add_release(unsigned long long* a, unsigned long long v)
{
  asm volatile("red.release.gpu.global.add.u64 [%0], %1;" ::"l"(a), "l"(v) : "memory");
}

// red.relaxed.gpu.global.add.u64 [a], v;  // PTX ISA 60, SM_70
__device__ inline void add_relaxed(unsigned long long* a, unsigned long long v)
{
  asm volatile("red.relaxed.gpu.global.add.u64 [%0], %1;" ::"l"(a), "l"(v) : "memory");
}
} // namespace detail::tasks::isa
PTXW_NAMESPACE_END
