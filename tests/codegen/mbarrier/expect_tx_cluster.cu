// mbarrier.expect_tx on a cluster_barrier defaults to .relaxed.cluster.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_expect_tx_cluster()
{
  __shared__ ptxw::cluster_barrier bar;
  bar.expect_tx(ptxw::tx_bytes{1024});
}

extern "C" __global__ void ref_expect_tx_cluster()
{
  __shared__ uint64_t bar;
  ptx::mbarrier_expect_tx(ptx::sem_relaxed, ptx::scope_cluster, ptx::space_shared, &bar, 1024);
}

// PTX-LABEL: .entry ptxw_expect_tx_cluster(
// PTX:       mov.{{[bu]}}32 [[TX:%r[0-9]+]], 1024;
// PTX:       mbarrier.expect_tx.relaxed.cluster.shared::cta.b64 [%r{{[0-9]+}}], [[TX]];
// PTX-LABEL: .entry ref_expect_tx_cluster(

// SASS-LABEL: Function : ptxw_expect_tx_cluster
// SASS-NOT:   {{MEMBAR|SYNCS}}
// SASS:       HFMA2{{(\.MMA)?}} R[[TX:[0-9]+]], -RZ, RZ, 0, 6.103515625e-05 ;
// SASS-NOT:   {{MEMBAR|ERRBAR|SYNCS}}
// SASS:       SYNCS.ARRIVE.TRANS64.RED.A0TR RZ, [UR{{[0-9]+}}], R[[TX]] ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_expect_tx_cluster
