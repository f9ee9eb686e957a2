// mbarrier.complete_tx on a cluster_barrier defaults to .relaxed.cluster (local barrier).
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_complete_tx_cluster(unsigned bytes)
{
  __shared__ ptxw::cluster_barrier bar;
  bar.complete_tx(ptxw::tx_bytes{bytes});
}

extern "C" __global__ void ref_complete_tx_cluster(unsigned bytes)
{
  __shared__ uint64_t bar;
  asm volatile("mbarrier.complete_tx.relaxed.cluster.shared::cta.b64 [%0], %1;"
               :
               : "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&bar))), "r"(bytes)
               : "memory");
}

// PTX-LABEL: .entry ptxw_complete_tx_cluster(
// PTX:       ld.param.u32 [[TX:%r[0-9]+]], [ptxw_complete_tx_cluster_param_0];
// PTX:       mbarrier.complete_tx.relaxed.cluster.shared::cta.b64 [%r{{[0-9]+}}], [[TX]];
// PTX-LABEL: .entry ref_complete_tx_cluster(

// SASS-LABEL: Function : ptxw_complete_tx_cluster
// SASS-NOT:   {{MEMBAR|SYNCS}}
// SASS:       LDC R[[TX:[0-9]+]], c[0x0][{{0x210|0x380}}] ;
// SASS-NOT:   {{MEMBAR|ERRBAR|SYNCS}}
// SASS:       SYNCS.ARRIVE.TRANS64.RED.A0TX RZ, [UR{{[0-9]+}}], R[[TX]] ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_complete_tx_cluster
