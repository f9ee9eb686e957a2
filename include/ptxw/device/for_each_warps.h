// ptxw/device/for_each_warps.h: for_each_canceled's warp form -- every warp of a resident grid takes
// rows of 32 consecutive indices on its own, first `rounds` rows of its own (a column of the index
// space, a grid of warps apart), then contiguous runs of rows from one cursor through the claim
// engine (ptxw/detail/claim.h): pace-sized, at most a quarter of what is left per warp, the next
// claim in flight while a run is walked. No barrier, no shared memory: a warp held up by slow
// indices holds up no other warp, where CUB's block holds its SM slots until its slowest warp
// finishes. Why this form is the default for per-index work: docs/device.md.
#pragma once

#include <ptxw/detail/claim.h>
#include <ptxw/device/policy.h>
#include <ptxw/device/shape.h>

PTXW_NAMESPACE_BEGIN
namespace device::detail {
// Rows a claim takes at most (the pace's cap): 64 rows of 32 indices.
inline constexpr ::cuda::std::uint32_t warp_claim_rows = 64;

template <int Threads, class Index, int Rank, class Op>
__global__ __launch_bounds__(Threads) void for_each_warps_kernel(shape<Rank> s, unsigned long long n,
                                                                 unsigned long long own_rows,
                                                                 unsigned long long* cursor, Op op)
{
  namespace claim                 = ::ptxw::detail::claim;
  constexpr unsigned per_cta      = Threads / 32;
  const unsigned lane             = threadIdx.x % 32u;
  const bool claimer              = lane == 0;
  const unsigned long long warps  = static_cast<unsigned long long>(gridDim.x) * per_cta;
  const unsigned long long warp   = static_cast<unsigned long long>(blockIdx.x) * per_cta + threadIdx.x / 32u;
  const unsigned long long rows   = n / 32 + (n % 32 != 0);
  const unsigned long long shared = own_rows * warps; // the first row the cursor hands out
  auto walk                       = [&](unsigned long long row) {
    if (const unsigned long long i = row * 32 + lane; i < n)
    {
      invoke<Index>(op, s, i);
    }
  };
  claim::pace pace{};
  unsigned long long claimed = 0, asked = 0;
  // The first claim, in flight while the warp walks its own rows.
  asked = claimer ? pace.size(0u, rows - shared, warps, warp_claim_rows) : 0;
  claim::issue(claimer, cursor, asked, claimed);
  for (unsigned long long r = 0; r < own_rows; ++r)
  {
    walk(r * warps + warp);
  }
  while (true)
  {
    claim::use_after_work(claimed);
    const unsigned long long first = shared + __shfl_sync(~0u, claimed, 0);
    const unsigned long long count = __shfl_sync(~0u, asked, 0);
    if (first >= rows)
    {
      return;
    }
    const unsigned long long end = rows - first > count ? first + count : rows;
    // The next claim, `count` rows after the last (the pace), in flight while this run is walked.
    asked   = claimer ? pace.size(static_cast<::cuda::std::uint32_t>(count), rows - end, warps, warp_claim_rows) : 0;
    claimed = 0;
    claim::issue(claimer, cursor, asked, claimed);
    for (unsigned long long row = first; row < end; ++row)
    {
      walk(row);
    }
  }
}

// How the warp form cuts n indices: warps of `ctas` CTAs (at most the resident ones, and no more
// than keep 4 rows a warp), each walking `own_rows` rows of its own -- at most the policy's rounds
// and half of its share -- before it claims.
struct warp_plan
{
  unsigned long long ctas;
  unsigned long long own_rows;
};

constexpr warp_plan plan_warps(const for_each_policy& p, unsigned long long n, unsigned long long resident)
{
  const unsigned long long per_cta = static_cast<unsigned long long>(p.block_threads) / 32;
  const unsigned long long rows    = n / 32 + (n % 32 != 0);
  const unsigned long long want    = (rows / 4 + per_cta - 1) / per_cta;
  const unsigned long long ctas    = want < 1 ? 1 : want < resident ? want : resident;
  const unsigned long long half    = rows / (2 * ctas * per_cta);
  return {ctas, half < static_cast<unsigned long long>(p.rounds) ? half : static_cast<unsigned long long>(p.rounds)};
}

// The warp form's launch for the build architecture I: a fresh cursor on the stream, the kernel.
template <class Selector, int I, class Index, int Rank, class Op>
cudaError_t for_each_warps(void* (&parts)[3], const shape<Rank>& s, unsigned long long n, Op& op, cudaStream_t stream,
                           int device)
{
  constexpr for_each_policy p = policy_at<Selector>(I);
  constexpr auto* kernel      = for_each_warps_kernel<p.block_threads, Index, Rank, Op>;
  unsigned long long resident = 0;
  if (const cudaError_t err = cached_resident_units<kernel>(device, p.block_threads, 1, resident); err != cudaSuccess)
  {
    return err;
  }
  const warp_plan pl = plan_warps(p, n, resident);
  auto* cursor       = static_cast<unsigned long long*>(parts[0]);
  if (const cudaError_t err = cudaMemsetAsync(cursor, 0, sizeof(*cursor), stream); err != cudaSuccess)
  {
    return err;
  }
  kernel<<<static_cast<unsigned>(pl.ctas), p.block_threads, 0, stream>>>(s, n, pl.own_rows, cursor, op);
  return cudaGetLastError();
}
} // namespace device::detail
PTXW_NAMESPACE_END
