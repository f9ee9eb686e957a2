// counter_t's cursor, which no launch clears first (ptxw/clc/counter_cursor.h), over the launch
// sequences one scheduler meets: launches in a row (each renews the next one's cursor), contexts
// prepared and never launched (the next launch finds a cursor nobody renewed and renews it by
// compare-and-swap), a CUDA graph that replays one context (its cursor cleared in the graph), and
// launches of the emulation in between (which clear their counters). Every block index of every
// launch runs exactly once, through for_each_canceled_block's loop and through typed requests.
#include <ptxw/ptxw.h>

#include "clc_launch.h"
#include "clc_walks.h"
#include "gpu.h"

#include <string>
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

  template <class Backend>
  static auto kernel_of(Form f)
  {
    return f == Form::loop ? ptxw_test::looped_walk<Backend, Record> : ptxw_test::typed_walk<Backend, Record>;
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

std::string form_name(const ::testing::TestParamInfo<Form>& info)
{
  return info.param == Form::loop ? "ForEachCanceledBlock" : "TypedRequests";
}

INSTANTIATE_TEST_SUITE_P(Hopper, ClcCounterCursor, ::testing::Values(Form::loop, Form::typed_requests), form_name);

} // namespace
