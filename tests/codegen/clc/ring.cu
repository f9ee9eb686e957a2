// clc::ring<Depth, 3>: a scheduler warp and three consumer warps, Depth 2 and 4 (and 1 on counter_t,
// the benchmark's one block ahead). On every backend no
// local memory (the roles' stage and parity live in registers, never an array of phases on the
// stack). Hardware (sm_100+): one UGETNEXTWORKID from the lane elect.sync picks (no waterfall
// loop) after the acquire wait for the stage's release; each role's one LDS.128 of the response,
// the release fence after it, and the consumers' release arrive -- the SASS of the hand-written
// cuda::ptx ring. counter_t (sm_90+): one predicated atomic, the response stored and arrived by the
// submitter, no proxy fence; the faithful emulation: the response through the bulk copy and a proxy
// fence after each read.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %if clc %{ %ptxw-sass-equal %t.sass %}

#include <ptxw/clc.h>

#include "Inputs/reference.h"
#include "Inputs/ring_kernel.h"

namespace ptx = cuda::ptx;
namespace clc = ptxw::clc;

extern "C" __global__ void counter_ring_d1(unsigned* out, clc::context<clc::counter_t> ctx)
{
  ring_kernel<1>(out, ctx);
}
extern "C" __global__ void counter_ring_d2(unsigned* out, clc::context<clc::counter_t> ctx)
{
  ring_kernel<2>(out, ctx);
}
extern "C" __global__ void counter_ring_d4(unsigned* out, clc::context<clc::counter_t> ctx)
{
  ring_kernel<4>(out, ctx);
}
extern "C" __global__ void emulated_ring_d2(unsigned* out, clc::context<clc::emulated_t> ctx)
{
  ring_kernel<2>(out, ctx);
}
extern "C" __global__ void emulated_ring_d4(unsigned* out, clc::context<clc::emulated_t> ctx)
{
  ring_kernel<4>(out, ctx);
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000
extern "C" __global__ void ptxw_hw_ring_d2(unsigned* out, clc::context<clc::hardware_t> ctx)
{
  ring_kernel<2>(out, ctx);
}
extern "C" __global__ void ptxw_hw_ring_d4(unsigned* out, clc::context<clc::hardware_t> ctx)
{
  ring_kernel<4>(out, ctx);
}

// The twin: what a ring stage holds, in plain types (clc::slot's storage: the response, its
// barrier, then what the software backends keep), and the empty barriers after the stages.
struct alignas(16) ref_stage
{
  uint4 response;
  uint64_t full;
  uint32_t started;
  uint32_t batch[5]; // left, next, claimed, the pace's two words
  uint4 ranges[2];
};
template <unsigned Depth>
struct ref_ring_storage
{
  ref_stage stage[Depth];
  uint64_t empty[Depth];
};

template <unsigned Depth>
__device__ inline void ref_advance(uint32_t& index, uint32_t& parity)
{
  ++index;
  if (index == Depth)
  {
    index = 0;
    parity ^= 1u;
  }
}

__device__ inline void ref_wait_parity(uint64_t* bar, uint32_t parity)
{
  while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, bar, parity))
  {
  }
}

template <unsigned Depth>
__device__ void ref_ring_kernel(unsigned* out)
{
  __shared__ ref_ring_storage<Depth> s;
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
  {
    for (unsigned i = 0; i < Depth; ++i)
    {
      ptx::mbarrier_init(&s.stage[i].full, 1);
      ptx::mbarrier_init(&s.empty[i], 96u); // 3 consumer warps, every lane
      s.stage[i].batch[0] = 0;
      s.stage[i].batch[1] = 0;
      s.stage[i].batch[2] = 0;
      s.stage[i].batch[3] = 0;
      s.stage[i].batch[4] = 0;
    }
  }
  __syncthreads();
  const unsigned warp = threadIdx.x / 32;
  if (warp == 0)
  {
    // The scheduler: wait for the stage's release, request from one lane (fence, try_cancel, arm),
    // read the answer, stop at the failure.
    const bool won  = ref_elect_one();
    uint32_t index  = 0;
    uint32_t parity = 1;
    while (true)
    {
      ref_stage& st = s.stage[index];
      ref_wait_parity(&s.empty[index], parity);
      __syncwarp();
      if (won)
      {
        ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);
        ptx::clusterlaunchcontrol_try_cancel(&st.response, &st.full);
        ptx::mbarrier_arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &st.full, 16);
      }
      ref_wait_parity(&st.full, parity ^ 1u);
      const uint4 raw = st.response;
      ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_release, ptx::space_shared, ptx::scope_cluster);
      ref_advance<Depth>(index, parity);
      if (!ptx::clusterlaunchcontrol_query_cancel_is_canceled(raw))
      {
        return;
      }
    }
  }
  // A consumer: its own block, then each stage in order -- wait, one read, the release fence, the
  // decode, every lane's release arrive, the warp's vote on the failure -- until the failure.
  if (threadIdx.x % 32 == 0)
  {
    out[blockIdx.x * kRoles + warp - 1] = blockIdx.x;
  }
  uint32_t parity = 0;
  uint32_t index  = 0;
  while (true)
  {
    const uint32_t stage = index;
    ref_wait_parity(&s.stage[stage].full, parity);
    const uint4 raw = s.stage[stage].response;
    ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_release, ptx::space_shared, ptx::scope_cluster);
    ref_advance<Depth>(index, parity);
    uint32_t bx       = 0;
    const bool more   = ptx::clusterlaunchcontrol_query_cancel_is_canceled(raw);
    if (more)
    {
      bx = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x<uint32_t>(raw);
    }
    ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &s.empty[stage]); // every lane
    if (!__all_sync(~0u, more)) // the warp's verdict: the loop is uniform control flow
    {
      return;
    }
    if (threadIdx.x % 32 == 0)
    {
      out[bx * kRoles + warp - 1] = bx;
    }
  }
}

extern "C" __global__ void ref_hw_ring_d2(unsigned* out, clc::context<clc::hardware_t> ctx)
{
  (void) ctx;
  ref_ring_kernel<2>(out);
}
extern "C" __global__ void ref_hw_ring_d4(unsigned* out, clc::context<clc::hardware_t> ctx)
{
  (void) ctx;
  ref_ring_kernel<4>(out);
}
#endif

// Every backend, every depth: no local memory -- each role's stage and parity are two registers.
// SASS-LABEL: Function : counter_ring_d1{{$}}
// SASS-NOT:   {{LDL|STL}}
// SASS-LABEL: Function : counter_ring_d2{{$}}
// SASS-NOT:   {{LDL|STL}}
// counter_t's batch is the submitter's state: only the elected lane loads what is left of it (the
// other lanes' discarded load was a read racecheck set against the submitter's writes).
// SASS:       ELECT P[[SUB:[0-9]]], URZ, PT ;
// SASS-NOT:   {{LDL|STL}}
// SASS:       @P[[SUB]] LDS R{{[0-9]+}}, [R{{[0-9]+}}+0x1c] ;
// SASS-NOT:   {{LDL|STL}}
// SASS-LABEL: Function : counter_ring_d4{{$}}
// SASS-NOT:   {{LDL|STL}}
// SASS-LABEL: Function : emulated_ring_d2{{$}}
// SASS-NOT:   {{LDL|STL}}
//
// The faithful emulation: the response comes through the async proxy (one bulk copy into the
// slot, completing the 16 bytes the submitter armed), and every read of it, the scheduler's and
// each consumer's, is followed by the release fence; consumers release with every lane's arrive.
// SASS-SM9X:       SYNCS.PHASECHK.TRANS64.TRYWAIT P{{[0-9]}}, [R{{[0-9]+}}+URZ+0x10]
// SASS-SM9X-NOT:   {{SYNCS|LDL|STL}}
// SASS-SM9X:       MEMBAR.ALL.CTA ;
// SASS-SM9X-NEXT:  FENCE.VIEW.ASYNC.S ;
// SASS-SM9X-NOT:   {{SYNCS|LDL|STL|ELECT|WARPSYNC}}
// SASS-SM9X:       {{\*/}} SYNCS.ARRIVE.TRANS64.A1T0 RZ, [R{{[0-9]+}}+URZ+0xa0], RZ ;
// SASS-SM9X:       SYNCS.PHASECHK.TRANS64.TRYWAIT P{{[0-9]}}, [R{{[0-9]+}}+URZ+0xa0]
// SASS-SM9X:       UBLKCP.S.G
// SASS-SM9X:       SYNCS.ARRIVE.TRANS64 RZ, [R{{[0-9]+}}+URZ+0x10], R{{[0-9]+}} ;
// SASS-SM9X:       SYNCS.PHASECHK.TRANS64.TRYWAIT P{{[0-9]}}, [R{{[0-9]+}}+URZ+0x10]
// SASS-SM9X-NOT:   {{SYNCS|LDL|STL}}
// SASS-SM9X:       MEMBAR.ALL.CTA ;
// SASS-SM9X-NEXT:  FENCE.VIEW.ASYNC.S ;
// SASS-NOT:   {{LDL|STL}}
// SASS-LABEL: Function : emulated_ring_d4{{$}}
// SASS-NOT:   {{LDL|STL}}

// counter_t: a consumer's wait and release arrive; the scheduler's one predicated claim on the
// counter per request, of one index (claims::one: no pace measured, no clock read), the
// submitter's delivery of the response (a 16-byte store, then its release arrive), no async proxy
// and no proxy fence anywhere.
// PTX-LABEL: .entry counter_ring_d2(
// PTX-NOT:   {{cp.async|fence.proxy|clusterlaunchcontrol|%clock}}
// PTX:       mov.{{u|b}}64 [[ONE:%rd[0-9]+]], 1;
// PTX-NOT:   {{cp.async|fence.proxy|clusterlaunchcontrol|%clock}}
// PTX:       @p atom.relaxed.gpu.global.add.u64 {{%rd[0-9]+}}, [{{%rd[0-9]+}}], [[ONE]];
// PTX-NOT:   {{cp.async|fence.proxy|clusterlaunchcontrol}}
// PTX:       st.shared.v4.u32
// PTX-NOT:   {{cp.async|fence.proxy|clusterlaunchcontrol|ld.shared|st.shared}}
// PTX:       mbarrier.arrive.release.cta.shared::cta.b64
// PTX-NOT:   {{cp.async|fence.proxy|clusterlaunchcontrol}}
// PTX-LABEL: .entry counter_ring_d4(
// PTX-NOT:   {{cp.async|fence.proxy|clusterlaunchcontrol|%clock}}
// PTX-LABEL: .entry emulated_ring_d2(


// Hardware, sm_100a: the scheduler elects its lane once, then per step waits for the stage's
// release (its empty barrier, at +0xa0 for depth 2), requests from the elected lane only -- one
// UGETNEXTWORKID.SELFCAST, no ELECT ... BRA.U.ANY loop -- and arms the stage's barrier for 16
// bytes, then reads the answer: one LDS.128, the release fence, the failure test. Each consumer:
// the wait, one LDS.128, the release fence, the decode, every lane's release arrive on the
// empty barrier.
// SASS-SM100A-LABEL: Function : ptxw_hw_ring_d2{{$}}
// SASS-SM100A-NOT:   {{LDL|STL|BRA.U.ANY}}
// SASS-SM100A:       BAR.SYNC.DEFER_BLOCKING 0x0 ;
// SASS-SM100A:       ELECT P[[W:[0-9]]], URZ, PT ;
// SASS-SM100A-NOT:   {{LDL|STL|BRA.U.ANY|UGETNEXTWORKID}}
// SASS-SM100A:       SYNCS.PHASECHK.TRANS64.TRYWAIT P{{[0-9]}}, [R{{[0-9]+}}+URZ+0xa0], R{{[0-9]+}} ;
// SASS-SM100A-NOT:   {{LDL|STL|BRA.U.ANY|UGETNEXTWORKID}}
// SASS-SM100A:       @!P[[W]] BRA
// SASS-SM100A-NOT:   {{LDL|STL|BRA.U.ANY}}
// SASS-SM100A-COUNT-1: UGETNEXTWORKID.SELFCAST [UR{{[0-9]+}}], [UR{{[0-9]+}}] ;
// SASS-SM100A-NEXT:  SYNCS.ARRIVE.TRANS64 RZ, [R[[S:[0-9]+]]+URZ+0x10], R{{[0-9]+}} ;
// SASS-SM100A-NOT:   {{LDL|STL|BRA.U.ANY|UGETNEXTWORKID}}
// SASS-SM100A:       SYNCS.PHASECHK.TRANS64.TRYWAIT P{{[0-9]}}, [R[[S]]+URZ+0x10], R{{[0-9]+}} ;
// SASS-SM100A-NOT:   {{LDS|SYNCS|UGETNEXTWORKID}}
// SASS-SM100A:       LDS.128 R[[#R:]], [R[[S]]] ;
// SASS-SM100A-NOT:   {{LDS|SYNCS|UGETNEXTWORKID}}
// SASS-SM100A:       MEMBAR.ALL.CTA ;
// SASS-SM100A-NEXT:  FENCE.VIEW.ASYNC.S ;
// SASS-SM100A-NOT:   {{LDS|SYNCS|UGETNEXTWORKID}}
// SASS-SM100A:       LOP3.LUT P[[F:[0-9]]], RZ, R[[#R+2]], 0x1, RZ, 0xc0, !PT ;
// SASS-SM100A-NEXT:  @!P[[F]] EXIT ;
// SASS-SM100A-NOT:   {{LDL|STL|UGETNEXTWORKID}}
// SASS-SM100A:       SYNCS.PHASECHK.TRANS64.TRYWAIT P{{[0-9]}}, [R[[C:[0-9]+]]+URZ+0x10], R{{[0-9]+}} ;
// SASS-SM100A-NOT:   {{LDS|SYNCS|UGETNEXTWORKID}}
// SASS-SM100A:       LDS.128 R{{[0-9]+}}, [R[[C]]] ;
// SASS-SM100A-NOT:   {{LDS|SYNCS|UGETNEXTWORKID}}
// SASS-SM100A:       MEMBAR.ALL.CTA ;
// SASS-SM100A-NEXT:  FENCE.VIEW.ASYNC.S ;
// SASS-SM100A-NOT:   {{LDS|SYNCS|UGETNEXTWORKID}}
// SASS-SM100A-NOT:   {{LDS|SYNCS|UGETNEXTWORKID|ELECT|WARPSYNC}}
// SASS-SM100A:       {{\*/}} SYNCS.ARRIVE.TRANS64.A1T0 RZ, [R{{[0-9]+}}+URZ+0xa0], RZ ;
// SASS-SM100A-NOT:   {{LDL|STL|UGETNEXTWORKID|LDS.128}}
// SASS-SM100A-LABEL: Function : ptxw_hw_ring_d4{{$}}
// SASS-SM100A-NOT:   {{LDL|STL|BRA.U.ANY}}
// SASS-SM100A-COUNT-1: UGETNEXTWORKID.SELFCAST
// SASS-SM100A-NOT:   {{LDL|STL|BRA.U.ANY|UGETNEXTWORKID}}
// SASS-SM100A-LABEL: Function : ref_hw_ring_d2{{$}}

// The PTX of the hardware ring: the release arrive of a consumer is mbarrier.arrive.release.cta,
// the scheduler's wait before a request an acquire, the request the CTA-cast try_cancel.
// PTX-SM100A-LABEL: .entry ptxw_hw_ring_d2(
// PTX-SM100A:       mbarrier.try_wait.parity.acquire.cta.shared::cta.b64
// PTX-SM100A:       fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;
// PTX-SM100A:       clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128
// PTX-SM100A:       ld.shared.v2.u64
// PTX-SM100A:       fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;
// PTX-SM100A:       mbarrier.arrive.release.cta.shared::cta.b64
// PTX-SM100A-LABEL: .entry ptxw_hw_ring_d4(
