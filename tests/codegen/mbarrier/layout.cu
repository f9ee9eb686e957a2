// The .layout forms of PTX ISA 9.3: init of a barrier in layout v1 and the check of a barrier's layout.
// REQUIRES: mbarrier-layout
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

#if __has_include(<cuda/__ptx/instructions/mbarrier_check_layout.h>)
// Where CCCL has the tags, ptxw's are the same types: bar.check_layout(ptx::layout_v1) works as well.
static_assert(ptxw::detail::is_same_v<ptxw::layout_v0_t, ptx::layout_v0_t>);
static_assert(ptxw::detail::is_same_v<ptxw::layout_v1_t, ptx::layout_v1_t>);
#endif

__device__ uint32_t smem(const uint64_t* p)
{
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

extern "C" __global__ void ptxw_init_layout_v1()
{
  __shared__ ptxw::cta_barrier bar;
  bar.init(ptxw::layout_v1, ptxw::arrivals{128});
}

extern "C" __global__ void ref_init_layout_v1()
{
  __shared__ uint64_t bar;
  asm volatile("mbarrier.init.layout::v1.shared::cta.b64 [%0], %1;" : : "r"(smem(&bar)), "r"(128u) : "memory");
}

// check_layout of layout V on a BARRIER (the cluster barrier's word is the CTA barrier's), and its
// twin: the predicate as 0 or 1.
#define PTXW_TEST_CHECK_LAYOUT(V, BARRIER)                                                                \
  extern "C" __global__ void ptxw_check_layout_##V(unsigned* out)                                         \
  {                                                                                                       \
    __shared__ ptxw::BARRIER bar;                                                                         \
    *out = bar.check_layout(ptxw::layout_##V);                                                            \
  }                                                                                                       \
  extern "C" __global__ void ref_check_layout_##V(unsigned* out)                                          \
  {                                                                                                       \
    __shared__ uint64_t bar;                                                                              \
    uint32_t p;                                                                                           \
    asm("{\n\t.reg .pred p;\n\tmbarrier.check_layout.layout::" #V ".shared::cta.b64 p, [%1];\n\t"         \
        "selp.b32 %0, 1, 0, p;\n\t}"                                                                      \
        : "=r"(p)                                                                                         \
        : "r"(smem(&bar))                                                                                 \
        : "memory");                                                                                      \
    *out = p != 0;                                                                                        \
  }
PTXW_TEST_CHECK_LAYOUT(v0, cta_barrier)
PTXW_TEST_CHECK_LAYOUT(v1, cluster_barrier)

// PTX-LABEL: .entry ptxw_init_layout_v1(
// PTX:       mov.{{[bu]}}32 [[COUNT:%r[0-9]+]], 128;
// PTX:       mbarrier.init.layout::v1.shared::cta.b64 [%r{{[0-9]+}}], [[COUNT]];
// PTX-LABEL: .entry ref_init_layout_v1(
// PTX-LABEL: .entry ptxw_check_layout_v0(
// PTX:       mbarrier.check_layout.layout::v0.shared::cta.b64 [[P:[a-z_0-9%]+]], [%r{{[0-9]+}}];
// PTX-NEXT:  selp.b32 %r{{[0-9]+}}, 1, 0, [[P]];
// PTX-LABEL: .entry ref_check_layout_v0(
// PTX-LABEL: .entry ptxw_check_layout_v1(
// PTX:       mbarrier.check_layout.layout::v1.shared::cta.b64 [[P:[a-z_0-9%]+]], [%r{{[0-9]+}}];
// PTX-NEXT:  selp.b32 %r{{[0-9]+}}, 1, 0, [[P]];
// PTX-LABEL: .entry ref_check_layout_v1(

// init's word as without a layout (2^20 - count, shifted), with bit 0 set: layout v1.
// SASS-LABEL: Function : ptxw_init_layout_v1
// SASS:       UMOV UR[[COUNT:[0-9]+]], 0x80 ;
// SASS:       UIADD3 UR{{[0-9]+}}, {{(UPT, UPT, )?}}-UR[[COUNT]], 0x100000, URZ ;
// SASS:       ULOP3.LUT UR[[WORD:[0-9]+]], UR{{[0-9]+}}, 0x1, URZ, 0xfe, !UPT ;
// SASS-NOT:   {{MEMBAR|SYNCS}}
// SASS:       SYNCS.EXCH.64 URZ, [UR{{[0-9]+}}], UR[[WORD]] ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_init_layout_v1

// check_layout is a load of the word and a test of bit 0: clear for v0 (LUT 0xc), set for v1 (0xc0).
// SASS-LABEL: Function : ptxw_check_layout_v0
// SASS-NOT:   {{MEMBAR|SYNCS}}
// SASS:       SYNCS.LD.64 R[[WORD:[0-9]+]], [UR{{[0-9]+}}] ;
// SASS-NEXT:  LOP3.LUT P{{[0-9]}}, RZ, R[[WORD]], 0x1, RZ, 0xc, !PT ;
// SASS-NOT:   {{MEMBAR|SYNCS}}
// SASS:       STG.E
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_check_layout_v0
// SASS-LABEL: Function : ptxw_check_layout_v1
// SASS-NOT:   {{MEMBAR|SYNCS}}
// SASS:       SYNCS.LD.64 R[[WORD:[0-9]+]], [UR{{[0-9]+}}] ;
// SASS-NEXT:  LOP3.LUT P{{[0-9]}}, RZ, R[[WORD]], 0x1, RZ, 0xc0, !PT ;
// SASS-NOT:   {{MEMBAR|SYNCS}}
// SASS:       STG.E
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_check_layout_v1
