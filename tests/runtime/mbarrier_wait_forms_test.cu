// Every try_wait / test_wait overload (default acquire, explicit acquire and relaxed, with and
// without a ptxw::suspend_hint) and every arrive overload without a count, on both barrier kinds:
// each must report an open phase as open and a completed phase as completed.
#include <ptxw/ptxw.h>

#include <cuda/ptx> // the kernels also use cuda::ptx directly

#include <cuda/std/type_traits>

#include "gpu.h"

namespace {

constexpr unsigned kThreads = 128;

template <class Barrier>
inline constexpr bool is_cluster = ::cuda::std::is_same_v<Barrier, ptxw::cluster_barrier>;

template <class Barrier>
inline constexpr unsigned kWaitForms = is_cluster<Barrier> ? 14u : 9u;

template <class Barrier>
inline constexpr unsigned kArriveForms = is_cluster<Barrier> ? 7u : 4u;

// One try_wait or test_wait of the given form; advances ph when it returns true.
template <class Barrier>
__device__ bool wait_form(Barrier& bar, ptxw::phase& ph, unsigned form, ptxw::suspend_hint hint)
{
  switch (form)
  {
    case 0:
      return bar.try_wait(ph);
    case 1:
      return bar.try_wait(ph, hint);
    case 2:
      return bar.try_wait(ptx::sem_acquire, ptx::scope_cta, ph);
    case 3:
      return bar.try_wait(ptx::sem_relaxed, ptx::scope_cta, ph);
    case 4:
      return bar.try_wait(ptx::sem_acquire, ptx::scope_cta, ph, hint);
    case 5:
      return bar.try_wait(ptx::sem_relaxed, ptx::scope_cta, ph, hint);
    case 6:
      return bar.test_wait(ph);
    case 7:
      return bar.test_wait(ptx::sem_acquire, ptx::scope_cta, ph);
    case 8:
      return bar.test_wait(ptx::sem_relaxed, ptx::scope_cta, ph);
    default:
      break;
  }
  if constexpr (is_cluster<Barrier>)
  {
    switch (form)
    {
      case 9:
        return bar.try_wait(ptx::sem_acquire, ptx::scope_cluster, ph);
      case 10:
        return bar.try_wait(ptx::sem_relaxed, ptx::scope_cluster, ph);
      case 11:
        return bar.try_wait(ptx::sem_acquire, ptx::scope_cluster, ph, hint);
      case 12:
        return bar.try_wait(ptx::sem_relaxed, ptx::scope_cluster, ph, hint);
      case 13:
        return bar.test_wait(ptx::sem_relaxed, ptx::scope_cluster, ph);
      default:
        break;
    }
  }
  return false;
}

// One arrival of the given form.
template <class Barrier>
__device__ void arrive_form(Barrier& bar, unsigned form)
{
  switch (form)
  {
    case 0:
      bar.arrive();
      return;
    case 1:
      bar.arrive(ptx::sem_release, ptx::scope_cta);
      return;
    case 2:
      bar.arrive(ptx::sem_relaxed, ptx::scope_cta);
      return;
    case 3:
      bar.arrive(ptxw::arrivals{1});
      return;
    default:
      break;
  }
  if constexpr (is_cluster<Barrier>)
  {
    switch (form)
    {
      case 4:
        bar.arrive(ptx::sem_release, ptx::scope_cluster);
        return;
      case 5:
        bar.arrive(ptx::sem_relaxed, ptx::scope_cluster);
        return;
      case 6:
        bar.arrive(ptx::sem_relaxed, ptx::scope_cluster, ptxw::arrivals{1});
        return;
      default:
        break;
    }
  }
}

// Phase i uses wait form i % kWaitForms and arrive form (i / kWaitForms) % kArriveForms, so
// 2 * kWaitForms * kArriveForms phases cover every pair twice. Per phase: every thread but 0
// arrives; after a __syncthreads, every thread checks with the phase's wait form (a try_wait with
// a 2 us hint suspends and must still come back false) that the phase is open; after another
// __syncthreads thread 0 arrives and every thread polls the wait form, bounded, until it is true.
template <class Barrier>
__global__ void wait_forms_kernel(unsigned phases, Report* report)
{
  __shared__ Barrier bar;
  Check check(report);
  const unsigned tid = threadIdx.x;
  if (tid == 0)
  {
    bar.init(ptxw::arrivals{kThreads});
  }
  __syncthreads();

  const ptxw::suspend_hint open_hint{2000};     // while the phase cannot complete
  const ptxw::suspend_hint closing_hint{100000}; // while it completes
  ptxw::phase ph;
  for (unsigned i = 0; i < phases; ++i)
  {
    const unsigned wait_f   = i % kWaitForms<Barrier>;
    const unsigned arrive_f = (i / kWaitForms<Barrier>) % kArriveForms<Barrier>;
    if (tid != 0)
    {
      arrive_form(bar, arrive_f);
    }
    __syncthreads();
    check.expect(!wait_form(bar, ph, wait_f, open_hint), __LINE__);
    check.expect(ph.parity() == (i & 1u), __LINE__); // a false wait leaves the phase object alone
    __syncthreads();
    if (tid == 0)
    {
      arrive_form(bar, arrive_f);
    }
    check.until(__LINE__, [&] {
      return wait_form(bar, ph, wait_f, closing_hint);
    });
    check.expect(ph.parity() == ((i + 1) & 1u), __LINE__);
    if (check.cta_gave_up())
    {
      break;
    }
  }
  check.finish();
}

class MbarrierWaitForms : public Gpu
{};

} // namespace

TEST_F(MbarrierWaitForms, EveryWaitAndArriveFormOnCtaBarrier)
{
  constexpr unsigned phases = 2 * kWaitForms<ptxw::cta_barrier> * kArriveForms<ptxw::cta_barrier>;
  PTXW_NEW_REPORT(report);
  wait_forms_kernel<ptxw::cta_barrier><<<1, kThreads>>>(phases, report.get());
  PTXW_LAUNCH_OK();
  PTXW_EXPECT_REPORT(report, phases * kThreads);
}

TEST_F(MbarrierWaitForms, EveryWaitAndArriveFormOnClusterBarrier)
{
  constexpr unsigned phases = 2 * kWaitForms<ptxw::cluster_barrier> * kArriveForms<ptxw::cluster_barrier>;
  PTXW_NEW_REPORT(report);
  wait_forms_kernel<ptxw::cluster_barrier><<<1, kThreads>>>(phases, report.get());
  PTXW_LAUNCH_OK();
  PTXW_EXPECT_REPORT(report, phases * kThreads);
}
