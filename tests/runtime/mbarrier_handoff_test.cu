// Release arrive / acquire wait hand data over between threads: a producer warp fills a shared
// buffer with ordinary stores and arrives on `full`; consumer warps wait on `full`, check every
// word, and arrive on `empty`, which the producers wait on before they overwrite the buffer.
#include <ptxw/ptxw.h>

#include <cuda/ptx> // the kernels also use cuda::ptx directly

#include <cuda/std/type_traits>

#include "gpu.h"

namespace {

constexpr unsigned kProducers = 32;  // warp 0
constexpr unsigned kConsumers = 96;  // warps 1..3
constexpr unsigned kThreads   = kProducers + kConsumers;
constexpr unsigned kWords     = 2048;

__device__ constexpr unsigned word(unsigned round, unsigned j)
{
  return (round << 16) ^ (j * 40503u);
}

// Race-free by the barriers alone: producers write round i + 1 only after `empty` completed
// phase i, which needs every consumer's arrival, made after its last read of round i; consumers
// read round i only after `full` completed phase i. No phase's arrivals can overtake the previous
// phase's: every arrival of phase i + 1 on either barrier follows a wait for phase i of the other
// barrier, which needs all of the previous phase's arrivals. Rounds alternate the default and
// the explicit (sem_release / sem_acquire, barrier scope) overloads.
template <class Barrier>
__global__ void handoff_kernel(unsigned rounds, Report* report)
{
  __shared__ Barrier full;
  __shared__ Barrier empty;
  __shared__ unsigned buf[kWords];
  using scope = typename Barrier::scope_type;
  Check check(report);
  const unsigned tid = threadIdx.x;
  if (tid == 0)
  {
    full.init(ptxw::arrivals{kProducers});
    empty.init(ptxw::arrivals{kConsumers});
  }
  __syncthreads();

  ptxw::phase ph;
  if (tid < kProducers)
  {
    for (unsigned i = 0; i < rounds; ++i)
    {
      if (i > 0)
      {
        const bool ok = i % 2 == 0 ? check.wait(__LINE__, empty, ph)
                                   : check.wait(__LINE__, empty, ptx::sem_acquire, scope{}, ph);
        if (!ok)
        {
          break; // the consumers may still be reading: do not overwrite the buffer
        }
      }
      for (unsigned j = tid; j < kWords; j += kProducers)
      {
        buf[j] = word(i, j);
      }
      if (i % 2 == 0)
      {
        full.arrive();
      }
      else
      {
        full.arrive(ptx::sem_release, scope{});
      }
    }
  }
  else
  {
    const unsigned c = tid - kProducers;
    for (unsigned i = 0; i < rounds; ++i)
    {
      const bool ok = i % 2 == 0 ? check.wait(__LINE__, full, ph)
                                 : check.wait(__LINE__, full, ptx::sem_acquire, scope{}, ph, ptxw::suspend_hint{10000});
      if (!ok)
      {
        break;
      }
      // Every consumer checks every word (written by all 32 producer threads), starting at its own
      // offset to spread the reads.
      unsigned wrong = 0;
      for (unsigned k = 0; k < kWords; ++k)
      {
        const unsigned j = (k + c * 16) % kWords;
        wrong += buf[j] != word(i, j);
      }
      check.expect(wrong == 0, __LINE__);
      if (i % 2 == 0)
      {
        empty.arrive();
      }
      else
      {
        empty.arrive(ptx::sem_release, scope{});
      }
    }
  }
  check.finish();
}

class MbarrierHandoff : public Gpu
{};

} // namespace

TEST_F(MbarrierHandoff, ReleaseArriveAcquireWaitOnCtaBarrier)
{
  constexpr unsigned rounds = 500;
  PTXW_NEW_REPORT(report);
  handoff_kernel<ptxw::cta_barrier><<<1, kThreads>>>(rounds, report.get());
  PTXW_LAUNCH_OK();
  PTXW_EXPECT_REPORT(report, (rounds - 1) * kProducers + rounds * kConsumers);
}

TEST_F(MbarrierHandoff, ReleaseArriveAcquireWaitOnClusterBarrier)
{
  constexpr unsigned rounds = 500;
  PTXW_NEW_REPORT(report);
  handoff_kernel<ptxw::cluster_barrier><<<1, kThreads>>>(rounds, report.get());
  PTXW_LAUNCH_OK();
  PTXW_EXPECT_REPORT(report, (rounds - 1) * kProducers + rounds * kConsumers);
}
