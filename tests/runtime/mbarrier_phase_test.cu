// ptxw::phase over many consecutive phases of one barrier (R6), and the blocking wait overloads.
#include <ptxw/ptxw.h>

#include <cuda/ptx> // the kernels also use cuda::ptx directly

#include "gpu.h"

namespace {

constexpr unsigned kThreads = 128;

// Every thread arrives once per phase and waits for it. Per phase i, every thread checks:
//  - its phase object has parity i % 2 (thread 0 also stores it for the host);
//  - before its own arrival, test_wait on the phase is false: the phase needs this thread's arrival,
//    so this is race-free. From the second phase on, this is the phase right after the one the
//    thread just waited for: a completed wait must leave the phase object on a phase that is not
//    complete yet;
//  - after the wait, the stamp its neighbour wrote before arriving in phase i is i. Stamps are
//    double-buffered by phase parity: the neighbour rewrites this slot in phase i + 2 at the
//    earliest, after phase i + 1 completed, which needs this thread's arrival of phase i + 1, made
//    after this read. A wait that returned before the phase completed, or an arrive without
//    release / a wait without acquire, shows here as a stale stamp.
__global__ void consecutive_phases_kernel(unsigned phases, unsigned* parities, Report* report)
{
  __shared__ ptxw::cta_barrier bar;
  __shared__ unsigned stamp[2][kThreads];
  Check check(report);
  const unsigned tid = threadIdx.x;
  ptxw_test::init_by_thread0(bar, ptxw::arrivals{kThreads});

  ptxw::phase ph;
  for (unsigned i = 0; i < phases; ++i)
  {
    check.expect(ph.parity() == (i & 1u), __LINE__);
    if (tid == 0 && parities != nullptr)
    {
      parities[i] = ph.parity();
    }
    check.expect(!bar.test_wait(ph), __LINE__);
    stamp[i & 1u][tid] = i;
    bar.arrive();
    if (check.wait(__LINE__, bar, ph))
    {
      check.expect(stamp[i & 1u][(tid + 1) % kThreads] == i, __LINE__);
    }
  }
  check.expect(ph.parity() == (phases & 1u), __LINE__);
  check.finish();
}

// One thread, one arrival per phase: nothing but this thread moves the barrier, so once a bounded
// wait with a second phase object (`probe`, in step with `ph`) has seen the phase complete, the
// library's blocking bar.wait(ph) on the same phase must return at once -- it cannot hang unless
// try_wait is broken, and then the bounded probe fails first and the blocking wait is skipped.
// Cycles through every overload of wait.
template <class Barrier>
__global__ void blocking_wait_kernel(unsigned phases, Report* report)
{
  __shared__ Barrier bar;
  Check check(report);
  bar.init(ptxw::arrivals{1});
  ptxw::phase ph;
  ptxw::phase probe;
  using scope = typename Barrier::scope_type;
  for (unsigned i = 0; i < phases; ++i)
  {
    check.expect(!bar.test_wait(ph), __LINE__);
    bar.arrive();
    if (!check.wait(__LINE__, bar, probe))
    {
      break; // the phase never completed: the blocking wait would hang
    }
    switch (i % 4)
    {
      case 0:
        bar.wait(ph);
        break;
      case 1:
        bar.wait(ph, ptxw::suspend_hint{1000});
        break;
      case 2:
        bar.wait(ptx::sem_acquire, scope{}, ph);
        break;
      default:
        bar.wait(ptx::sem_relaxed, scope{}, ph, ptxw::suspend_hint{1000});
        break;
    }
    check.expect(ph.parity() == probe.parity(), __LINE__);
    check.expect(ph.parity() == ((i + 1) & 1u), __LINE__);
  }
  check.finish();
}

// A fresh barrier with ptxw::phase::preceding(): the first wait succeeds at once (the phase before
// the first counts as complete) and leaves the phase object on phase 0, which needs the arrival.
__global__ void preceding_phase_kernel(Report* report)
{
  __shared__ ptxw::cta_barrier bar;
  Check check(report);
  bar.init(ptxw::arrivals{1});
  ptxw::phase ph = ptxw::phase::preceding();
  check.expect(ph.parity() == 1u, __LINE__);
  check.expect(bar.test_wait(ph), __LINE__);
  check.expect(ph.parity() == 0u, __LINE__);
  check.expect(!bar.test_wait(ph), __LINE__);
  bar.arrive();
  check.wait(__LINE__, bar, ph);
  check.expect(ph.parity() == 1u, __LINE__);
  check.finish();
}

class MbarrierPhase : public Gpu
{};

} // namespace

TEST_F(MbarrierPhase, ThousandPhasesWithThePhaseObject)
{
  constexpr unsigned phases = 1000;
  PTXW_NEW_REPORT(report);
  DeviceBuffer<unsigned> parities;
  PTXW_CUDA_OK(parities.allocate(phases));
  PTXW_CUDA_OK(parities.fill_bytes(0xff));

  consecutive_phases_kernel<<<1, kThreads>>>(phases, parities.get(), report.get());
  PTXW_LAUNCH_OK();

  PTXW_EXPECT_REPORT(report, phases * kThreads);
  std::vector<unsigned> host;
  PTXW_CUDA_OK(parities.download(host));
  for (unsigned i = 0; i < phases; ++i)
  {
    ASSERT_EQ(host[i], i % 2) << "parity of phase " << i;
  }
}

TEST_F(MbarrierPhase, ThousandPhasesInManyBlocks)
{
  // The same in many blocks at once (two per SM on an H100), each block with its own barrier.
  constexpr unsigned phases = 1000;
  constexpr unsigned blocks = 264;
  PTXW_NEW_REPORT(report);

  consecutive_phases_kernel<<<blocks, kThreads>>>(phases, nullptr, report.get());
  PTXW_LAUNCH_OK();

  PTXW_EXPECT_REPORT(report, static_cast<unsigned long long>(phases) * kThreads * blocks);
}

TEST_F(MbarrierPhase, BlockingWaitOverloadsOnCtaBarrier)
{
  constexpr unsigned phases = 1000;
  PTXW_NEW_REPORT(report);
  blocking_wait_kernel<ptxw::cta_barrier><<<1, 1>>>(phases, report.get());
  PTXW_LAUNCH_OK();
  PTXW_EXPECT_REPORT(report, phases);
}

TEST_F(MbarrierPhase, BlockingWaitOverloadsOnClusterBarrier)
{
  constexpr unsigned phases = 1000;
  PTXW_NEW_REPORT(report);
  blocking_wait_kernel<ptxw::cluster_barrier><<<1, 1>>>(phases, report.get());
  PTXW_LAUNCH_OK();
  PTXW_EXPECT_REPORT(report, phases);
}

TEST_F(MbarrierPhase, PrecedingPhaseIsCompleteOnAFreshBarrier)
{
  PTXW_NEW_REPORT(report);
  preceding_phase_kernel<<<1, 1>>>(report.get());
  PTXW_LAUNCH_OK();
  PTXW_EXPECT_REPORT(report, 1);
}
