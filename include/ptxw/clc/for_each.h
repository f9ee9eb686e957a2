// ptxw/clc/for_each.h: work stealing on cluster launch control, the for_each_canceled_block idea.
//
//   __global__ void scale(float* v, int n, float a, ptxw::clc::context<> ctx)
//   {
//     float alpha;
//     ptxw::for_each_canceled_block<1>(
//       ctx, [&] { alpha = expensive_setup(a); },          // prologue: once per CTA that runs
//       [&](dim3 block) {                                   // this CTA's block, then every block it cancels
//         int i = block.x * blockDim.x + threadIdx.x;
//         if (i < n) v[i] *= alpha;
//       });
//   }
//
// The callback runs with this CTA's own blockIdx first, then with the index of every block this CTA
// canceled, until a request fails. Every block index of the grid is passed to exactly one callback
// invocation of one CTA; blocks canceled by others never start, and neither does their prologue:
// a CTA the faithful emulation launched although another CTA had canceled it returns before the
// prologue, as it never started on hardware. All threads of the CTA (for the cluster form: of every
// CTA of the cluster) call it exactly once, from converged code.
//
// Every thread of the CTA (for the cluster form: of every CTA of the cluster) has finished the
// prologue before any thread runs the first block, on every backend: one barrier of the CTA (of the
// cluster) separates them, so a shared-memory table the prologue fills is read only once it is
// written. The prologue and every callback are called by all threads of the CTA at the same point
// of the loop, under conditions the whole CTA (cluster) evaluates alike, so both may call
// __syncthreads() (the cluster form: also a cluster barrier) -- every thread the same number of
// times, as anywhere. Nothing orders the prologue after another CTA of the cluster started: a
// prologue that touches another CTA's shared memory synchronises the cluster first itself.
//
// The request for the next block is made before the callback runs, so its latency hides behind the
// work on every backend (counter_t consumes its atomic's result only after the callback).
//
// Rank is the grid's rank (1, 2 or 3): dimensions beyond it are 0, as in blockIdx, and the response
// words of those dimensions are not decoded. A grid of higher rank (R13) is reported in checked
// mode, which then passes whole indices so that nothing is lost; unchecked, those dimensions drop.
//
// Unlike cuda::for_each_canceled_block (CCCL 3.0.1): dimensions beyond Rank are 0, as in blockIdx
// (CCCL pads them with 1, NVIDIA/cccl #8386); one barrier per block index instead of two; a
// prologue that canceled CTAs skip; a cluster form with multicast responses; and Hopper runs it
// fast (counter_t) or faithfully (emulated_t).
#pragma once

#include <ptxw/clc/handle.h>

PTXW_NAMESPACE_BEGIN
namespace detail {

template <int Rank>
__device__ dim3 block_of_rank(uint3 b, bool whole)
{
  static_assert(Rank >= 1 && Rank <= 3, PTXW_RULE(R10) "the block rank is 1, 2 or 3");
  return whole ? dim3(b.x, b.y, b.z) : dim3(b.x, Rank > 1 ? b.y : 0u, Rank > 2 ? b.z : 0u);
}

// R13, once per launch: false if the grid has more dimensions than Rank (after a report).
template <int Rank, class Backend>
__device__ bool rank_covers_grid(const clc::context<Backend>& ctx)
{
#if PTXW_CHECKED
  const dim3 grid = ctx.grid();
  const bool ok   = (Rank > 1 || grid.y == 1) && (Rank > 2 || grid.z == 1);
  if (!ok && blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0 && threadIdx.x == 0 && threadIdx.y == 0
      && threadIdx.z == 0)
  {
    checked::report(ctx.sink, rule::grid_rank, 0, 0, grid.z > 1 ? 3u : 2u);
  }
  return ok;
#else
  (void) ctx;
  return true;
#endif
}

template <int Rank, class Receivers, class Backend, class Prologue, class F>
__device__ void for_each_canceled(clc::slot<Receivers>& slot, const clc::context<Backend>& ctx, Prologue& prologue, F& f)
{
  using runs = clc::detail::resolve_t<Backend>;
  using impl = clc::detail::backend<runs>;
  if constexpr (clc::detail::row_of<runs>::value().own_loop)
  {
    if constexpr (impl::template check_target<Receivers>())
    {
      const bool whole = !rank_covers_grid<Rank>(ctx);
      impl backend;
      clc::detail::check_prepared(slot.storage_, ctx.prepared, clc::detail::id_of<runs>, ctx.sink);
      backend.start(slot.storage_, ctx.state, ctx.sink);
      backend.for_each(slot.storage_, ctx.state, prologue, [&](uint3 block) {
        f(block_of_rank<Rank>(block, whole));
      });
    }
  }
  else
  {
    auto clc = clc::open(slot, ctx);
    if constexpr (impl::template supported<Receivers>)
    {
      const bool whole = !rank_covers_grid<Rank>(ctx);
      if (!clc.started())
      {
        return;
      }
      prologue();
      uint3 block = blockIdx;
      while (true)
      {
        // Every thread read the last response (R4) and the barrier's init is visible (R7); for
        // clusters also: every CTA of the cluster is running (R8). The first time, also: every
        // thread's prologue is done before any thread's first block.
        if constexpr (is_same_v<Receivers, clc::cluster_t>)
        {
          ptx::barrier_cluster_arrive();
          ptx::barrier_cluster_wait();
        }
        else
        {
          __syncthreads();
        }
        clc.request(clc.elect());
        f(block_of_rank<Rank>(block, whole));
        if (!clc.wait().decode([&](auto canceled) {
              block = canceled.ctaid();
            }))
        {
          break;
        }
      }
    }
  }
}

// What the overloads without a prologue pass: nothing to order before the first block, so the
// backends' own loops put no barrier after it (clc/counter.h).
struct no_prologue
{
  __device__ void operator()() const {}
};

} // namespace detail

// Runs f(dim3 block) for this CTA's block and every block it cancels. Rank: the grid's rank (1, 2
// or 3); dimensions beyond it are 0.
template <int Rank = 3, class Backend, class F>
__device__ void for_each_canceled_block(const clc::context<Backend>& ctx, F&& f)
{
  __shared__ clc::slot<clc::cta_t> slot;
  detail::no_prologue none;
  detail::for_each_canceled<Rank>(slot, ctx, none, f);
}

// The same, with prologue() run once per CTA that runs, before its first block: the per-CTA set-up
// that work stealing amortises over many blocks (shared-memory tables, constants). Canceled CTAs
// never run it. A barrier of the CTA follows it: every thread's prologue before any thread's block.
template <int Rank = 3, class Backend, class Prologue, class F>
__device__ void for_each_canceled_block(const clc::context<Backend>& ctx, Prologue&& prologue, F&& f)
{
  __shared__ clc::slot<clc::cta_t> slot;
  detail::for_each_canceled<Rank>(slot, ctx, prologue, f);
}

// The same for cluster launches: one request per cluster, the response delivered to every CTA, and
// f(dim3 block) with this CTA's block of each canceled cluster.
template <int Rank = 3, class Backend, class F>
__device__ void for_each_canceled_cluster(const clc::context<Backend>& ctx, F&& f)
{
  __shared__ clc::slot<clc::cluster_t> slot;
  detail::no_prologue none;
  detail::for_each_canceled<Rank>(slot, ctx, none, f);
}

// With a prologue, as for_each_canceled_block's; a barrier of the cluster follows it: the prologue
// of every CTA of the cluster before any of them runs a block.
template <int Rank = 3, class Backend, class Prologue, class F>
__device__ void for_each_canceled_cluster(const clc::context<Backend>& ctx, Prologue&& prologue, F&& f)
{
  __shared__ clc::slot<clc::cluster_t> slot;
  detail::for_each_canceled<Rank>(slot, ctx, prologue, f);
}

PTXW_NAMESPACE_END
