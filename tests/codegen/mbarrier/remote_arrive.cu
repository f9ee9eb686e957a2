// remote(cta_rank{r}).arrive() per qualifier set: mapa.shared::cluster, then
// mbarrier.arrive.[sem].cluster.shared::cluster -- the default .release (which fences: MEMBAR, ERRBAR)
// and (relaxed, cluster) -- without the generic-pointer round trip of CCCL's shared::cluster binding
// (shown for contrast).
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

extern "C" __global__ void ptxw_remote_arrive(unsigned rank)
{
  __shared__ ptxw::cluster_barrier bar;
#if defined(DEFAULTS)
  bar.remote(ptxw::cta_rank{rank}).arrive();
#else
  bar.remote(ptxw::cta_rank{rank}).arrive(SEM_TAG, SCOPE_TAG);
#endif
}

extern "C" __global__ void ref_remote_arrive(unsigned rank)
{
  __shared__ uint64_t bar;
  asm volatile("mbarrier.arrive." SEM_PTX ".cluster.shared::cluster.b64 _, [%0];"
               :
               : "r"(ref_mapa(&bar, rank))
               : "memory");
}

// Not a twin: the same arrive through CCCL's generic-pointer binding.
extern "C" __global__ void cccl_remote_arrive(unsigned rank)
{
  __shared__ uint64_t bar;
  ptx::mbarrier_arrive(SEM_TAG, SCOPE_TAG, ptx::space_cluster,
                       static_cast<uint64_t*>(__cluster_map_shared_rank(&bar, rank)));
}

// PTX-LABEL: .entry ptxw_remote_arrive(
// PTX-NOT:   cvta
// PTX:       ld.param.u32 [[RANK:%r[0-9]+]], [ptxw_remote_arrive_param_0];
// PTX:       mapa.shared::cluster.u32 [[REMOTE:%r[0-9]+]], %r{{[0-9]+}}, [[RANK]];
// PTX-NOT:   cvta
// PTX:       mbarrier.arrive.[[SEM]].cluster.shared::cluster.b64 _, {{\[}}[[REMOTE]]];
// PTX-LABEL: .entry ref_remote_arrive(
// PTX-LABEL: .entry cccl_remote_arrive(
// PTX:       mapa.u64
// PTX:       cvta.to.shared

// mapa is one byte permute: the rank goes into the top byte of the shared::cta address. Only
// .release fences before the arrive.
// SASS-LABEL:        Function : ptxw_remote_arrive
// SASS-NOT:          {{SR_SWINHI|UMOV UR[0-9]+, UR[0-9]+ ;}}
// SASS:              {{ULDC|LDCU}} UR[[RANK:[0-9]+]], c[0x0][{{0x210|0x380}}] ;
// SASS-NOT:          {{SR_SWINHI|UMOV UR[0-9]+, UR[0-9]+ ;}}
// SASS:              UPRMT UR[[REMOTE:[0-9]+]], UR[[RANK]], 0x654, UR{{[0-9]+}} ;
// FENCED-SASS:       MEMBAR.ALL.CTA ;
// FENCED-SASS-NEXT:  MEMBAR.ALL.GPU ;
// FENCED-SASS-NEXT:  ERRBAR ;
// FENCED-SASS-NEXT:  CGAERRBAR ;
// FENCED-SASS-NOT:   MEMBAR
// UNFENCED-SASS-NOT: {{MEMBAR|ERRBAR}}
// SASS:              SYNCS.ARRIVE.TRANS64.RED.A1T0 RZ, [UR[[REMOTE]]], RZ ;
// SASS-NEXT:         EXIT ;
// SASS-LABEL:        Function : ref_remote_arrive

// CCCL: the generic pointer needs the shared window base (SR_SWINHI) and register-to-register
// moves before the same arrive; the SASS-NOT lines above keep them out of ptxw.
// SASS-LABEL: Function : cccl_remote_arrive
// SASS:       S2UR UR{{[0-9]+}}, SR_SWINHI ;
// SASS:       UMOV UR{{[0-9]+}}, UR{{[0-9]+}} ;
// SASS:       SYNCS.ARRIVE.TRANS64.RED.A1T0 RZ, [UR{{[0-9]+}}], RZ ;
