// Checked mode on the cluster launch control emulation: for each of R1-R6 a kernel that breaks the
// rule, and the report that must come of it -- with the rule id, never a hang or a silent wrong
// block. (That conforming kernels make no report is asserted by every ClcCoverage test.)
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

// A request by one elected lane of each warp for which `submits` holds -- in a conforming kernel,
// the first warp. The kernels below differ in who calls it, and when.
template <class Handle>
__device__ void request_if(bool submits, Handle& h)
{
  if (submits)
  {
    if (ptxw::elected e = ptxw::elect_one())
    {
      h.request(e);
    }
  }
}

__device__ void spin_ns(unsigned long long ns)
{
  const unsigned long long start = ptxw::checked::now_ns();
  while (ptxw::checked::now_ns() - start < ns)
  {
  }
}

// R1: a grid of one block, so the first request fails; then a second request anyway.
__global__ void request_after_failure(clc::context<> ctx)
{
  __shared__ clc::slot<clc::cta_t> slot;
  auto h = clc::open(slot, ctx);
  __syncthreads();
  request_if(first_warp(), h);
  const bool canceled = h.wait().decode([](auto) {});
  __syncthreads();
  request_if(!canceled && first_warp(), h); // R1
  (void) h.wait(); // checked mode answered the request with a failure: this completes
}

// R2: the first ctaid of a failed response, through the escape hatch.
__global__ void decode_failure(clc::context<> ctx, uint3* out)
{
  __shared__ clc::slot<clc::cta_t> slot;
  auto h = clc::open(slot, ctx);
  __syncthreads();
  request_if(first_warp(), h);
  const auto r = h.wait();
  if (threadIdx.x == 0)
  {
    *out = r.first_ctaid_unchecked(); // R2: the response failed (one block, nothing to cancel)
  }
}

// R3: the first and the second warp both submit for the same phase.
__global__ void two_submitters(clc::context<> ctx)
{
  __shared__ clc::slot<clc::cta_t> slot;
  auto h = clc::open(slot, ctx);
  __syncthreads();
  request_if(true, h); // one lane of every warp
  (void) h.wait();
}

// R4: no barrier between the reads of one response and the next request; the second warp reads
// late, so the first warp's next request comes while it still has to read.
__global__ void request_while_reading(clc::context<> ctx)
{
  __shared__ clc::slot<clc::cta_t> slot;
  auto h = clc::open(slot, ctx);
  __syncthreads();
  request_if(first_warp(), h);
  if (!first_warp())
  {
    spin_ns(2000000);
  }
  (void) h.wait();
  request_if(first_warp(), h); // R4: missing __syncthreads() before this
  (void) h.wait();
}

// R5: a cluster of two with the multicast form, where only rank 0 arms its barrier.
__global__ void unarmed_cta(clc::context<> ctx)
{
  __shared__ clc::slot<clc::cluster_t> slot;
  auto h = clc::open(slot, ctx);
  ptxw::ptx::barrier_cluster_arrive();
  ptxw::ptx::barrier_cluster_wait();
  request_if(first_warp() && ptxw::ptx::get_sreg_cluster_ctarank() == 0, h); // R5: rank 1 never calls request
  (void) h.wait();
  ptxw::ptx::barrier_cluster_arrive(); // no CTA leaves while the other may still touch its slot
  ptxw::ptx::barrier_cluster_wait();
}

// R6: the last thread skips two responses and then waits: its phase is two behind the slot's.
__global__ void stale_phase(clc::context<> ctx)
{
  __shared__ clc::slot<clc::cta_t> slot;
  auto h = clc::open(slot, ctx, kThreads - 1); // the last thread is not a reader of every phase
  const bool lazy = threadIdx.x == kThreads - 1;
  for (int round = 0; round < 3; ++round)
  {
    __syncthreads();
    request_if(first_warp(), h);
    if (!lazy || round == 2)
    {
      (void) h.wait(); // R6 for the lazy thread in round 2
    }
  }
}

// R6: every CTA of a cluster of two arms, but nobody submits: the waits never complete.
__global__ void never_completes(clc::context<> ctx)
{
  __shared__ clc::slot<clc::cluster_t> slot;
  auto h = clc::open(slot, ctx);
  ptxw::ptx::barrier_cluster_arrive();
  ptxw::ptx::barrier_cluster_wait();
  if (threadIdx.x == 0)
  {
    // Arms without a submitter: what a request by a CTA other than rank 0 does, here by hand.
    slot.bar.arrive_expect_tx(ptxw::ptx::sem_relaxed, ptxw::ptx::scope_cluster, ptxw::tx_bytes{16});
    atomicAdd(&slot.books.requests, 1u);
  }
  (void) h.wait();
  ptxw::ptx::barrier_cluster_arrive();
  ptxw::ptx::barrier_cluster_wait();
}

class ClcChecked : public Gpu
{
protected:
  void SetUp() override
  {
    Gpu::SetUp();
    if (!IsSkipped() && !HasFatalFailure())
    {
      emulator_.emplace(16);
      diag_.emplace(256, 50000000ull); // a wait may take 50 ms before it is reported
    }
  }

  ptxw::clc::context<> prepare(dim3 grid, dim3 cluster = dim3(1, 1, 1))
  {
    return emulator_->prepare(grid, cluster, 0, diag_->device_sink());
  }

  std::optional<ptxw::clc::emulator> emulator_;
  std::optional<ptxw::checked::diagnostics> diag_;
};

// Expects reports of `rule`, and of no rule but those in `allowed` (consequences of the violation).
void expect_reports(const ptxw::checked::diagnostics& diag, unsigned rule, std::initializer_list<unsigned> allowed = {})
{
  const auto reports = ptxw_test::read_reports(diag);
  EXPECT_TRUE(reports.has(rule)) << "no R" << rule << " report; reports:\n" << reports.text;
  for (unsigned r : reports.rules)
  {
    bool ok = r == rule;
    for (unsigned a : allowed)
    {
      ok |= r == a;
    }
    EXPECT_TRUE(ok) << "unexpected R" << r << " report:\n" << reports.text;
  }
}

} // namespace

TEST_F(ClcChecked, R1RequestAfterObservedFailure)
{
  request_after_failure<<<1, kThreads>>>(prepare(dim3(1)));
  PTXW_LAUNCH_OK();
  expect_reports(*diag_, 1);
  EXPECT_EQ(diag_->count(), 1u) << "one request after the failure, one report";
}

TEST_F(ClcChecked, R2DecodeOfAFailedResponse)
{
  DeviceBuffer<uint3> out;
  PTXW_CUDA_OK(out.allocate(1));
  PTXW_CUDA_OK(out.fill_bytes(0xff));
  decode_failure<<<1, kThreads>>>(prepare(dim3(1)), out.get());
  PTXW_LAUNCH_OK();
  expect_reports(*diag_, 2);
  std::vector<uint3> host;
  PTXW_CUDA_OK(out.download(host));
  EXPECT_EQ(host[0].x, 0u) << "checked mode returns a zero index instead of decoding a failure";
}

TEST_F(ClcChecked, R3TwoSubmittersInOnePhase)
{
  two_submitters<<<4, kThreads>>>(prepare(dim3(4)));
  PTXW_LAUNCH_OK();
  expect_reports(*diag_, 3);
  EXPECT_EQ(diag_->count(), 4u) << "one second submitter per CTA";
}

TEST_F(ClcChecked, R4RequestWhileReadersStillRead)
{
  request_while_reading<<<1, kThreads>>>(prepare(dim3(1)));
  PTXW_LAUNCH_OK();
  expect_reports(*diag_, 4);
}

TEST_F(ClcChecked, R5ClusterCtaNeverArmed)
{
  PTXW_CUDA_OK(ptxw_test::launch_clusters(unarmed_cta, dim3(2), dim3(2, 1, 1), dim3(kThreads),
                                          prepare(dim3(2), dim3(2, 1, 1))));
  PTXW_LAUNCH_OK();
  expect_reports(*diag_, 5);
}

TEST_F(ClcChecked, R6StalePhase)
{
  stale_phase<<<1, kThreads>>>(prepare(dim3(1)));
  PTXW_LAUNCH_OK();
  expect_reports(*diag_, 6);
  EXPECT_EQ(diag_->count(), 1u) << "only the lazy thread is out of step";
}

TEST_F(ClcChecked, R6WaitThatNeverCompletes)
{
  PTXW_CUDA_OK(ptxw_test::launch_clusters(never_completes, dim3(2), dim3(2, 1, 1), dim3(kThreads),
                                          prepare(dim3(2), dim3(2, 1, 1))));
  PTXW_LAUNCH_OK();
  expect_reports(*diag_, 6);
  EXPECT_EQ(diag_->count(), 2u * kThreads) << "every waiting thread of both CTAs reports, none hangs";
}
