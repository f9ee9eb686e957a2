// remote(cta_rank{1}) with a constant rank: mapa takes the rank as an immediate.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include "Inputs/remote.h"

extern "C" __global__ void ptxw_remote_arrive_rank_imm()
{
  __shared__ ptxw::cluster_barrier bar;
  bar.remote(ptxw::cta_rank{1}).arrive();
}

extern "C" __global__ void ref_remote_arrive_rank_imm()
{
  __shared__ uint64_t bar;
  const uint32_t remote = ref_mapa(&bar, 1u);
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" : : "r"(remote) : "memory");
}

// PTX-LABEL: .entry ptxw_remote_arrive_rank_imm(
// PTX:       mov.{{[bu]}}32 [[RANK:%r[0-9]+]], 1;
// PTX:       mapa.shared::cluster.u32 [[REMOTE:%r[0-9]+]], %r{{[0-9]+}}, [[RANK]];
// PTX:       mbarrier.arrive.release.cluster.shared::cluster.b64 _, {{\[}}[[REMOTE]]];
// PTX-LABEL: .entry ref_remote_arrive_rank_imm(

// mapa is one byte permute: the rank goes into the top byte of the shared::cta address.
// SASS-LABEL: Function : ptxw_remote_arrive_rank_imm
// SASS-NOT:   SR_SWINHI
// SASS:       UMOV UR[[RANK:[0-9]+]], 0x1 ;
// SASS-NOT:   SR_SWINHI
// SASS:       UPRMT UR[[REMOTE:[0-9]+]], UR[[RANK]], 0x654, UR{{[0-9]+}} ;
// SASS:       MEMBAR.ALL.CTA ;
// SASS-NEXT:  MEMBAR.ALL.GPU ;
// SASS-NEXT:  ERRBAR ;
// SASS-NEXT:  CGAERRBAR ;
// SASS-NOT:   MEMBAR
// SASS:       SYNCS.ARRIVE.TRANS64.RED.A1T0 RZ, [UR[[REMOTE]]], RZ ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_remote_arrive_rank_imm
