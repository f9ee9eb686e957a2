// mbarrier.arrive on a cluster_barrier defaults to .release.cluster.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_arrive_cluster()
{
  __shared__ ptxw::cluster_barrier bar;
  bar.arrive();
}

extern "C" __global__ void ref_arrive_cluster()
{
  __shared__ uint64_t bar;
  ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cluster, ptx::space_shared, &bar);
}

// PTX-LABEL: .entry ptxw_arrive_cluster(
// PTX:       mbarrier.arrive.release.cluster.shared::cta.b64 %rd{{[0-9]+}}, [%r{{[0-9]+}}];
// PTX-LABEL: .entry ref_arrive_cluster(

// SASS-LABEL: Function : ptxw_arrive_cluster
// SASS-NOT:   SYNCS
// SASS:       MEMBAR.ALL.CTA ;
// SASS-NEXT:  MEMBAR.ALL.GPU ;
// SASS-NEXT:  ERRBAR ;
// SASS-NEXT:  CGAERRBAR ;
// SASS-NOT:   MEMBAR
// SASS:       SYNCS.ARRIVE.TRANS64.A1T0 RZ, [UR{{[0-9]+}}], RZ ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_arrive_cluster
