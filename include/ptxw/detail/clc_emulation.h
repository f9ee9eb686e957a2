// The emulation of cluster launch control behind ptxw/clc.h on targets without it (Hopper).
//
// The protocol is the hardware's: a request puts a 16-byte response into the slot of every CTA
// that should receive it, through the async proxy (cp.async.bulk from global memory), completing
// 16 transaction bytes on each of their barriers. So code that forgets expect_tx (R5), waits on a
// wrong parity (R6) or reuses a slot too early (R4) misbehaves here as it would on Blackwell.
//
// What is emulated is the grid scheduler. Per launch, in global memory owned by the host
// (ptxw::clc::emulator): one claim word per cluster of the grid and a cursor. A cluster runs for
// whoever first claims it in this launch (atomicExch of the launch's epoch): its own CTAs when they
// start (open() claims; if it was already taken, the CTAs were "canceled" and do no work), or a
// requester, which walks the cursor down from the grid's last cluster and takes the first one it
// can claim. Hence, as on hardware: every cluster of the grid runs exactly once; a CTA that was
// not canceled runs its own blockIdx first; a canceled one never starts its work; a request fails
// once every cluster has been claimed, and -- with the spurious-failure knob -- sometimes earlier,
// as when a higher-priority kernel arrives. Responses use the hardware's encoding: first ctaid.x in
// word 0, y | z << 16 in word 1, is_canceled in bit 0 of word 2.
#pragma once

#include <ptxw/detail/isa/clc.h>
#include <ptxw/detail/isa/mapa.h>
#include <ptxw/fence.h>
#include <ptxw/target.h>

#if PTXW_CCCL_FAMILY_HEADERS
#  include <cuda/__ptx/instructions/cp_async_bulk.h>
#endif

PTXW_NAMESPACE_BEGIN
namespace clc::detail {
// The emulation's view of one launch, a member of ptxw::clc::context. Filled by emulator::prepare.
struct emulation_state
{
  ::cuda::std::uint32_t* claimed; // per cluster of the grid: the epoch of the launch that claimed it
  uint4* responses; // per cluster: the response the async proxy copies into slots
  unsigned long long* cursor; // candidates handed out in this launch
  ::cuda::std::uint32_t epoch; // this launch; never 0
  ::cuda::std::uint32_t clusters; // clusters in the grid
  ::cuda::std::uint32_t spurious_threshold; // a request fails spuriously when hash < this (of 2^32)
  ::cuda::std::uint32_t seed;
};

inline constexpr ::cuda::std::uint32_t no_cluster = ~0u;

// The 16 bytes of a failed response, in global memory for the bulk copy.
static __device__ const uint4 failure_response = {0u, 0u, 0u, 0u};

// Geometry of the launch, from the sm_90 cluster builtins (which the compiler can hoist, unlike
// inline-asm special-register reads). Templates, like everything here that needs sm_90, so that
// including the header compiles for older targets.
template <class Dep = void>
__device__ unsigned cluster_size()
{
  return __clusterSizeInBlocks();
}

template <class Dep = void>
__device__ dim3 cluster_ctaid()
{
  return __clusterRelativeBlockIdx();
}

template <class Dep = void>
__device__ unsigned cluster_rank()
{
  return __clusterRelativeBlockRank();
}

template <class Dep = void>
__device__ uint3 cluster_dims()
{
  return {__clusterDim().x, __clusterDim().y, __clusterDim().z};
}

template <class Dep = void>
__device__ ::cuda::std::uint32_t grid_clusters()
{
  return __clusterGridDimInClusters().x * __clusterGridDimInClusters().y * __clusterGridDimInClusters().z;
}

// This CTA's cluster, numbered x fastest.
template <class Dep = void>
__device__ ::cuda::std::uint32_t own_cluster()
{
  const dim3 id = __clusterIdx();
  const dim3 n  = __clusterGridDimInClusters();
  return id.x + n.x * (id.y + n.y * id.z);
}

// Claims cluster c for the caller in this launch; false if someone already has it.
__device__ inline bool claim(const emulation_state& s, ::cuda::std::uint32_t c)
{
  return atomicExch(&s.claimed[c], s.epoch) != s.epoch;
}

__device__ inline ::cuda::std::uint32_t mix(::cuda::std::uint32_t x)
{
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  return x ^ (x >> 16);
}

// The scheduler's answer to one request: a cluster now owned by the requester, or no_cluster.
__device__ inline ::cuda::std::uint32_t steal(const emulation_state& s)
{
  for (;;)
  {
    const unsigned long long i = atomicAdd(s.cursor, 1ull);
    if (i >= s.clusters)
    {
      return no_cluster;
    }
    if (mix(s.seed ^ mix(static_cast<::cuda::std::uint32_t>(i) + s.epoch)) < s.spurious_threshold)
    {
      return no_cluster; // spurious failure; cluster i is left to its own CTAs
    }
    const ::cuda::std::uint32_t c = s.clusters - 1 - static_cast<::cuda::std::uint32_t>(i);
    if (claim(s, c))
    {
      return c;
    }
  }
}

// The hardware's encoding of "canceled, first ctaid of cluster c".
template <class Dep = void>
__device__ uint4 encode(::cuda::std::uint32_t c)
{
  const uint3 dims              = cluster_dims<Dep>();
  const ::cuda::std::uint32_t nx = __clusterGridDimInClusters().x;
  const ::cuda::std::uint32_t ny = __clusterGridDimInClusters().y;
  const ::cuda::std::uint32_t x  = (c % nx) * dims.x;
  const ::cuda::std::uint32_t y  = (c / nx % ny) * dims.y;
  const ::cuda::std::uint32_t z  = (c / nx / ny) * dims.z;
  return {x, y | (z << 16), 1u, 0u};
}

// Puts the response for cluster c (or a failure) into the slot at `slot`/`bar` (shared::cta
// addresses of this CTA) of every CTA in `cta_mask` -- this CTA alone, or all of its cluster --
// through the async proxy, completing 16 transaction bytes on each destination's barrier. A
// template, so that its sm_90 gates fire only where it is used (never merely on inclusion).
template <class Dep = void>
__device__ void deliver(const emulation_state& s, ::cuda::std::uint32_t c, void* slot, ::cuda::std::uint64_t* bar,
                               ::cuda::std::uint16_t cta_mask)
{
  const uint4* src = &failure_response;
  if (c != no_cluster)
  {
    s.responses[c] = encode<Dep>(c);
    ::ptxw::fence_proxy_async(::ptxw::detail::dependent_t<ptx::space_global_t, Dep>{}); // the store, for the copy
    src = &s.responses[c];
  }
  if (cta_mask == 1u && cluster_size<Dep>() == 1u)
  {
    const ::cuda::std::uint32_t bytes = 16;
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, slot, src, bytes, bar);
  }
  else
  {
    ::ptxw::detail::isa::cp_async_bulk_multicast(::ptxw::detail::isa::smem_addr(slot), src, 16u,
                                                 ::ptxw::detail::isa::smem_addr(bar), cta_mask);
  }
}

} // namespace clc::detail
PTXW_NAMESPACE_END