// Ordering (R7): one thread inits a cluster barrier and fences with fence_after_mbarrier_init, then
// the cluster synchronises with barrier.cluster.arrive.release / wait.acquire.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <cuda/ptx> // the other instructions of the sequence (ptxw headers include only their own)
#include <ptxw/fence.h>
#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_mbarrier_init_cluster_sync()
{
  __shared__ ptxw::cluster_barrier bar;
  if (threadIdx.x == 0)
  {
    bar.init(ptxw::arrivals{1});
    ptxw::fence_after_mbarrier_init();
  }
  ptx::barrier_cluster_arrive(ptx::sem_release);
  ptx::barrier_cluster_wait(ptx::sem_acquire);
}

extern "C" __global__ void ref_mbarrier_init_cluster_sync()
{
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
  {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  ptx::barrier_cluster_arrive(ptx::sem_release);
  ptx::barrier_cluster_wait(ptx::sem_acquire);
}

// PTX-LABEL: .entry ptxw_mbarrier_init_cluster_sync(
// PTX-NOT:   fence
// PTX:       mbarrier.init.shared.b64 [
// PTX-NOT:   barrier.cluster
// PTX:       fence.mbarrier_init.release.cluster;
// PTX-NOT:   fence
// PTX:       barrier.cluster.arrive.release;
// PTX-NOT:   fence
// PTX:       barrier.cluster.wait.acquire;
// PTX-NOT:   fence
// PTX-LABEL: .entry ref_mbarrier_init_cluster_sync(

// The fence leaves only a NOP, predicated like the init it follows (inside the if); the MEMBARs
// after it are barrier.cluster.arrive.release's own (the same kernel without the fence has them).
// ptxas guards UCGABAR_ARV/UCGABAR_WAIT with a run-time test of a constant-bank word and has a
// BAR.SYNC path for the other case (presumably a launch without clusters).
// SASS-LABEL: Function : ptxw_mbarrier_init_cluster_sync{{$}}
// SASS-NOT:   {{MEMBAR|FENCE|UCGABAR}}
// SASS:       SYNCS.EXCH.64 URZ, [UR{{[0-9]+}}], UR{{[0-9]+}} ;
// SASS-NOT:   {{MEMBAR|FENCE|UCGABAR}}
// SASS:       @!P{{[0-9]+}} NOP ;
// SASS-NOT:   {{MEMBAR|FENCE|UCGABAR}}
// SASS:       MEMBAR.ALL.CTA ;
// SASS-NEXT:  MEMBAR.ALL.GPU ;
// SASS-NOT:   {{MEMBAR|FENCE}}
// SASS:       UCGABAR_ARV ;
// SASS-NOT:   {{MEMBAR|FENCE}}
// SASS:       UCGABAR_WAIT ;
// SASS-NOT:   {{MEMBAR|FENCE|UCGABAR}}
// SASS-LABEL: Function : ref_mbarrier_init_cluster_sync{{$}}
