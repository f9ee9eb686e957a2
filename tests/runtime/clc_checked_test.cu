// Checked mode on Hopper's cluster launch control backends: for each of R1-R6 a kernel that
// breaks the rule through the typed API, and the report that must come of it -- with the rule id,
// never a hang or a silent wrong block -- on the faithful emulation and on counter_t. And the bad
// launches of for_each_canceled_block (R13 a Rank below the grid's, R14 a launch that is not the
// prepared grid): reported, nothing lost, nothing run twice. (That conforming kernels make no
// report is asserted by every ClcCoverage test.)
#include <ptxw/ptxw.h>

#include "clc_launch.h"
#include "gpu.h"

#include <optional>

namespace {

namespace clc = ptxw::clc;

constexpr unsigned kThreads = 64;

__device__ bool first_warp()
{
  return threadIdx.x < 32;
}

__device__ void spin_ns(unsigned long long ns)
{
  const unsigned long long start = ptxw::checked::now_ns();
  while (ptxw::checked::now_ns() - start < ns)
  {
  }
}

// R1: a grid of one block, so the first request fails; then a second request anyway, from a
// handle that went on after decode() returned false.
template <class Backend>
__global__ void request_after_failure(clc::context<Backend> ctx)
{
  __shared__ clc::slot<clc::cta_t> slot;
  auto h = clc::open(slot, ctx);
  __syncthreads();
  h.request(h.elect());
  const bool canceled = h.wait().decode([](auto) {});
  __syncthreads();
  if (!canceled)
  {
    h.request(h.elect()); // R1
  }
  (void) h.wait(); // checked mode answered the request with a failure: this completes
}

// R1: a loop that ignores decode()'s result requests on after the grid ran out.
template <class Backend>
__global__ void loop_ignoring_decode(clc::context<Backend> ctx, unsigned rounds)
{
  __shared__ clc::slot<clc::cta_t> slot;
  auto h = clc::open(slot, ctx);
  for (unsigned round = 0; round < rounds; ++round)
  {
    __syncthreads();
    h.request(h.elect()); // R1 from the first round after a failure on
    (void) h.wait().decode([](auto) {});
  }
}

// R2: the first ctaid of a failed response, through the escape hatch.
template <class Backend>
__global__ void decode_failure(clc::context<Backend> ctx, uint3* out)
{
  __shared__ clc::slot<clc::cta_t> slot;
  auto h = clc::open(slot, ctx);
  __syncthreads();
  h.request(h.elect());
  const auto r = h.wait();
  if (threadIdx.x == 0)
  {
    *out = r.first_ctaid_unchecked(); // R2: the response failed (one block, nothing to cancel)
  }
}

// R3: two halves of the first warp, diverged, each elect a submitter for the same phase.
template <class Backend>
__global__ void two_submitters(clc::context<Backend> ctx)
{
  __shared__ clc::slot<clc::cta_t> slot;
  auto h = clc::open(slot, ctx);
  __syncthreads();
  if (threadIdx.x % 32 < 16)
  {
    h.request(h.elect());
  }
  else
  {
    __nanosleep(100); // (the branches differ: the compiler may not merge the two elections)
    h.request(h.elect()); // R3: a second submitter
  }
  (void) h.wait();
}

// R4: no barrier between the reads of one response and the next request; the second warp reads
// late, so the first warp's next request comes while it still has to read.
template <class Backend>
__global__ void request_while_reading(clc::context<Backend> ctx)
{
  __shared__ clc::slot<clc::cta_t> slot;
  auto h = clc::open(slot, ctx);
  __syncthreads();
  h.request(h.elect());
  if (!first_warp())
  {
    spin_ns(2000000);
  }
  (void) h.wait();
  if (first_warp())
  {
    h.request(h.elect()); // R4: missing __syncthreads() before this
  }
  (void) h.wait();
}

// A cluster of two with the cluster form, where only CTA `requester` requests: the other never
// arms its barrier (R5); with only rank 1 requesting, rank 1 is armed and nobody submits (R6).
template <class Backend>
__global__ void one_cta_requests(clc::context<Backend> ctx, unsigned requester)
{
  __shared__ clc::slot<clc::cluster_t> slot;
  auto h = clc::open(slot, ctx);
  ptxw::ptx::barrier_cluster_arrive();
  ptxw::ptx::barrier_cluster_wait();
  if (ptxw::ptx::get_sreg_cluster_ctarank() == requester)
  {
    h.request(h.elect());
  }
  (void) h.wait();
  ptxw::ptx::barrier_cluster_arrive(); // no CTA leaves while the other may still touch its slot
  ptxw::ptx::barrier_cluster_wait();
}

// R6: the last thread skips two responses and then waits: its phase is two behind the slot's.
template <class Backend>
__global__ void stale_phase(clc::context<Backend> ctx)
{
  __shared__ clc::slot<clc::cta_t> slot;
  auto h          = clc::open(slot, ctx, kThreads - 1); // the last thread is not a reader of every phase
  const bool lazy = threadIdx.x == kThreads - 1;
  for (int round = 0; round < 3; ++round)
  {
    __syncthreads();
    h.request(h.elect());
    if (!lazy || round == 2)
    {
      (void) h.wait(); // R6 for the lazy thread in round 2
    }
  }
}

// R13 and R14: for_each_canceled_block<Rank>, each block index recorded by thread 0.
template <int Rank, class Backend>
__global__ void record_blocks(dim3 grid, unsigned* hits, clc::context<Backend> ctx)
{
  ptxw::for_each_canceled_block<Rank>(ctx, [&](dim3 block) {
    if (threadIdx.x == 0)
    {
      atomicAdd(&hits[block.x + grid.x * (block.y + grid.y * block.z)], 1u);
    }
  });
}

template <class Backend>
class ClcChecked : public ptxw_test::ClcCheckedFixture<Backend>
{
protected:
  // Every index of `grid` ran exactly once.
  void expect_each_once(const DeviceBuffer<unsigned>& hits, unsigned long long size)
  {
    std::vector<unsigned> host;
    PTXW_CUDA_OK(hits.download(host));
    unsigned long long wrong = 0;
    for (unsigned long long i = 0; i < size; ++i)
    {
      wrong += host[i] != 1;
    }
    EXPECT_EQ(wrong, 0u) << "block indices not run exactly once";
  }

};

TYPED_TEST_SUITE(ClcChecked, ptxw_test::HopperBackends, ptxw_test::HopperBackendName);

TYPED_TEST(ClcChecked, R1RequestAfterObservedFailure)
{
  request_after_failure<TypeParam><<<1, kThreads>>>(this->prepare(dim3(1)));
  PTXW_LAUNCH_OK();
  this->expect_reports(1);
  EXPECT_EQ(this->diag_->count(), 1u) << "one request after the failure, one report";
}

TYPED_TEST(ClcChecked, R1LoopIgnoringDecode)
{
  loop_ignoring_decode<TypeParam><<<1, kThreads>>>(this->prepare(dim3(1)), 4);
  PTXW_LAUNCH_OK();
  this->expect_reports(1);
  EXPECT_EQ(this->diag_->count(), 3u) << "rounds 2 to 4 request after the failure of round 1";
}

TYPED_TEST(ClcChecked, R2DecodeOfAFailedResponse)
{
  DeviceBuffer<uint3> out;
  PTXW_CUDA_OK(out.allocate(1));
  PTXW_CUDA_OK(out.fill_bytes(0xff));
  decode_failure<TypeParam><<<1, kThreads>>>(this->prepare(dim3(1)), out.get());
  PTXW_LAUNCH_OK();
  this->expect_reports(2);
  std::vector<uint3> host;
  PTXW_CUDA_OK(out.download(host));
  EXPECT_EQ(host[0].x, 0u) << "checked mode returns a zero index instead of decoding a failure";
}

TYPED_TEST(ClcChecked, R3TwoSubmittersInOnePhase)
{
  two_submitters<TypeParam><<<4, kThreads>>>(this->prepare(dim3(4)));
  PTXW_LAUNCH_OK();
  this->expect_reports(3);
  EXPECT_EQ(this->diag_->count(), 4u) << "one second submitter per CTA";
}

TYPED_TEST(ClcChecked, R4RequestWhileReadersStillRead)
{
  request_while_reading<TypeParam><<<1, kThreads>>>(this->prepare(dim3(1)));
  PTXW_LAUNCH_OK();
  this->expect_reports(4);
}

TYPED_TEST(ClcChecked, R5ClusterCtaNeverArmed)
{
  PTXW_CUDA_OK(ptxw::clc::launch_in_clusters(one_cta_requests<TypeParam>, dim3(2), dim3(kThreads), dim3(2, 1, 1), 0, 0,
                                              this->prepare(dim3(2), dim3(2, 1, 1)), 0u));
  PTXW_LAUNCH_OK();
  this->expect_reports(5);
}

TYPED_TEST(ClcChecked, R6StalePhase)
{
  stale_phase<TypeParam><<<1, kThreads>>>(this->prepare(dim3(1)));
  PTXW_LAUNCH_OK();
  this->expect_reports(6);
  EXPECT_EQ(this->diag_->count(), 1u) << "only the lazy thread is out of step";
}

TYPED_TEST(ClcChecked, R6WaitThatNeverCompletes)
{
  PTXW_CUDA_OK(ptxw::clc::launch_in_clusters(one_cta_requests<TypeParam>, dim3(2), dim3(kThreads), dim3(2, 1, 1), 0, 0,
                                              this->prepare(dim3(2), dim3(2, 1, 1)), 1u));
  PTXW_LAUNCH_OK();
  // Rank 1 armed and nobody submitted (R6); rank 0 never armed (R5). Every waiting thread of both
  // CTAs reports; none hangs.
  this->expect_reports(6, {5});
  const auto reports = ptxw_test::read_reports(*this->diag_);
  EXPECT_EQ(this->diag_->count(), 2u * kThreads) << reports.text;
}

TYPED_TEST(ClcChecked, R13RankBelowTheGrids)
{
  const dim3 grid(8, 8, 4);
  DeviceBuffer<unsigned> hits;
  PTXW_CUDA_OK(hits.allocate_zeroed(256));
  record_blocks<2, TypeParam><<<grid, kThreads>>>(grid, hits.get(), this->prepare(grid));
  PTXW_LAUNCH_OK();
  this->expect_reports(13);
  EXPECT_EQ(this->diag_->count(), 1u) << "one report for the launch";
  this->expect_each_once(hits, 256);
}

TYPED_TEST(ClcChecked, R14LaunchLargerThanPrepared)
{
  DeviceBuffer<unsigned> hits;
  PTXW_CUDA_OK(hits.allocate_zeroed(200));
  // Prepared for 100 blocks, launched with 200: reported, the indices of the prepared grid run
  // once each, the extra CTAs write nothing out of it.
  record_blocks<1, TypeParam><<<200, kThreads>>>(dim3(100), hits.get(), this->prepare(dim3(100)));
  PTXW_LAUNCH_OK();
  this->expect_reports(14);
  std::vector<unsigned> host;
  PTXW_CUDA_OK(hits.download(host));
  for (unsigned i = 0; i < 200; ++i)
  {
    EXPECT_EQ(host[i], i < 100 ? 1u : 0u) << "index " << i;
  }
}

// R14 on counter_t with many blocks: 1001 CTAs launched for a prepared grid of 1000 x 100 (not a
// prefix of it) take every block from the counter, claims of up to 32 whose last one straddles the
// grid's end (clipped to it): reported, each block once. Three launches, as where a claim happens to
// end at the grid's end nothing is clipped.
using ClcCheckedCounter = ClcChecked<clc::counter_t>;
TEST_F(ClcCheckedCounter, R14LaunchThatIsNotAPrefixOfALargeGrid)
{
  const dim3 grid(1000, 100);
  DeviceBuffer<unsigned> hits;
  PTXW_CUDA_OK(hits.allocate(grid.x * grid.y));
  for (int run = 0; run < 3; ++run)
  {
    PTXW_CUDA_OK(hits.fill_bytes(0));
    record_blocks<2, clc::counter_t><<<1001, kThreads>>>(grid, hits.get(), prepare(grid));
    PTXW_LAUNCH_OK();
    expect_reports(14);
    expect_each_once(hits, grid.x * grid.y);
  }
}

} // namespace
