// ptxw/work_stealing.h: work stealing on cluster launch control, the for_each_canceled_block idea.
//
//   __global__ void scale(float* v, int n, float a, ptxw::clc::context<> ctx)
//   {
//     const float alpha = prologue(a);                       // once per CTA, not per block index
//     ptxw::for_each_canceled_block<1>(ctx, [&](dim3 block) {
//       int i = block.x * blockDim.x + threadIdx.x;
//       if (i < n) v[i] *= alpha;
//     });
//   }
//
// The callback runs with this CTA's own blockIdx first, then with the index of every block this CTA
// canceled, until a request fails. Every block index of the grid is passed to exactly one callback
// invocation of one CTA; blocks canceled by others never start. All threads of the CTA (for the
// cluster form: of every CTA of the cluster) call it exactly once, from converged code.
//
// Unlike cuda::for_each_canceled_block (CCCL 3.0.1): dimensions beyond Rank are 0, as in blockIdx
// (CCCL pads them with 1, NVIDIA/cccl #8386); one barrier per block index instead of two; a cluster
// form with multicast responses; and Hopper runs it too, through the emulation.
#pragma once

#include <ptxw/clc.h>

PTXW_NAMESPACE_BEGIN
namespace detail {

template <int Rank>
__device__ dim3 block_of_rank(uint3 b)
{
  static_assert(Rank >= 1 && Rank <= 3, "ptxw: R10 qualifiers: the block rank is 1, 2 or 3");
  return dim3(b.x, Rank > 1 ? b.y : 0u, Rank > 2 ? b.z : 0u);
}

__device__ inline bool in_first_warp()
{
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z) < 32u;
}

template <int Rank, class Cast, class Backend, class F>
__device__ void for_each_canceled(clc::slot<Cast>& slot, const clc::context<Backend>& ctx, F& f)
{
  auto clc = clc::open(slot, ctx);
  if (!clc.started())
  {
    return;
  }
  uint3 block = blockIdx;
  while (true)
  {
    // Every thread read the last response (R4) and the barrier's init is visible (R7); for
    // clusters also: every CTA of the cluster is running (R8).
    if constexpr (is_same_v<Cast, clc::cluster_t>)
    {
      ptx::barrier_cluster_arrive();
      ptx::barrier_cluster_wait();
    }
    else
    {
      __syncthreads();
    }
    if (in_first_warp())
    {
      if (elected e = elect_one())
      {
        clc.request(e);
      }
    }
    f(block_of_rank<Rank>(block));
    if (!clc.wait().decode([&](auto canceled) {
          block = canceled.ctaid();
        }))
    {
      break;
    }
  }
}

} // namespace detail

// Runs f(dim3 block) for this CTA's block and every block it cancels. Rank: the grid's rank (1, 2
// or 3); dimensions beyond it are 0.
template <int Rank = 3, class Backend, class F>
__device__ void for_each_canceled_block(const clc::context<Backend>& ctx, F&& f)
{
  __shared__ clc::slot<clc::cta_t> slot;
  detail::for_each_canceled<Rank>(slot, ctx, f);
}

// The same for cluster launches: one request per cluster, the response multicast to every CTA, and
// f(dim3 block) with this CTA's block of each canceled cluster.
template <int Rank = 3, class Backend, class F>
__device__ void for_each_canceled_cluster(const clc::context<Backend>& ctx, F&& f)
{
  __shared__ clc::slot<clc::cluster_t> slot;
  detail::for_each_canceled<Rank>(slot, ctx, f);
}

PTXW_NAMESPACE_END