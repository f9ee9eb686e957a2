// ptxw::last_cluster(ticket): barrier.cluster.arrive.release + wait.acquire (every CTA's partial
// before the ticket), rank 0's leader takes the ticket (atom.release.gpu; in the last cluster
// fence.acq_rel.gpu and the reset) and writes the answer into every CTA's shared memory, a second
// cluster barrier, each thread reads its own CTA's copy. SASS as the hand-written form.
// REQUIRES: target-sm_90a || target-sm_100a || target-sm_120a
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/inter_block.h>

#include <cuda/ptx>

namespace ptx = cuda::ptx;

struct raw_ticket
{
  unsigned* arrived;
  const void* sink;
};

extern "C" __global__ void ptxw_last_cluster(long long* partials, long long* out, ptxw::last_block_ticket<> ticket)
{
  if (threadIdx.x == 0)
  {
    partials[blockIdx.x] = blockIdx.x;
  }
  if (ptxw::last_cluster(ticket) && threadIdx.x == 0)
  {
    *out = partials[0];
  }
}

__device__ unsigned ref_linear_thread()
{
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

// The ticket: release; the last one acquires and resets.
__device__ bool ref_take_ticket(unsigned* count, unsigned long long units)
{
  unsigned ticket;
  asm volatile("atom.release.gpu.global.add.u32 %0, [%1], %2;" : "=r"(ticket) : "l"(count), "r"(1u) : "memory");
  if (ticket != static_cast<unsigned>(units - 1))
  {
    return false;
  }
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
  *count = 0;
  return true;
}

__device__ bool ref_last_cluster(raw_ticket t)
{
  __shared__ unsigned flag;
  const unsigned long long clusters = static_cast<unsigned long long>(ptx::get_sreg_nclusterid_x())
                                    * ptx::get_sreg_nclusterid_y() * ptx::get_sreg_nclusterid_z();
  const unsigned rank = ptx::get_sreg_cluster_ctarank();
  const bool leader   = ref_linear_thread() == 0;
  ptx::barrier_cluster_arrive(ptx::sem_release);
  ptx::barrier_cluster_wait(ptx::sem_acquire);
  if (leader && rank == 0)
  {
    bool last = clusters == 1;
    if (!last)
    {
      last = ref_take_ticket(t.arrived, clusters);
    }
    for (unsigned r = 0; r < ptx::get_sreg_cluster_nctarank(); ++r)
    {
      *static_cast<unsigned*>(__cluster_map_shared_rank(&flag, r)) = last ? 1u : 0u;
    }
  }
  ptx::barrier_cluster_arrive(ptx::sem_release);
  ptx::barrier_cluster_wait(ptx::sem_acquire);
  return flag != 0;
}

extern "C" __global__ void ref_last_cluster(long long* partials, long long* out, raw_ticket ticket)
{
  if (threadIdx.x == 0)
  {
    partials[blockIdx.x] = blockIdx.x;
  }
  if (ref_last_cluster(ticket) && threadIdx.x == 0)
  {
    *out = partials[0];
  }
}

// PTX-LABEL: .entry ptxw_last_cluster(
// PTX-NOT:   {{atom|fence|bar}}
// PTX:       barrier.cluster.arrive.release;
// PTX-NEXT:  // end inline asm
// PTX-NEXT:  // begin inline asm
// PTX-NEXT:  barrier.cluster.wait.acquire;
// PTX-NOT:   {{fence|bar}}
// PTX:       atom.release.gpu.global.add.u32
// PTX-NOT:   {{atom|bar}}
// PTX:       fence.acq_rel.gpu;
// PTX-NOT:   {{atom|fence|bar}}
// PTX:       barrier.cluster.arrive.release;
// PTX-NEXT:  // end inline asm
// PTX-NEXT:  // begin inline asm
// PTX-NEXT:  barrier.cluster.wait.acquire;
// PTX-NOT:   {{atom|fence|bar}}
// PTX-LABEL: .entry ref_last_cluster(

// The answer goes to each CTA's shared memory through the cluster window (a generic store after
// the mapping), between the two cluster barriers.
// SASS-LABEL: Function : ptxw_last_cluster
// SASS-NOT:   {{ATOMG|UCGABAR}}
// SASS:       UCGABAR_ARV ;
// SASS:       UCGABAR_WAIT ;
// SASS-NOT:   UCGABAR
// SASS:       {{(@P[0-9] )?}}ATOMG.E.ADD.STRONG.GPU PT
// SASS-NOT:   {{ATOMG|UCGABAR}}
// SASS:       CCTL.IVALL ;
// SASS-NEXT:  STG.E desc[UR{{[0-9]+}}][R{{[0-9]+}}.64], RZ ;
// SASS-NOT:   {{ATOMG|UCGABAR}}
// SASS:       UCGABAR_ARV ;
// SASS:       UCGABAR_WAIT ;
// SASS-NOT:   {{ATOMG|UCGABAR}}
// SASS-LABEL: Function : ref_last_cluster
