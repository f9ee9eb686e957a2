// counter_t's cursor, which no launch clears first (ptxw/clc/counter_cursor.h), over the launch
// sequences one scheduler meets: launches in a row (each renews the next one's cursor), contexts
// prepared and never launched (the next launch finds a cursor nobody renewed and raises it by
// atomicMax), a CUDA graph that replays one context (its cursor cleared in the graph), and
// launches of the emulation in between (which clear their counters). Every block index of every
// launch runs exactly once, through for_each_canceled_block's loop and through typed requests.
// And the misuse, two launches of one scheduler at once (R32), in either order: each keeps its
// blocks exactly once or ends its claims, and checked mode reports it.
#include <ptxw/ptxw.h>

#include "clc_launch.h"
#include "clc_walks.h"
#include "gpu.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace clc = ptxw::clc;

constexpr unsigned kThreads = 128;
constexpr unsigned kBlocks  = 300000; // short blocks: counter_t claims up to 32 an atomic

struct Record
{
  unsigned* hits;
  unsigned* stolen;

  __device__ void operator()(unsigned block, bool own) const
  {
    if (threadIdx.x == 0)
    {
      atomicAdd(&hits[block], 1u);
      if (!own)
      {
        atomicAdd(stolen, 1u);
      }
    }
  }
};

enum class Form
{
  loop,
  typed_requests
};

class ClcCounterCursor
    : public Gpu
    , public ::testing::WithParamInterface<Form>
{
protected:
  void SetUp() override
  {
    Gpu::SetUp();
    if (IsSkipped() || HasFatalFailure())
    {
      return;
    }
    diag_.emplace(64, ptxw_test::long_wait_ns());
    PTXW_CUDA_OK(hits_.allocate(kBlocks));
    PTXW_CUDA_OK(stolen_.allocate(1));
    PTXW_CUDA_OK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }
  void TearDown() override
  {
    if (stream_ != nullptr)
    {
      cudaStreamDestroy(stream_);
    }
  }

  template <class Backend, class Visit = Record>
  static auto kernel_of(Form f)
  {
    return f == Form::loop ? ptxw_test::looped_walk<Backend, Visit> : ptxw_test::typed_walk<Backend, Visit>;
  }

  // Prepares and launches one work-stealing launch of kBlocks on stream_ (or only enqueues it
  // there, while the stream is captured).
  template <class Backend = clc::counter_t>
  void launch(clc::scheduler& sched)
  {
    auto kernel = kernel_of<Backend>(GetParam());
    auto l      = sched.prepare(kernel, dim3(kBlocks), dim3(kThreads), 0, dim3(1), stream_, diag_->device_sink());
    launched_   = l.grid.x;
    kernel<<<l.grid, kThreads, 0, stream_>>>(Record{hits_.get(), stolen_.get()}, l.ctx);
    PTXW_CUDA_OK(cudaGetLastError());
  }

  void clear()
  {
    PTXW_CUDA_OK(cudaMemsetAsync(hits_.get(), 0, sizeof(unsigned) * kBlocks, stream_));
    PTXW_CUDA_OK(cudaMemsetAsync(stolen_.get(), 0, sizeof(unsigned), stream_));
  }

  // After the launch (or replay) on stream_: every block index ran exactly once, those beyond the
  // launch through the cursor, and nothing was reported.
  void expect_exactly_once(const std::string& what)
  {
    PTXW_CUDA_OK(cudaStreamSynchronize(stream_));
    std::vector<unsigned> hits, stolen;
    PTXW_CUDA_OK(hits_.download(hits));
    PTXW_CUDA_OK(stolen_.download(stolen));
    unsigned long long lost = 0, repeated = 0;
    for (unsigned h : hits)
    {
      lost += h == 0;
      repeated += h > 1;
    }
    EXPECT_EQ(lost, 0u) << what << ": block indices never run";
    EXPECT_EQ(repeated, 0u) << what << ": block indices run more than once";
    EXPECT_EQ(stolen[0], kBlocks - launched_) << what << ": blocks beyond the launch not handed out by the cursor";
    EXPECT_LT(launched_, kBlocks) << what << ": nothing was left to steal";
    const auto reports = ptxw_test::read_reports(*diag_);
    EXPECT_EQ(reports.total, 0u) << what << ":\n" << reports.text;
  }

  std::optional<ptxw::checked::diagnostics> diag_;
  DeviceBuffer<unsigned> hits_, stolen_;
  cudaStream_t stream_ = nullptr;
  unsigned launched_   = 0;
};

TEST_P(ClcCounterCursor, LaunchesInARowRenewEachOthersCursor)
{
  clc::scheduler sched;
  for (int i = 0; i < 6; ++i)
  {
    clear();
    launch(sched);
    expect_exactly_once("launch " + std::to_string(i));
  }
}

TEST_P(ClcCounterCursor, ContextsPreparedAndNeverLaunchedLoseNothing)
{
  clc::scheduler sched;
  auto kernel = kernel_of<clc::counter_t>(GetParam());
  // 0, 1 and 2 contexts dropped between launches: the next launch's cursor is the one the last
  // launch used, then one renewed for a launch that never came.
  for (int dropped = 0; dropped < 3; ++dropped)
  {
    for (int d = 0; d < dropped; ++d)
    {
      (void) sched.prepare(kernel, dim3(kBlocks), dim3(kThreads), 0, dim3(1), stream_);
    }
    clear();
    launch(sched);
    expect_exactly_once(std::to_string(dropped) + " contexts dropped before the launch");
  }
}

TEST_P(ClcCounterCursor, GraphReplaysOfOneContextEachRunEveryBlock)
{
  clc::scheduler sched;
  clear();
  launch(sched);
  expect_exactly_once("the launch before the capture");

  cudaGraph_t graph = nullptr;
  PTXW_CUDA_OK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
  launch(sched);
  PTXW_CUDA_OK(cudaStreamEndCapture(stream_, &graph));
  cudaGraphExec_t exec = nullptr;
  PTXW_CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
  for (int replay = 0; replay < 3; ++replay)
  {
    clear();
    PTXW_CUDA_OK(cudaGraphLaunch(exec, stream_));
    expect_exactly_once("replay " + std::to_string(replay));
  }
  clear();
  launch(sched);
  expect_exactly_once("the launch after the replays");
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
}

TEST_P(ClcCounterCursor, EmulatedLaunchesBetweenLoseNothing)
{
  clc::scheduler sched(kBlocks);
  for (int i = 0; i < 2; ++i)
  {
    clear();
    launch(sched);
    expect_exactly_once("counter_t launch " + std::to_string(i));
    clear();
    launch<clc::emulated_t>(sched);
    PTXW_CUDA_OK(cudaStreamSynchronize(stream_));
    std::vector<unsigned> hits;
    PTXW_CUDA_OK(hits_.download(hits));
    unsigned long long wrong = 0;
    for (unsigned h : hits)
    {
      wrong += h != 1;
    }
    EXPECT_EQ(wrong, 0u) << "emulated_t launch " << i << ": block indices not run exactly once";
  }
  clear();
  launch(sched);
  expect_exactly_once("counter_t launch after the emulation");
}

// R32's launches, both through a cursor handed from one to the other. One CTA of a prepared grid
// (a prefix of it, R14) holds the first block it took from the cursor -- flags[0] says so -- until
// the other launch has started (flags[1]; `held`, flags[2], stays 0 after 2 s without it).
struct HoldUntilReleased
{
  unsigned* hits;
  unsigned* flags;

  __device__ void operator()(unsigned block, bool own) const
  {
    if (threadIdx.x != 0)
    {
      return;
    }
    atomicAdd(&hits[block], 1u);
    if (!own && atomicExch(&flags[0], 1u) == 0u)
    {
      const long long start = clock64();
      while (*static_cast<volatile unsigned*>(&flags[1]) == 0 && clock64() - start < 4000000000ll)
      {
      }
      __threadfence(); // the claims after this see what the other launch wrote before flags[1]
      flags[2] = *static_cast<volatile unsigned*>(&flags[1]);
    }
  }
};

// The other launch: one CTA of a grid of one, which renews the next launch's cursor as it starts.
struct Release
{
  unsigned* flags;

  __device__ void operator()(unsigned, bool) const
  {
    if (threadIdx.x == 0)
    {
      __threadfence();
      atomicExch(&flags[1], 1u);
    }
  }
};

// Ahead of the other launch on its stream: ends once the holder holds (flags[0]), or after 2 s
// (flags[3]: 1, 2).
__global__ void after_hold(unsigned* flags)
{
  const long long start = clock64();
  while (*static_cast<volatile unsigned*>(&flags[0]) == 0 && clock64() - start < 4000000000ll)
  {
  }
  flags[3] = *static_cast<volatile unsigned*>(&flags[0]) != 0 ? 1u : 2u;
}

class ClcCounterCursorOverlap : public ClcCounterCursor
{
protected:
  static constexpr unsigned kGrid = 1024; // more than the claims in flight around the hold take

  // Two launches of one scheduler, prepared in order, run at once: the holder is the earlier one
  // or the later one (`later_holds`), the other starts while it holds. Both must end (a launch
  // that claims again forever does not: 20 s at most); `hits` then counts the holder's blocks.
  void overlap(bool later_holds, std::vector<unsigned>& hits)
  {
    clc::scheduler sched;
    cudaStream_t other = nullptr;
    PTXW_CUDA_OK(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
    PTXW_CUDA_OK(flags_.allocate(4));
    PTXW_CUDA_OK(cudaMemsetAsync(flags_.get(), 0, 4 * sizeof(unsigned), stream_));
    PTXW_CUDA_OK(cudaMemsetAsync(hits_.get(), 0, kGrid * sizeof(unsigned), stream_));
    // The scheduler's first prepare() clears its counters on the stream (the tags start at 0):
    // done before, so that nothing on either stream comes between the two launches.
    (void) sched.prepare(dim3(kGrid), dim3(1), stream_);
    PTXW_CUDA_OK(cudaStreamSynchronize(stream_));
    const auto sink = diag_->device_sink();
    auto earlier    = sched.prepare<clc::counter_t>(dim3(later_holds ? 1 : kGrid), dim3(1), stream_, sink);
    auto later      = sched.prepare<clc::counter_t>(dim3(later_holds ? kGrid : 1), dim3(1), other, sink);
    cudaStream_t holds_on = later_holds ? other : stream_, releases_on = later_holds ? stream_ : other;
    auto hold             = kernel_of<clc::counter_t, HoldUntilReleased>(GetParam());
    auto release          = kernel_of<clc::counter_t, Release>(GetParam());
    // Loaded before the first launch: under lazy loading (CUDA's default) the first launch of a
    // kernel may wait for the kernels running, here the holder (the CUDA programming guide, "Lazy
    // Loading", its hazards for concurrent execution).
    cudaFuncAttributes attributes{};
    PTXW_CUDA_OK(cudaFuncGetAttributes(&attributes, hold));
    PTXW_CUDA_OK(cudaFuncGetAttributes(&attributes, release));
    PTXW_CUDA_OK(cudaFuncGetAttributes(&attributes, after_hold));
    hold<<<1, kThreads, 0, holds_on>>>(HoldUntilReleased{hits_.get(), flags_.get()}, later_holds ? later : earlier);
    PTXW_CUDA_OK(cudaGetLastError());
    after_hold<<<1, 1, 0, releases_on>>>(flags_.get());
    release<<<1, kThreads, 0, releases_on>>>(Release{flags_.get()}, later_holds ? earlier : later);
    PTXW_CUDA_OK(cudaGetLastError());

    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    cudaError_t ended   = cudaErrorNotReady;
    while (ended == cudaErrorNotReady && std::chrono::steady_clock::now() < deadline)
    {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      ended = cudaStreamQuery(stream_);
      if (ended == cudaSuccess)
      {
        ended = cudaStreamQuery(other);
      }
    }
    ASSERT_EQ(ended, cudaSuccess) << "the launches did not end within 20 s: " << cudaGetErrorString(ended);
    cudaStreamDestroy(other);
    std::vector<unsigned> flag;
    PTXW_CUDA_OK(flags_.download(flag));
    PTXW_CUDA_OK(hits_.download(hits));
    hits.resize(kGrid);
    ASSERT_EQ(flag[2], 1u) << "the other launch never started while the holder held: nothing overlapped (held "
                           << flag[0] << ", the other waited " << (flag[3] == 1 ? "for the hold" : "2 s") << ", "
                           << std::count_if(hits.begin(), hits.end(), [](unsigned h) { return h != 0; })
                           << " blocks of the holder ran)";
  }

  // Checked mode reported R32 and nothing else; unchecked, nothing.
  void expect_r32()
  {
    const auto reports = ptxw_test::read_reports(*diag_);
    if (PTXW_CHECKED)
    {
      EXPECT_TRUE(reports.has(32)) << "no R32 report; reports:\n" << reports.text;
      for (unsigned r : reports.rules)
      {
        EXPECT_EQ(r, 32u) << reports.text;
      }
    }
    else
    {
      EXPECT_EQ(reports.total, 0u) << reports.text;
    }
  }

  DeviceBuffer<unsigned> flags_;
};

// The later launch starts while the earlier one still claims: it renews the cursor of the launch
// after it, which is the earlier one's. The earlier one's next claim finds the later tag and ends
// its walk, where claiming again would never end: no block runs twice, the blocks after the hold
// do not run.
TEST_P(ClcCounterCursorOverlap, R32AnEarlierLaunchStillRunningEndsItsClaims)
{
  std::vector<unsigned> hits;
  overlap(false, hits);
  if (HasFatalFailure())
  {
    return;
  }
  unsigned ran = 0, repeated = 0;
  for (unsigned h : hits)
  {
    ran += h != 0;
    repeated += h > 1;
  }
  EXPECT_EQ(repeated, 0u) << "block indices run more than once";
  EXPECT_EQ(hits[0], 1u) << "the earlier launch's own block";
  EXPECT_LT(ran, kGrid) << "the earlier launch went on claiming from the cursor the later one renewed";
  expect_r32();
}

// The earlier launch starts while the later one claims: its renewal of the later one's cursor
// leaves the count the later one claims from, so every block of the later one runs exactly once.
TEST_P(ClcCounterCursorOverlap, R32ALaterLaunchRunningFirstKeepsItsCursor)
{
  std::vector<unsigned> hits;
  overlap(true, hits);
  if (HasFatalFailure())
  {
    return;
  }
  for (unsigned i = 0; i < kGrid; ++i)
  {
    EXPECT_EQ(hits[i], 1u) << "block index " << i << " of the later launch";
  }
  expect_r32();
}

std::string form_name(const ::testing::TestParamInfo<Form>& info)
{
  return info.param == Form::loop ? "ForEachCanceledBlock" : "TypedRequests";
}

INSTANTIATE_TEST_SUITE_P(Hopper, ClcCounterCursor, ::testing::Values(Form::loop, Form::typed_requests), form_name);
INSTANTIATE_TEST_SUITE_P(Hopper, ClcCounterCursorOverlap, ::testing::Values(Form::loop, Form::typed_requests),
                         form_name);

} // namespace
