// remote(cta_rank{r}).arrive(arrivals{n}): the release.cluster remote arrive with a count register.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_remote_arrive_count(unsigned rank, unsigned n)
{
  __shared__ ptxw::cluster_barrier bar;
  bar.remote(ptxw::cta_rank{rank}).arrive(ptxw::arrivals{n});
}

extern "C" __global__ void ref_remote_arrive_count(unsigned rank, unsigned n)
{
  __shared__ uint64_t bar;
  uint32_t remote;
  asm("mapa.shared::cluster.u32 %0, %1, %2;"
      : "=r"(remote)
      : "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&bar))), "r"(rank));
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0], %1;" : : "r"(remote), "r"(n) : "memory");
}

// PTX-LABEL: .entry ptxw_remote_arrive_count(
// PTX-DAG:   ld.param.u32 [[RANK:%r[0-9]+]], [ptxw_remote_arrive_count_param_0];
// PTX-DAG:   ld.param.u32 [[N:%r[0-9]+]], [ptxw_remote_arrive_count_param_1];
// PTX:       mapa.shared::cluster.u32 [[REMOTE:%r[0-9]+]], %r{{[0-9]+}}, [[RANK]];
// PTX:       mbarrier.arrive.release.cluster.shared::cluster.b64 _, {{\[}}[[REMOTE]]], [[N]];
// PTX-LABEL: .entry ref_remote_arrive_count(

// Both parameters arrive in one LDC.64 (rank, then the operand); mapa is one byte permute.
// SASS-LABEL: Function : ptxw_remote_arrive_count
// SASS-NOT:   SR_SWINHI
// SASS:       LDC.64 R[[#PARAMS:]], c[0x0][{{0x210|0x380}}] ;
// SASS-NOT:   SR_SWINHI
// SASS:       PRMT R[[REMOTE:[0-9]+]], R[[#PARAMS]], 0x654, R{{[0-9]+}} ;
// SASS:       MEMBAR.ALL.CTA ;
// SASS-NEXT:  MEMBAR.ALL.GPU ;
// SASS-NEXT:  ERRBAR ;
// SASS-NEXT:  CGAERRBAR ;
// SASS-NOT:   MEMBAR
// SASS:       SYNCS.ARRIVE.TRANS64.RED.ART0 RZ, [R[[REMOTE]]+URZ], R[[#PARAMS+1]] ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_remote_arrive_count
