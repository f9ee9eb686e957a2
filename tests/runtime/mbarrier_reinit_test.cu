// inval, reuse of the barrier's bytes as ordinary memory, and init again: a re-initialised barrier
// starts over in phase 0 with its new arrival count, whatever phase and count it had before.
#include <ptxw/ptxw.h>

#include <cuda/ptx> // the kernels also use cuda::ptx directly

#include <cstdint>

#include "gpu.h"

namespace {

constexpr unsigned kThreads = 128;
constexpr unsigned kEpochs  = 6;

// Epoch e: init(arrivals{count}) with count 128, 64, 128, ... and run 3 + e phases (so the barrier is
// left in an odd phase after some epochs and an even one after others); each phase checks that it
// is open one arrival short of count and completes on the last. Then every thread is done with the
// barrier (a __syncthreads), thread 0 invalidates it, and the 8 bytes are written and read back as
// an ordinary integer before the next epoch initialises them again. A fresh ptxw::phase follows a
// fresh barrier. A stale count or phase after re-init shows as an early completion (the test_wait)
// or a timeout.
template <class Barrier>
__global__ void reinit_kernel(Report* report)
{
  __shared__ Barrier bar;
  Check check(report);
  const unsigned tid = threadIdx.x;
  for (unsigned e = 0; e < kEpochs; ++e)
  {
    const unsigned count  = e % 2 == 0 ? kThreads : kThreads / 2;
    const unsigned phases = 3 + e;
    if (tid == 0)
    {
      bar.init(ptxw::arrivals{count});
    }
    __syncthreads();

    ptxw::phase ph;
    bool gave_up = false;
    for (unsigned i = 0; i < phases; ++i)
    {
      if (tid + 1 < count)
      {
        bar.arrive();
      }
      check.expect_open(__LINE__, bar, ph);
      if (tid + 1 == count)
      {
        bar.arrive();
      }
      check.wait(__LINE__, bar, ph);
      gave_up = check.cta_gave_up();
      if (gave_up)
      {
        break;
      }
    }
    if (gave_up)
    {
      break; // uniform: every thread got the same answer
    }

    if (tid == 0)
    {
      bar.inval();
    }
    __syncthreads();
    auto* bytes                 = reinterpret_cast<volatile std::uint64_t*>(bar.native_handle());
    const std::uint64_t ordinary = 0x0123456789abcdefull ^ e;
    if (tid == 0)
    {
      *bytes = ordinary;
    }
    __syncthreads();
    check.expect(*bytes == ordinary, __LINE__);
    __syncthreads();
  }
  check.finish();
}

class MbarrierReinit : public Gpu
{};

constexpr unsigned long long expected_waits()
{
  unsigned long long n = 0;
  for (unsigned e = 0; e < kEpochs; ++e)
  {
    n += (3 + e) * kThreads;
  }
  return n;
}

} // namespace

TEST_F(MbarrierReinit, InvalThenInitStartsOverOnCtaBarrier)
{
  PTXW_NEW_REPORT(report);
  reinit_kernel<ptxw::cta_barrier><<<1, kThreads>>>(report.get());
  PTXW_LAUNCH_OK();
  PTXW_EXPECT_REPORT(report, expected_waits());
}

TEST_F(MbarrierReinit, InvalThenInitStartsOverOnClusterBarrier)
{
  PTXW_NEW_REPORT(report);
  reinit_kernel<ptxw::cluster_barrier><<<1, kThreads>>>(report.get());
  PTXW_LAUNCH_OK();
  PTXW_EXPECT_REPORT(report, expected_waits());
}
