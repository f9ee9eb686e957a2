// remote(cta_rank{r}).complete_tx(bytes): mbarrier.complete_tx.relaxed.cluster.shared::cluster.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include "Inputs/remote.h"

extern "C" __global__ void ptxw_remote_complete_tx(unsigned rank, unsigned bytes)
{
  __shared__ ptxw::cluster_barrier bar;
  bar.remote(ptxw::cta_rank{rank}).complete_tx(ptxw::tx_bytes{bytes});
}

extern "C" __global__ void ref_remote_complete_tx(unsigned rank, unsigned bytes)
{
  __shared__ uint64_t bar;
  const uint32_t remote = ref_mapa(&bar, rank);
  asm volatile("mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [%0], %1;" : : "r"(remote), "r"(bytes)
               : "memory");
}

// PTX-LABEL: .entry ptxw_remote_complete_tx(
// PTX-DAG:   ld.param.u32 [[RANK:%r[0-9]+]], [ptxw_remote_complete_tx_param_0];
// PTX-DAG:   ld.param.u32 [[TX:%r[0-9]+]], [ptxw_remote_complete_tx_param_1];
// PTX:       mapa.shared::cluster.u32 [[REMOTE:%r[0-9]+]], %r{{[0-9]+}}, [[RANK]];
// PTX:       mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 {{\[}}[[REMOTE]]], [[TX]];
// PTX-LABEL: .entry ref_remote_complete_tx(

// Both parameters arrive in one LDC.64 (rank, then the operand); mapa is one byte permute.
// SASS-LABEL: Function : ptxw_remote_complete_tx
// SASS-NOT:   SR_SWINHI
// SASS:       LDC.64 R[[#PARAMS:]], c[0x0][{{0x210|0x380}}] ;
// SASS-NOT:   SR_SWINHI
// SASS:       PRMT R[[REMOTE:[0-9]+]], R[[#PARAMS]], 0x654, R{{[0-9]+}} ;
// SASS-NOT:   {{MEMBAR|ERRBAR}}
// SASS:       SYNCS.ARRIVE.TRANS64.RED.A0TX RZ, [R[[REMOTE]]+URZ], R[[#PARAMS+1]] ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_remote_complete_tx
