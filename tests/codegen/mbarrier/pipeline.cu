// ptxw::pipeline with a bulk producer and generic-reading consumer warps: the ring's state stays in
// registers for every stage count, and the kernel is instruction for instruction the ring written
// by hand in cuda::ptx (zero cost), for S = 2 .. 8: the same barrier, fence, copy, warp and memory
// instructions and no more in all (ptxas keeps the ring's state in uniform registers in one twin and
// not the other, so their SASS is not equal line for line).
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal --no-more %t.sass

#include <cuda/ptx>
#include <ptxw/mbarrier.h>

#include "Inputs/pipeline_ring.h"

namespace ptx = cuda::ptx;

// elect.sync over the whole warp (cuda::ptx in CCCL 3.0.1 has no binding for it).
__device__ __forceinline__ bool ref_elect()
{
  uint32_t elected;
  asm volatile("{\n\t.reg .pred P;\n\telect.sync _|P, 0xffffffff;\n\tselp.u32 %0, 1, 0, P;\n}" : "=r"(elected));
  return elected != 0;
}

template <unsigned S, bool Producer>
__device__ __forceinline__ void ref_body(const float4* src, float4* dst, int n)
{
  __shared__ struct
  {
    uint64_t full[S];
    uint64_t empty[S];
  } bars; // the pipeline's storage layout
  uint64_t* full  = bars.full;
  uint64_t* empty = bars.empty;
  __shared__ alignas(128) float4 tile[S][kTile];
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
  {
    for (unsigned s = 0; s < S; ++s)
    {
      ptx::mbarrier_init(&full[s], 1u);
      ptx::mbarrier_init(&empty[s], 128u); // kConsumers warps of 32 lanes, by value (cuda::ptx takes a reference)
    }
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();
  if (Producer)
  {
    if (ref_elect())
    {
      uint32_t index = 0, parity = 1;
      for (int k = blockIdx.x; k < n; k += gridDim.x)
      {
        while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &empty[index], parity))
        {
        }
        ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);
        const uint32_t s = index; // a role moves on once it has its stage
        if (++index == S)
        {
          index = 0;
          parity ^= 1u;
        }
        const uint32_t bytes = sizeof(tile[0]);
        (void) ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s], bytes);
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile[s], src + k * kTile, bytes, &full[s]);
      }
    }
  }
  else
  {
    uint32_t index = 0, parity = 0;
    for (int k = blockIdx.x; k < n; k += gridDim.x)
    {
      while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &full[index], parity))
      {
      }
      const uint32_t s = index;
      if (++index == S)
      {
        index = 0;
        parity ^= 1u;
      }
      for (unsigned i = threadIdx.x - 32; i < kTile; i += 32 * kConsumers)
      {
        dst[k * kTile + i] = tile[s][i];
      }
      ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_release, ptx::space_shared, ptx::scope_cluster);
      (void) ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &empty[s]); // every lane
    }
  }
}

// One kernel per role (warp 0 produces, warps 1..4 consume in a real kernel): ptxas then has no
// room to allocate registers of the two loops differently in the twins. ID is ring_on_ptxw's role:
// 0 the producer, 1 the consumers.
#define PTXW_TEST_ROLE(ROLE, S, ID)                                                            \
  extern "C" __global__ void ptxw_##ROLE##_s##S(const float4* src, float4* dst, int n)        \
  {                                                                                            \
    ring_on_ptxw<S, ptxw::reads_generic, ID>(src, dst, n);                                     \
  }                                                                                            \
  extern "C" __global__ void ref_##ROLE##_s##S(const float4* src, float4* dst, int n)         \
  {                                                                                            \
    ref_body<S, ID == 0>(src, dst, n);                                                         \
  }
#define PTXW_TEST_STAGES(S) PTXW_TEST_ROLE(producer, S, 0) PTXW_TEST_ROLE(consumer, S, 1)
PTXW_TEST_STAGES(2)
PTXW_TEST_STAGES(3)
PTXW_TEST_STAGES(4)
PTXW_TEST_STAGES(5)
PTXW_TEST_STAGES(6)
PTXW_TEST_STAGES(7)
PTXW_TEST_STAGES(8)

// The protocol, in the PTX of one stage count: the derived counts (1 producer arrival, 4 consumer
// warps of 32 lanes), the init's fence, the producer's wait on empty, slot fence, armed arrival and
// copy on one full barrier; the consumer's wait on full, slot fence and each lane's arrival on
// empty, with no warp barrier or election before it.
// PTX-LABEL: .entry ptxw_producer_s4(
// PTX:       mov.{{[bu]}}32 [[ONE:%r[0-9]+]], 1;
// PTX:       mbarrier.init.shared.b64 [%r{{[0-9]+}}], [[ONE]];
// PTX:       mov.{{[bu]}}32 [[LANES:%r[0-9]+]], 128;
// PTX:       mbarrier.init.shared.b64 [%r{{[0-9]+}}], [[LANES]];
// PTX:       fence.mbarrier_init.release.cluster;
// PTX:       bar.sync 0;
// PTX:       elect.sync
// PTX:       mbarrier.try_wait.parity.acquire.cta.shared::cta.b64
// PTX:       fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;
// PTX:       mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 {{.*}}, {{\[}}[[FULL:%r[0-9]+]]], [[TX:%r[0-9]+]];
// PTX:       cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r{{[0-9]+}}], [%rd{{[0-9]+}}], [[TX]], {{\[}}[[FULL]]];
// PTX-LABEL: .entry ref_producer_s4(
// PTX-LABEL: .entry ptxw_consumer_s4(
// PTX:       mbarrier.try_wait.parity.acquire.cta.shared::cta.b64
// PTX:       fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;
// PTX-NOT:   {{bar.warp.sync|elect.sync}}
// PTX:       mbarrier.arrive.release.cta.shared::cta.b64
// PTX-LABEL: .entry ref_consumer_s4(

// Every stage count: no local memory (the state is two registers, not an array of phases), and
// the step is a compare and selects, never a division.
// SASS-LABEL: Function : ptxw_producer_s2
// SASS-NOT:   {{LDL|STL|IMAD.HI|I2F}}
// SASS-LABEL: Function : ref_producer_s2
// SASS-LABEL: Function : ptxw_consumer_s2
// SASS-NOT:   {{LDL|STL|IMAD.HI|I2F}}
// SASS-LABEL: Function : ref_consumer_s2
// SASS-LABEL: Function : ptxw_producer_s3
// SASS-NOT:   {{LDL|STL|IMAD.HI|I2F}}
// SASS-LABEL: Function : ref_producer_s3
// SASS-LABEL: Function : ptxw_consumer_s3
// SASS-NOT:   {{LDL|STL|IMAD.HI|I2F}}
// SASS-LABEL: Function : ref_consumer_s3
// SASS-LABEL: Function : ptxw_producer_s4
// SASS-NOT:   {{LDL|STL|IMAD.HI|I2F}}
// SASS:       SYNCS.PHASECHK.TRANS64.TRYWAIT P{{[0-9]}}, [{{U?R[0-9]+(\+URZ)?}}+0x20], R{{[0-9]+}} ;
// SASS-NOT:   {{LDL|STL|IMAD.HI|I2F}}
// SASS:       SYNCS.ARRIVE.TRANS64 RZ, [{{U?R[0-9]+(\+URZ)?}}], R{{[0-9]+}} ;
// SASS-NOT:   {{LDL|STL|IMAD.HI|I2F}}
// SASS:       UBLKCP.S.G
// SASS-NOT:   {{LDL|STL|IMAD.HI|I2F}}
// SASS-LABEL: Function : ref_producer_s4
// SASS-LABEL: Function : ptxw_consumer_s4
// SASS-NOT:   {{LDL|STL|IMAD.HI|I2F}}
// SASS:       SYNCS.PHASECHK.TRANS64.TRYWAIT
// SASS-NOT:   {{LDL|STL|IMAD.HI|I2F}}
// SASS:       MEMBAR.ALL.CTA ;
// SASS-NEXT:  FENCE.VIEW.ASYNC.S ;
// SASS-NOT:   {{LDL|STL|IMAD.HI|I2F|SYNCS|WARPSYNC|ELECT}}
// SASS:       {{\*/}} SYNCS.ARRIVE.TRANS64.A1T0 RZ,
// SASS-NOT:   {{LDL|STL|IMAD.HI|I2F|SYNCS.ARRIVE}}
// SASS-LABEL: Function : ref_consumer_s4
// SASS-LABEL: Function : ptxw_producer_s5
// SASS-NOT:   {{LDL|STL|IMAD.HI|I2F}}
// SASS-LABEL: Function : ref_producer_s5
// SASS-LABEL: Function : ptxw_consumer_s5
// SASS-NOT:   {{LDL|STL|IMAD.HI|I2F}}
// SASS-LABEL: Function : ref_consumer_s5
// SASS-LABEL: Function : ptxw_producer_s6
// SASS-NOT:   {{LDL|STL|IMAD.HI|I2F}}
// SASS-LABEL: Function : ref_producer_s6
// SASS-LABEL: Function : ptxw_consumer_s6
// SASS-NOT:   {{LDL|STL|IMAD.HI|I2F}}
// SASS-LABEL: Function : ref_consumer_s6
// SASS-LABEL: Function : ptxw_producer_s7
// SASS-NOT:   {{LDL|STL|IMAD.HI|I2F}}
// SASS-LABEL: Function : ref_producer_s7
// SASS-LABEL: Function : ptxw_consumer_s7
// SASS-NOT:   {{LDL|STL|IMAD.HI|I2F}}
// SASS-LABEL: Function : ref_consumer_s7
// SASS-LABEL: Function : ptxw_producer_s8
// SASS-NOT:   {{LDL|STL|IMAD.HI|I2F}}
// SASS-LABEL: Function : ref_producer_s8
// SASS-LABEL: Function : ptxw_consumer_s8
// SASS-NOT:   {{LDL|STL|IMAD.HI|I2F}}
// SASS-LABEL: Function : ref_consumer_s8
