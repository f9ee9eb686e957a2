// Checked mode on the mbarrier misuse that only run time can see (R6, R11; docs/rules.md): each
// kernel plants one violation. With no sink to record into, checked mode prints its report and
// traps (each runs in the child of a death test, since a trap loses the CUDA context); with a
// default sink (diagnostics::make_default) the report is recorded and the kernel finishes.
#include <ptxw/core/checked_host.h>
#include <ptxw/ptxw.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include <unistd.h>

#include "gpu.h"

namespace {

constexpr int kTrapped = 3;

// One ptxw::phase for two barriers: it completes a's phase 0, then waits on b with the parity of
// b's preceding phase, which succeeds at once without checked mode. `plant` false: only writes
// the two barriers' addresses, for the test to expect in the report.
__global__ void one_phase_two_barriers_kernel(bool plant, unsigned* addresses)
{
  __shared__ ptxw::cta_barrier a;
  __shared__ ptxw::cta_barrier b;
  a.init(ptxw::arrivals{1});
  b.init(ptxw::arrivals{1});
  addresses[0] = a.smem_addr();
  addresses[1] = b.smem_addr();
  ptxw::phase ph;
  a.arrive();
  a.wait(ph);
  if (plant)
  {
    b.wait(ph);
  }
}

// The planted violations below are also what nvcc can say at compile time: its warnings, silenced
// here only.
#pragma nv_diagnostic push
#pragma nv_diag_suppress 20054 // dynamic initialization is not supported for a __shared__ variable
#pragma nv_diag_suppress 68    // integer conversion resulted in a change of sign

// A phase in shared memory: never initialised, and the same object for every thread.
__global__ void shared_phase_kernel()
{
  __shared__ ptxw::cta_barrier bar;
  __shared__ ptxw::phase ph;
  bar.init(ptxw::arrivals{1});
  bar.arrive();
  bar.wait(ph);
}

// Counts that are constants but out of the PTX range: C++17 in nvcc's device code cannot see a
// constant argument's value, so they compile (the negative one with warning #68).
constexpr int kThreads   = 128;
constexpr unsigned kNone = 0;

__global__ void bytes_out_of_range_kernel()
{
  __shared__ ptxw::cta_barrier bar;
  bar.init(ptxw::arrivals{1});
  bar.expect_tx(ptxw::tx_bytes{1u << 20});
}

// The same count with a sink: reported, and not issued -- so the one arrival completes the phase,
// which a pending transaction count would hold open. `completed` gets test_wait's answer.
__global__ void bytes_out_of_range_then_arrive_kernel(unsigned* completed)
{
  __shared__ ptxw::cta_barrier bar;
  bar.init(ptxw::arrivals{1});
  bar.expect_tx(ptxw::tx_bytes{1u << 20});
  bar.arrive();
  ptxw::phase ph;
  *completed = bar.test_wait(ph) ? 1u : 0u;
}

__global__ void negative_arrivals_kernel()
{
  __shared__ ptxw::cta_barrier bar;
  bar.init(ptxw::arrivals(kThreads - 256));
}

__global__ void zero_arrivals_kernel()
{
  __shared__ ptxw::cta_barrier bar;
  bar.init(ptxw::arrivals{kNone});
}
#pragma nv_diagnostic pop

// A wait that never completes: two arrivals expected, one made.
__global__ void never_completes_kernel()
{
  __shared__ ptxw::cta_barrier bar;
  bar.init(ptxw::arrivals{2});
  bar.arrive();
  ptxw::phase ph;
  bar.wait(ph);
}

// The death test's child: stdout, where device printf goes, joins stderr, which EXPECT_EXIT
// matches; exits with kTrapped if the kernel trapped, 0 if it finished.
template <class Launch>
void launch_and_exit(Launch launch)
{
  std::fflush(stdout);
  dup2(STDERR_FILENO, STDOUT_FILENO);
  launch();
  const cudaError_t err = cudaDeviceSynchronize();
  std::fflush(stdout);
  std::fprintf(stderr, "kernel: %s\n", cudaGetErrorString(err));
  std::exit(err == cudaSuccess ? 0 : kTrapped);
}

std::string hex(unsigned v)
{
  char s[16];
  std::snprintf(s, sizeof s, "%x", v);
  return s;
}

// The R11 report of a count out of the PTX range: the count is its detail.
void expect_count_report(void (*kernel)(), const char* count)
{
  EXPECT_EXIT(launch_and_exit([&] { kernel<<<1, 1>>>(); }), ::testing::ExitedWithCode(kTrapped),
              std::string("ptxw: R11 violated \\(a count out of the PTX range; detail: the count\\).* detail ") + count
                + " ");
}

class MbarrierChecked : public Gpu
{
protected:
  void SetUp() override
  {
    Gpu::SetUp();
    // The child re-executes this binary: the parent's CUDA context and threads stay behind.
    GTEST_FLAG_SET(death_test_style, "threadsafe");
  }
};

} // namespace

TEST_F(MbarrierChecked, R6OnePhaseOnTwoBarriers)
{
  DeviceBuffer<unsigned> addresses;
  PTXW_CUDA_OK(addresses.allocate(2));
  one_phase_two_barriers_kernel<<<1, 1>>>(false, addresses.get());
  PTXW_LAUNCH_OK();
  std::vector<unsigned> a_b;
  PTXW_CUDA_OK(addresses.download(a_b));
  // This barrier (b), the phase waited for (one completed wait on a), and the barrier it is bound to (a).
  const std::string report = "ptxw: R6 violated \\(one ptxw::phase waits on two barriers.*\\): block \\(0,0,0\\) "
                             "thread \\(0,0,0\\) barrier/slot 0x" + hex(a_b[1]) + " phase 1 \\(parity 1\\) detail "
                           + std::to_string(a_b[0]) + " \\(0x" + hex(a_b[0]) + "\\)";
  EXPECT_EXIT(launch_and_exit([&] { one_phase_two_barriers_kernel<<<1, 1>>>(true, addresses.get()); }),
              ::testing::ExitedWithCode(kTrapped), report);
}

TEST_F(MbarrierChecked, R6PhaseInSharedMemory)
{
  EXPECT_EXIT(launch_and_exit([] { shared_phase_kernel<<<1, 1>>>(); }), ::testing::ExitedWithCode(kTrapped),
              "ptxw: R6 violated \\(a ptxw::phase in shared memory");
}

TEST_F(MbarrierChecked, R6WaitThatNeverCompletes)
{
  EXPECT_EXIT(launch_and_exit([] { never_completes_kernel<<<1, 1>>>(); }), ::testing::ExitedWithCode(kTrapped),
              "ptxw: R6 violated \\(a wait that did not complete within the sink's timeout, "
              "PTXW_CHECKED_TIMEOUT_NS by default\\).* phase 0 ");
}

TEST_F(MbarrierChecked, R11ConstantBytesOutOfRange)
{
  expect_count_report(bytes_out_of_range_kernel, "1048576");
}

TEST_F(MbarrierChecked, R11NegativeConstantArrivals)
{
  expect_count_report(negative_arrivals_kernel, "4294967168");
}

TEST_F(MbarrierChecked, R11ZeroArrivalsFromAConstant)
{
  expect_count_report(zero_arrivals_kernel, "0");
}

// With a default sink: recorded, not trapped, and the kernel finishes (the wait that timed out
// returns as if completed).
class MbarrierDefaultSink : public Gpu
{
protected:
  std::optional<ptxw::checked::diagnostics> diag_;

  void SetUp() override
  {
    Gpu::SetUp();
    if (IsSkipped())
    {
      return;
    }
    diag_.emplace(16, 50000000ull); // the wait that never completes is given 50 ms
    diag_->make_default();
  }

  // The one report of the last launch, which finished.
  ptxw::checked::diagnostic only_report()
  {
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const auto reports = diag_->read();
    EXPECT_EQ(reports.size(), 1u);
    return reports.empty() ? ptxw::checked::diagnostic{} : reports[0];
  }
};

TEST_F(MbarrierDefaultSink, R6WaitThatNeverCompletesIsRecorded)
{
  never_completes_kernel<<<1, 1>>>();
  const auto d = only_report();
  EXPECT_EQ(d.rule, 6u) << ptxw::checked::describe(d);
  EXPECT_EQ(d.phase, 0u);
}

TEST_F(MbarrierDefaultSink, R6OnePhaseOnTwoBarriersIsRecorded)
{
  DeviceBuffer<unsigned> addresses;
  PTXW_CUDA_OK(addresses.allocate(2));
  one_phase_two_barriers_kernel<<<1, 1>>>(true, addresses.get());
  const auto d = only_report();
  std::vector<unsigned> a_b;
  PTXW_CUDA_OK(addresses.download(a_b));
  EXPECT_EQ(d.rule, 6u) << ptxw::checked::describe(d);
  EXPECT_EQ(d.address, a_b[1]) << "the barrier waited on";
  EXPECT_EQ(d.detail, a_b[0]) << "the barrier the phase is bound to";
}

TEST_F(MbarrierDefaultSink, R11CountOutOfRangeIsRecordedAndNotIssued)
{
  DeviceBuffer<unsigned> completed;
  PTXW_CUDA_OK(completed.allocate(1));
  bytes_out_of_range_then_arrive_kernel<<<1, 1>>>(completed.get());
  const auto d = only_report();
  EXPECT_EQ(d.rule, 11u) << ptxw::checked::describe(d);
  EXPECT_EQ(d.detail, 1u << 20);
  std::vector<unsigned> done;
  PTXW_CUDA_OK(completed.download(done));
  EXPECT_EQ(done[0], 1u) << "the out-of-range expect_tx reached the barrier";
}
