// PTX forms behind ptxw/tasks.h's protocols -- loads, stores, CAS and adds with an
// explicit .sem and .scope on global memory (sm_70, PTX ISA 6.0), which cuda::ptx has no binding
// for. cuda::atomic_ref emits the same .sem and .scope but on generic addresses: ptxas then makes
// LD/ST/ATOM.E (and, for a 64-bit CAS, a fallback path for shared memory) where these give
// LDG/STG/ATOMG. The fence is cuda::ptx's.
//
// What ptxas 13.0 emits on sm_90a for 64-bit words (tests/codegen/tasks): st.relaxed.gpu
// STG.E.64.STRONG.GPU; st.release.gpu MEMBAR.ALL.GPU + STG.E.64.STRONG.GPU; ld.relaxed.gpu
// LDG.E.64.STRONG.GPU; ld.acquire.gpu LDG.E.64.STRONG.GPU + CCTL.IVALL; fence.sc.gpu MEMBAR.SC.GPU
// (+ ERRBAR, CGAERRBAR, CCTL.IVALL); atom.acq_rel.gpu.cas MEMBAR.ALL.GPU + ATOMG.E.CAS.64.STRONG.GPU
// + CCTL.IVALL.
#pragma once

#include <ptxw/core/target.h>

#if PTXW_CCCL_FAMILY_HEADERS
#  include <cuda/__ptx/instructions/fence.h>
#endif

PTXW_NAMESPACE_BEGIN
namespace detail::isa {
// The 32- and 64-bit words the protocols use: .b32 in an "r" register, .b64 in an "l" one.
template <class W>
inline constexpr bool is_word = sizeof(W) == 4 || sizeof(W) == 8;

// ld.sem.gpu.global.{b32,b64} d, [a];  // PTX ISA 60, SM_70. .sem = .relaxed (ld_relaxed), .acquire (ld_acquire)
// st.sem.gpu.global.{b32,b64} [a], v;  // PTX ISA 60, SM_70. .sem = .relaxed (st_relaxed), .release (st_release)
#define PTXW_TASKS_LD_ST(sem_ld, sem_st)                                                                             \
  template <class W>                                                                                                 \
  __device__ W ld_##sem_ld(const W* a)                                                                               \
  {                                                                                                                  \
    static_assert(is_word<W>);                                                                                       \
    W d;                                                                                                             \
    if constexpr (sizeof(W) == 4)                                                                                    \
    {                                                                                                                \
      asm volatile("ld." #sem_ld ".gpu.global.b32 %0, [%1];" : "=r"(d) : "l"(a) : "memory");                         \
    }                                                                                                                \
    else                                                                                                             \
    {                                                                                                                \
      asm volatile("ld." #sem_ld ".gpu.global.b64 %0, [%1];" : "=l"(d) : "l"(a) : "memory");                         \
    }                                                                                                                \
    return d;                                                                                                        \
  }                                                                                                                  \
  template <class W>                                                                                                 \
  __device__ void st_##sem_st(W* a, W v)                                                                             \
  {                                                                                                                  \
    static_assert(is_word<W>);                                                                                       \
    if constexpr (sizeof(W) == 4)                                                                                    \
    {                                                                                                                \
      asm volatile("st." #sem_st ".gpu.global.b32 [%0], %1;" ::"l"(a), "r"(v) : "memory");                          \
    }                                                                                                                \
    else                                                                                                             \
    {                                                                                                                \
      asm volatile("st." #sem_st ".gpu.global.b64 [%0], %1;" ::"l"(a), "l"(v) : "memory");                           \
    }                                                                                                                \
  }
PTXW_TASKS_LD_ST(relaxed, relaxed)
PTXW_TASKS_LD_ST(acquire, release)
#undef PTXW_TASKS_LD_ST

// fence.sc.gpu;  // PTX ISA 60, SM_70: the one fence that orders a store before a later load.
__device__ inline void fence_sc()
{
  ptx::fence(ptx::sem_sc, ptx::scope_gpu);
}

// atom.sem.gpu.global.cas.{b32,b64} d, [a], expected, desired;  // PTX ISA 60, SM_70.
// .sem = .relaxed (cas_relaxed), .release (cas_release), .acq_rel (cas_acq_rel): true where it
// swapped; cas_old_relaxed, ... the word it found (== expected where it swapped).
#define PTXW_TASKS_CAS(sem)                                                                                          \
  template <class W>                                                                                                 \
  __device__ W cas_old_##sem(W* a, W expected, W desired)                                                            \
  {                                                                                                                  \
    static_assert(is_word<W>);                                                                                       \
    W old;                                                                                                           \
    if constexpr (sizeof(W) == 4)                                                                                    \
    {                                                                                                                \
      asm volatile("atom." #sem ".gpu.global.cas.b32 %0, [%1], %2, %3;"                                              \
                   : "=r"(old)                                                                                       \
                   : "l"(a), "r"(expected), "r"(desired)                                                             \
                   : "memory");                                                                                      \
    }                                                                                                                \
    else                                                                                                             \
    {                                                                                                                \
      asm volatile("atom." #sem ".gpu.global.cas.b64 %0, [%1], %2, %3;"                                              \
                   : "=l"(old)                                                                                       \
                   : "l"(a), "l"(expected), "l"(desired)                                                             \
                   : "memory");                                                                                      \
    }                                                                                                                \
    return old;                                                                                                      \
  }                                                                                                                  \
  template <class W>                                                                                                 \
  __device__ bool cas_##sem(W* a, W expected, W desired)                                                             \
  {                                                                                                                  \
    return cas_old_##sem(a, expected, desired) == expected;                                                          \
  }
PTXW_TASKS_CAS(relaxed)
PTXW_TASKS_CAS(release)
PTXW_TASKS_CAS(acq_rel)
#undef PTXW_TASKS_CAS

// atom.acq_rel.gpu.global.add.u32 d, [a], v;  // PTX ISA 60, SM_70 (a grid barrier's arrival)
__device__ inline unsigned add_acq_rel(unsigned* a, unsigned v)
{
  unsigned old;
  asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(a), "r"(v) : "memory");
  return old;
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
} // namespace detail::isa
PTXW_NAMESPACE_END
