// complete_tx(bytes) on the barrier of this CTA, per barrier: mbarrier.complete_tx.relaxed.cta on a
// cta_barrier, and on a cluster_barrier its default .relaxed.cluster (a local barrier).
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t.cta -- -DBARRIER=cta_barrier -DSCOPE=cta
// RUN: %ptx-check %s --input-file=%t.cta.ptx -DSCOPE=cta
// RUN: %sass-check %s --input-file=%t.cta.sass
// RUN: %ptxw-sass-equal %t.cta.sass
// RUN: %ptxw-compile %s -o %t.cluster -- -DBARRIER=cluster_barrier -DSCOPE=cluster
// RUN: %ptx-check %s --input-file=%t.cluster.ptx -DSCOPE=cluster
// RUN: %sass-check %s --input-file=%t.cluster.sass
// RUN: %ptxw-sass-equal %t.cluster.sass

#include "Inputs/qualifiers.h"

extern "C" __global__ void ptxw_complete_tx(unsigned bytes)
{
  __shared__ ptxw::BARRIER bar;
  bar.complete_tx(ptxw::tx_bytes{bytes});
}

extern "C" __global__ void ref_complete_tx(unsigned bytes)
{
  __shared__ uint64_t bar;
  asm volatile("mbarrier.complete_tx.relaxed." SCOPE_PTX ".shared::cta.b64 [%0], %1;"
               :
               : "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&bar))), "r"(bytes)
               : "memory");
}

// PTX-LABEL: .entry ptxw_complete_tx(
// PTX:       ld.param.u32 [[TX:%r[0-9]+]], [ptxw_complete_tx_param_0];
// PTX:       mbarrier.complete_tx.relaxed.[[SCOPE]].shared::cta.b64 [%r{{[0-9]+}}], [[TX]];
// PTX-LABEL: .entry ref_complete_tx(

// SASS-LABEL: Function : ptxw_complete_tx
// SASS-NOT:   {{MEMBAR|SYNCS}}
// SASS:       LDC R[[TX:[0-9]+]], c[0x0][{{0x210|0x380}}] ;
// SASS-NOT:   {{MEMBAR|ERRBAR|SYNCS}}
// SASS:       SYNCS.ARRIVE.TRANS64.RED.A0TX RZ, [UR{{[0-9]+}}], R[[TX]] ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_complete_tx
