// Device side of the runtime tests: checks that record failures instead of trapping, and waits with
// a time budget, so that a wrong library makes a test fail instead of hanging the GPU.
//
// Every mbarrier wait in a test kernel goes through Check::wait (or Check::until), a try_wait loop
// that gives up after kWaitBudgetCycles. A thread whose wait ran out of budget records it and
// stops waiting for the rest of the kernel (its later waits return false at once, so a broken
// barrier costs one budget per thread, not one per phase). Kernels keep their control flow uniform
// around __syncthreads and barrier.cluster, so those cannot deadlock either; loops that have one
// per iteration end it with cta_gave_up / cluster_gave_up, which make every thread leave the loop
// together once any wait timed out, before anyone arrives again on a barrier stuck mid-phase (an
// arrival beyond the pending count faults the kernel, and the report with it).
#pragma once

#include <ptxw/ptxw.h>

#include <cuda/ptx> // the kernels also use cuda::ptx directly

namespace ptxw_test {

namespace ptx = ::cuda::ptx;

// Written by the kernel, read by PTXW_EXPECT_REPORT (gpu.h). Zero-initialised by PTXW_NEW_REPORT.
struct Report
{
  unsigned errors;              // device-side checks that failed
  unsigned timeouts;            // bounded waits that ran out of budget
  unsigned first_error_line;    // __LINE__ of one failed check (the first to be counted)
  unsigned first_timeout_line;  // __LINE__ of one wait that timed out
  unsigned long long waits;     // bounded waits that returned true, summed over all threads
};

// About 2 s at an SM clock of 2 GHz. A wait that completes normally takes microseconds.
// Override with -DPTXW_TEST_WAIT_BUDGET_CYCLES=... (e.g. to run a deliberately broken library fast).
#ifndef PTXW_TEST_WAIT_BUDGET_CYCLES
#  define PTXW_TEST_WAIT_BUDGET_CYCLES 4000000000LL
#endif
inline constexpr long long kWaitBudgetCycles = PTXW_TEST_WAIT_BUDGET_CYCLES;

class Check
{
public:
  __device__ explicit Check(Report* report)
      : report_(report)
  {}

  // Records a failed check; execution goes on.
  __device__ void expect(bool ok, unsigned line)
  {
    if (!ok)
    {
      if (atomicAdd(&report_->errors, 1u) == 0u)
      {
        atomicExch(&report_->first_error_line, line);
      }
    }
  }

  // Polls `done()` until it returns true or the budget runs out. Returns whether it returned true.
  template <class Done>
  __device__ bool until(unsigned line, Done done)
  {
    if (!alive_)
    {
      return false;
    }
    const long long start = clock64();
    while (!done())
    {
      if (clock64() - start > kWaitBudgetCycles)
      {
        alive_ = false;
        if (atomicAdd(&report_->timeouts, 1u) == 0u)
        {
          atomicExch(&report_->first_timeout_line, line);
        }
        return false;
      }
    }
    ++waits_;
    return true;
  }

  // bar.try_wait(...) until it succeeds (advancing ph) or the budget runs out; the same four forms
  // as ptxw::mbarrier::try_wait: (ph), (ph, hint), (sem, scope, ph), (sem, scope, ph, hint).
  //
  // After a successful wait, checks that the phase the wait moved ph on to is still open
  // (test_wait false): a wait that returned before its phase completed leaves ph one phase ahead
  // of the barrier, on a parity test_wait reports as complete. Callers guarantee that the barrier
  // cannot have completed that next phase by then (it would take an action of this thread, or a
  // CTA/cluster barrier it has not reached), which holds in every kernel of these tests.
  template <class Barrier>
  __device__ bool wait(unsigned line, Barrier& bar, ptxw::phase& ph)
  {
    return next_open(line, bar, ph, until(line, [&] {
                       return bar.try_wait(ph);
                     }));
  }

  template <class Barrier>
  __device__ bool wait(unsigned line, Barrier& bar, ptxw::phase& ph, ptxw::suspend_hint hint)
  {
    return next_open(line, bar, ph, until(line, [&] {
                       return bar.try_wait(ph, hint);
                     }));
  }

  template <class Barrier, class Sem, class Scope>
  __device__ bool wait(unsigned line, Barrier& bar, Sem sem, Scope scope, ptxw::phase& ph)
  {
    return next_open(line, bar, ph, until(line, [&] {
                       return bar.try_wait(sem, scope, ph);
                     }));
  }

  template <class Barrier, class Sem, class Scope>
  __device__ bool wait(unsigned line, Barrier& bar, Sem sem, Scope scope, ptxw::phase& ph, ptxw::suspend_hint hint)
  {
    return next_open(line, bar, ph, until(line, [&] {
                       return bar.try_wait(sem, scope, ph, hint);
                     }));
  }

  // Every thread sees bar's current phase still open (test_wait false), race-free: sync() makes the
  // arrivals made before it happen-before every thread's test_wait, and the second sync() keeps any
  // thread from arriving again until every thread has looked. sync: __syncthreads by default,
  // cluster_sync where arrivals come from the cluster; every thread calls it.
  template <class Barrier, class Sync>
  __device__ void expect_open(unsigned line, Barrier& bar, ptxw::phase& ph, Sync sync)
  {
    sync();
    expect(!bar.test_wait(ph), line);
    sync();
  }

  template <class Barrier>
  __device__ void expect_open(unsigned line, Barrier& bar, ptxw::phase& ph)
  {
    expect_open(line, bar, ph, [] { __syncthreads(); });
  }

  // True on every thread of the CTA if a wait of any of them timed out. A __syncthreads: call it
  // from all threads, e.g. at the end of a loop iteration, and leave the loop when it is true.
  __device__ bool cta_gave_up() const
  {
    return __syncthreads_or(alive_ ? 0 : 1) != 0;
  }

  // False once a wait of this thread timed out.
  __device__ bool alive() const
  {
    return alive_;
  }

  // Adds this thread's successful waits to the report. Call once, at the end of the kernel.
  __device__ void finish()
  {
    if (waits_ != 0u)
    {
      atomicAdd(&report_->waits, waits_);
    }
  }

private:
  template <class Barrier>
  __device__ bool next_open(unsigned line, Barrier& bar, ptxw::phase& ph, bool waited)
  {
    if (waited)
    {
      expect(!bar.test_wait(ph), line);
    }
    return waited;
  }

  Report* report_;
  unsigned long long waits_ = 0;
  bool alive_               = true;
};

// Thread 0 initialises bar for `count` arrivals; the __syncthreads publishes the init to the CTA
// before any thread uses bar.
template <class Barrier>
__device__ void init_by_thread0(Barrier& bar, ptxw::arrivals count)
{
  if (threadIdx.x == 0)
  {
    bar.init(count);
  }
  __syncthreads();
}

// Dynamic shared memory, 128-byte aligned (cp.async.bulk needs 16).
__device__ inline unsigned char* dynamic_smem()
{
  extern __shared__ __align__(128) unsigned char ptxw_test_dynamic_smem[];
  return ptxw_test_dynamic_smem;
}

// barrier.cluster.arrive (release) + barrier.cluster.wait (acquire), by every thread of every CTA
// of the cluster.
__device__ inline void cluster_sync()
{
  ptx::barrier_cluster_arrive();
  ptx::barrier_cluster_wait();
}

// cta_gave_up for a cluster of two CTAs, with a zero-initialised __shared__ flag per CTA (`mine`,
// and the peer's through distributed shared memory). Every thread of both CTAs calls it at the
// same point; all get the same answer: flags are only set before the first cluster barrier and
// only read between the two.
__device__ inline bool cluster_gave_up(const Check& check, unsigned* mine, unsigned* peers)
{
  if (!check.alive())
  {
    *static_cast<volatile unsigned*>(mine)  = 1u;
    *static_cast<volatile unsigned*>(peers) = 1u;
  }
  cluster_sync();
  const bool gave_up = *static_cast<volatile unsigned*>(mine) != 0u;
  cluster_sync();
  return gave_up;
}

} // namespace ptxw_test

// What the protocol tests' kernels name unqualified.
namespace ptx = ::cuda::ptx;
using ptxw_test::Check;
using ptxw_test::Report;
