// mbarrier.arrive.expect_tx on a cluster_barrier defaults to .release.cluster.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_arrive_expect_tx_cluster(unsigned bytes)
{
  __shared__ ptxw::cluster_barrier bar;
  bar.arrive_expect_tx(ptxw::tx_bytes{bytes});
}

extern "C" __global__ void ref_arrive_expect_tx_cluster(unsigned bytes)
{
  __shared__ uint64_t bar;
  ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cluster, ptx::space_shared, &bar, bytes);
}

// PTX-LABEL: .entry ptxw_arrive_expect_tx_cluster(
// PTX:       ld.param.u32 [[TX:%r[0-9]+]], [ptxw_arrive_expect_tx_cluster_param_0];
// PTX:       mbarrier.arrive.expect_tx.release.cluster.shared::cta.b64 %rd{{[0-9]+}}, [%r{{[0-9]+}}], [[TX]];
// PTX-LABEL: .entry ref_arrive_expect_tx_cluster(

// SASS-LABEL: Function : ptxw_arrive_expect_tx_cluster
// SASS-NOT:   {{MEMBAR|SYNCS}}
// SASS:       LDC R[[TX:[0-9]+]], c[0x0][{{0x210|0x380}}] ;
// SASS-NOT:   SYNCS
// SASS:       MEMBAR.ALL.CTA ;
// SASS-NEXT:  MEMBAR.ALL.GPU ;
// SASS-NEXT:  ERRBAR ;
// SASS-NEXT:  CGAERRBAR ;
// SASS-NOT:   MEMBAR
// SASS:       SYNCS.ARRIVE.TRANS64 RZ, [UR{{[0-9]+}}], R[[TX]] ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_arrive_expect_tx_cluster
