// remote(cta_rank{r}).arrive(relaxed, cluster): mbarrier.arrive.relaxed.cluster.shared::cluster.
// REQUIRES: mbarrier-tx, mbarrier-relaxed
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_remote_arrive_relaxed(unsigned rank)
{
  __shared__ ptxw::cluster_barrier bar;
  bar.remote(ptxw::cta_rank{rank}).arrive(ptx::sem_relaxed, ptx::scope_cluster);
}

extern "C" __global__ void ref_remote_arrive_relaxed(unsigned rank)
{
  __shared__ uint64_t bar;
  uint32_t remote;
  asm("mapa.shared::cluster.u32 %0, %1, %2;"
      : "=r"(remote)
      : "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&bar))), "r"(rank));
  asm volatile("mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%0];" : : "r"(remote) : "memory");
}

// PTX-LABEL: .entry ptxw_remote_arrive_relaxed(
// PTX:       ld.param.u32 [[RANK:%r[0-9]+]], [ptxw_remote_arrive_relaxed_param_0];
// PTX:       mapa.shared::cluster.u32 [[REMOTE:%r[0-9]+]], %r{{[0-9]+}}, [[RANK]];
// PTX:       mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, {{\[}}[[REMOTE]]];
// PTX-LABEL: .entry ref_remote_arrive_relaxed(

// mapa is one byte permute: the rank goes into the top byte of the shared::cta address.
// SASS-LABEL: Function : ptxw_remote_arrive_relaxed
// SASS-NOT:   SR_SWINHI
// SASS:       {{ULDC|LDCU}} UR[[RANK:[0-9]+]], c[0x0][{{0x210|0x380}}] ;
// SASS-NOT:   SR_SWINHI
// SASS:       UPRMT UR[[REMOTE:[0-9]+]], UR[[RANK]], 0x654, UR{{[0-9]+}} ;
// SASS-NOT:   {{MEMBAR|ERRBAR}}
// SASS:       SYNCS.ARRIVE.TRANS64.RED.A1T0 RZ, [UR[[REMOTE]]], RZ ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_remote_arrive_relaxed
