// The ptxw::pipeline ring the codegen tests compare with their twins (pipeline.cu: by hand in
// cuda::ptx; pipeline_cutlass.cu: CUTLASS's PipelineTmaAsync): one elected producer thread arming
// each of S stages and filling it with a 1-D bulk copy of kTile float4, four consumer warps copying
// it out. Role: 0 the producer, 1 the consumers, 2 both (warp 0 produces, as in a real kernel).
// Cluster: the CTAs whose consumers release each stage (pipeline_cutlass.cu's 2x1 consumers).
#pragma once

#include <ptxw/mbarrier.h>

#include <utility>

constexpr unsigned kTile      = 256; // float4 per stage: 4 KiB (8 stages fit every target's static shared memory)
constexpr unsigned kConsumers = 4;   // warps 1..4; warp 0's elected lane produces

template <unsigned S, class Reads, int Role, class Cluster = ptxw::one_cta>
__device__ __forceinline__ void ring_on_ptxw(const float4* src, float4* dst, int n)
{
  const bool producer = Role == 2 ? threadIdx.x < 32 : Role == 0;
  using pipe          = ptxw::pipeline<S, ptxw::bulk_producer, ptxw::consumer_warps<kConsumers, Reads>, Cluster>;
  __shared__ typename pipe::storage st;
  __shared__ alignas(128) float4 tile[S][kTile];
  auto p = pipe::init(st);
  if (producer)
  {
    if (auto e = ptxw::elect_one_of_warp())
    {
      auto prod = p.producer(e);
      for (int k = blockIdx.x; k < n; k += gridDim.x)
      {
        auto s = prod.acquire();
        s.arm(ptxw::tx_bytes{sizeof(tile[0])});
        s.copy(tile[s.index()], src + k * kTile, ptxw::tx_bytes{sizeof(tile[0])});
        prod.commit(std::move(s));
      }
    }
  }
  else
  {
    auto cons = p.consumer();
    for (int k = blockIdx.x; k < n; k += gridDim.x)
    {
      auto s = cons.wait();
      for (unsigned i = threadIdx.x - 32; i < kTile; i += 32 * kConsumers)
      {
        dst[k * kTile + i] = tile[s.index()][i];
      }
      cons.release(std::move(s));
    }
  }
}
