// Several arrivals per phase: init(arrivals{k}) with k arriving threads, and arrive(arrivals{n})
// contributing n at once. A phase must complete on its last arrival, never before.
//
// The "not before" checks are race-free by construction: every arrival but the last is made, a
// __syncthreads makes them happen-before every thread's test_wait (which must be false), a second
// __syncthreads keeps the designated last arriver from arriving until every thread has looked, and
// only then does the last arrival happen.
#include <ptxw/ptxw.h>

#include <cuda/ptx> // the kernels also use cuda::ptx directly

#include "gpu.h"

namespace {

constexpr unsigned kThreads = 256;

// The frame of every kernel here: thread 0 initialises a CTA barrier for `count` arrivals; per
// phase i, phase(check, bar, ph, i) makes the phase's arrivals, checks between them that it is
// still open, and waits; every thread leaves the loop together once any wait timed out.
template <class Phase>
__device__ void each_phase(Report* report, ptxw::arrivals count, unsigned phases, Phase phase)
{
  __shared__ ptxw::cta_barrier bar;
  Check check(report);
  ptxw_test::init_by_thread0(bar, count);
  ptxw::phase ph;
  for (unsigned i = 0; i < phases; ++i)
  {
    phase(check, bar, ph, i);
    if (check.cta_gave_up()) // also a __syncthreads the phases' last checks rely on
    {
      break;
    }
  }
  check.finish();
}

// init(arrivals{k}); threads 0..k-2 arrive, everyone checks the phase is not complete, thread k-1
// arrives, everyone waits. Threads k..255 never arrive and only observe. Repeated for `phases`.
__global__ void k_arrivals_kernel(unsigned k, unsigned phases, Report* report)
{
  each_phase(report, ptxw::arrivals{k}, phases, [k](Check& check, auto& bar, ptxw::phase& ph, unsigned i) {
    const unsigned tid = threadIdx.x;
    if (tid + 1 < k)
    {
      bar.arrive();
    }
    check.expect_open(__LINE__, bar, ph); // k - 1 of k arrivals
    if (tid + 1 == k)
    {
      bar.arrive();
    }
    check.wait(__LINE__, bar, ph);
    check.expect(ph.parity() == ((i + 1) & 1u), __LINE__);
    // The next phase cannot have completed: none of its arrivals is made before every thread has
    // passed the __syncthreads of cta_gave_up, which this thread has not reached yet.
    check.expect(!bar.test_wait(ph), __LINE__);
  });
}

// Arrivals with counts, through every arrive overload that takes one. The barrier needs
// kTotal = 1000 per phase:
//   every thread arrive(arrivals{3})                                        768 (concurrent)
//   thread 5     arrive(sem_relaxed, scope_cta, arrivals{200})             968
//   thread 77    arrive(sem_release, scope_cta, arrivals{31})              999
//   thread 255   arrive()                                                 1000 -> complete
// with a check between steps that the phase is still open.
constexpr unsigned kTotal = 1000;
static_assert(kThreads * 3 + 200 + 31 + 1 == kTotal);

__global__ void counted_arrivals_kernel(unsigned phases, Report* report)
{
  each_phase(report, ptxw::arrivals{kTotal}, phases, [](Check& check, auto& bar, ptxw::phase& ph, unsigned) {
    const unsigned tid = threadIdx.x;
    bar.arrive(ptxw::arrivals{3});
    check.expect_open(__LINE__, bar, ph); // 768 of 1000
    if (tid == 5)
    {
      bar.arrive(ptx::sem_relaxed, ptx::scope_cta, ptxw::arrivals{200});
    }
    check.expect_open(__LINE__, bar, ph); // 968 of 1000
    if (tid == 77)
    {
      bar.arrive(ptx::sem_release, ptx::scope_cta, ptxw::arrivals{31});
    }
    check.expect_open(__LINE__, bar, ph); // 999 of 1000
    if (tid == kThreads - 1)
    {
      bar.arrive();
    }
    check.wait(__LINE__, bar, ph);
  });
}

// The largest arrival count PTX allows (2^20 - 1), reached with one arrive of 2^20 - 2 and one of 1.
constexpr unsigned kMaxCount = (1u << 20) - 1;

__global__ void largest_count_kernel(unsigned phases, Report* report)
{
  each_phase(report, ptxw::arrivals{kMaxCount}, phases, [](Check& check, auto& bar, ptxw::phase& ph, unsigned) {
    if (threadIdx.x == 0)
    {
      bar.arrive(ptxw::arrivals{kMaxCount - 1});
    }
    check.expect_open(__LINE__, bar, ph);
    if (threadIdx.x == 1)
    {
      bar.arrive();
    }
    check.wait(__LINE__, bar, ph);
  });
}

// Relaxed arrivals (mbarrier.arrive.relaxed, PTX ISA 8.6) complete a phase like release ones and are
// observed by the default acquire wait. Both overloads without a count, at .cta scope; every
// thread arrives, the last one after the others have been seen not to complete the phase.
__global__ void relaxed_arrive_kernel(unsigned phases, Report* report)
{
  each_phase(report, ptxw::arrivals{kThreads}, phases, [](Check& check, auto& bar, ptxw::phase& ph, unsigned) {
    if (threadIdx.x != 0)
    {
      bar.arrive(ptx::sem_relaxed, ptx::scope_cta);
    }
    check.expect_open(__LINE__, bar, ph);
    if (threadIdx.x == 0)
    {
      bar.arrive(ptx::sem_relaxed, ptx::scope_cta, ptxw::arrivals{1});
    }
    check.wait(__LINE__, bar, ptx::sem_acquire, ptx::scope_cta, ph);
  });
}

class MbarrierArrivals
    : public Gpu
    , public ::testing::WithParamInterface<unsigned>
{};

class MbarrierCounts : public Gpu
{
protected:
  // kernel<<<1, threads>>>(phases, report), in which every thread waits once per phase.
  void expect_phases(void (*kernel)(unsigned, Report*), unsigned phases, unsigned threads)
  {
    PTXW_NEW_REPORT(report);
    kernel<<<1, threads>>>(phases, report.get());
    PTXW_LAUNCH_OK();
    PTXW_EXPECT_REPORT(report, phases * threads);
  }
};

} // namespace

TEST_P(MbarrierArrivals, PhaseCompletesOnTheLastOfKArrivals)
{
  const unsigned k      = GetParam();
  constexpr unsigned phases = 64;
  PTXW_NEW_REPORT(report);
  k_arrivals_kernel<<<1, kThreads>>>(k, phases, report.get());
  PTXW_LAUNCH_OK();
  PTXW_EXPECT_REPORT(report, phases * kThreads);
}

INSTANTIATE_TEST_SUITE_P(Counts, MbarrierArrivals, ::testing::Values(1u, 2u, 31u, 32u, 33u, 100u, 255u, 256u),
                         [](const ::testing::TestParamInfo<unsigned>& info) {
                           return "K" + std::to_string(info.param);
                         });

TEST_F(MbarrierCounts, ArriveWithCountsAddsUp)
{
  expect_phases(counted_arrivals_kernel, 64, kThreads);
}

TEST_F(MbarrierCounts, LargestArrivalCount)
{
  expect_phases(largest_count_kernel, 8, 64);
}

TEST_F(MbarrierCounts, RelaxedArrivalsCompleteThePhaseForAnAcquireWait)
{
  expect_phases(relaxed_arrive_kernel, 64, kThreads);
}
