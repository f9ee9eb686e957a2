// remote(cta_rank{r}).arrive(arrivals{n}) per qualifier set: the remote arrive with a count register,
// the default .release.cluster (which fences: MEMBAR, ERRBAR) and (relaxed, cluster).
// REQUIRES: mbarrier-tx, mbarrier-relaxed
// RUN: %ptxw-compile %s -o %t.release -- -DSEM=release -DSCOPE=cluster -DDEFAULTS
// RUN: %ptx-check %s --input-file=%t.release.ptx -DSEM=release
// RUN: %sass-check %s --input-file=%t.release.sass --check-prefix=FENCED-SASS
// RUN: %ptxw-sass-equal %t.release.sass
// RUN: %ptxw-compile %s -o %t.relaxed -- -DSEM=relaxed -DSCOPE=cluster
// RUN: %ptx-check %s --input-file=%t.relaxed.ptx -DSEM=relaxed
// RUN: %sass-check %s --input-file=%t.relaxed.sass --check-prefix=UNFENCED-SASS
// RUN: %ptxw-sass-equal %t.relaxed.sass

#include "Inputs/remote.h"

extern "C" __global__ void ptxw_remote_arrive_count(unsigned rank, unsigned n)
{
  __shared__ ptxw::cluster_barrier bar;
#if defined(DEFAULTS)
  bar.remote(ptxw::cta_rank{rank}).arrive(ptxw::arrivals{n});
#else
  bar.remote(ptxw::cta_rank{rank}).arrive(SEM_TAG, SCOPE_TAG, ptxw::arrivals{n});
#endif
}

extern "C" __global__ void ref_remote_arrive_count(unsigned rank, unsigned n)
{
  __shared__ uint64_t bar;
  asm volatile("mbarrier.arrive." SEM_PTX ".cluster.shared::cluster.b64 _, [%0], %1;"
               :
               : "r"(ref_mapa(&bar, rank)), "r"(n)
               : "memory");
}

// PTX-LABEL: .entry ptxw_remote_arrive_count(
// PTX-DAG:   ld.param.u32 [[RANK:%r[0-9]+]], [ptxw_remote_arrive_count_param_0];
// PTX-DAG:   ld.param.u32 [[N:%r[0-9]+]], [ptxw_remote_arrive_count_param_1];
// PTX:       mapa.shared::cluster.u32 [[REMOTE:%r[0-9]+]], %r{{[0-9]+}}, [[RANK]];
// PTX:       mbarrier.arrive.[[SEM]].cluster.shared::cluster.b64 _, {{\[}}[[REMOTE]]], [[N]];
// PTX-LABEL: .entry ref_remote_arrive_count(

// Both parameters arrive in one LDC.64 (rank, then the operand); mapa is one byte permute. Only
// .release fences before the arrive.
// SASS-LABEL:        Function : ptxw_remote_arrive_count
// SASS-NOT:          SR_SWINHI
// SASS:              LDC.64 R[[#PARAMS:]], c[0x0][{{0x210|0x380}}] ;
// SASS-NOT:          SR_SWINHI
// SASS:              PRMT R[[REMOTE:[0-9]+]], R[[#PARAMS]], 0x654, R{{[0-9]+}} ;
// FENCED-SASS:       MEMBAR.ALL.CTA ;
// FENCED-SASS-NEXT:  MEMBAR.ALL.GPU ;
// FENCED-SASS-NEXT:  ERRBAR ;
// FENCED-SASS-NEXT:  CGAERRBAR ;
// FENCED-SASS-NOT:   MEMBAR
// UNFENCED-SASS-NOT: {{MEMBAR|ERRBAR}}
// SASS:              SYNCS.ARRIVE.TRANS64.RED.ART0 RZ, [R[[REMOTE]]+URZ], R[[#PARAMS+1]] ;
// SASS-NEXT:         EXIT ;
// SASS-LABEL:        Function : ref_remote_arrive_count
