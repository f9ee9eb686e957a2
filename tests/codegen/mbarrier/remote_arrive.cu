// remote(cta_rank{r}).arrive(): mapa.shared::cluster, then mbarrier.arrive.release.cluster.shared::cluster,
// without the generic-pointer round trip of CCCL's shared::cluster binding (shown for contrast).
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_remote_arrive(unsigned rank)
{
  __shared__ ptxw::cluster_barrier bar;
  bar.remote(ptxw::cta_rank{rank}).arrive();
}

extern "C" __global__ void ref_remote_arrive(unsigned rank)
{
  __shared__ uint64_t bar;
  uint32_t remote;
  asm("mapa.shared::cluster.u32 %0, %1, %2;"
      : "=r"(remote)
      : "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&bar))), "r"(rank));
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" : : "r"(remote) : "memory");
}

// Not a twin: the same arrive through CCCL's generic-pointer binding.
extern "C" __global__ void cccl_remote_arrive(unsigned rank)
{
  __shared__ uint64_t bar;
  ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cluster, ptx::space_cluster,
                       static_cast<uint64_t*>(__cluster_map_shared_rank(&bar, rank)));
}

// PTX-LABEL: .entry ptxw_remote_arrive(
// PTX-NOT:   cvta
// PTX:       ld.param.u32 [[RANK:%r[0-9]+]], [ptxw_remote_arrive_param_0];
// PTX:       mapa.shared::cluster.u32 [[REMOTE:%r[0-9]+]], %r{{[0-9]+}}, [[RANK]];
// PTX-NOT:   cvta
// PTX:       mbarrier.arrive.release.cluster.shared::cluster.b64 _, {{\[}}[[REMOTE]]];
// PTX-LABEL: .entry ref_remote_arrive(
// PTX-LABEL: .entry cccl_remote_arrive(
// PTX:       mapa.u64
// PTX:       cvta.to.shared

// mapa is one byte permute: the rank goes into the top byte of the shared::cta address.
// SASS-LABEL: Function : ptxw_remote_arrive
// SASS-NOT:   {{SR_SWINHI|UMOV UR[0-9]+, UR[0-9]+ ;}}
// SASS:       {{ULDC|LDCU}} UR[[RANK:[0-9]+]], c[0x0][{{0x210|0x380}}] ;
// SASS-NOT:   {{SR_SWINHI|UMOV UR[0-9]+, UR[0-9]+ ;}}
// SASS:       UPRMT UR[[REMOTE:[0-9]+]], UR[[RANK]], 0x654, UR{{[0-9]+}} ;
// SASS:       MEMBAR.ALL.CTA ;
// SASS-NEXT:  MEMBAR.ALL.GPU ;
// SASS-NEXT:  ERRBAR ;
// SASS-NEXT:  CGAERRBAR ;
// SASS-NOT:   MEMBAR
// SASS:       SYNCS.ARRIVE.TRANS64.RED.A1T0 RZ, [UR[[REMOTE]]], RZ ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_remote_arrive

// CCCL: the generic pointer needs the shared window base (SR_SWINHI) and register-to-register
// moves before the same arrive; the SASS-NOT lines above keep them out of ptxw.
// SASS-LABEL: Function : cccl_remote_arrive
// SASS:       S2UR UR{{[0-9]+}}, SR_SWINHI ;
// SASS:       UMOV UR{{[0-9]+}}, UR{{[0-9]+}} ;
// SASS:       SYNCS.ARRIVE.TRANS64.RED.A1T0 RZ, [UR{{[0-9]+}}], RZ ;
