// R9: an instruction compiles only for targets that have it. Runs where ptxas has mbarrier.init but
// not mbarrier.expect_tx (sm_80): everything sm_90 added must fail there with a ptxw R9 message.
// REQUIRES: mbarrier
// UNSUPPORTED: mbarrier-tx
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE -DCASE_EXPECT_TX_QUALIFIED -DCASE_ARRIVE_EXPECT_TX_QUALIFIED \
// RUN:  -DCASE_COMPLETE_TX_QUALIFIED -DCASE_TRY_WAIT_QUALIFIED -DCASE_TEST_WAIT_QUALIFIED \
// RUN:  -DCASE_PROXY_ASYNC_SHARED -DCASE_MBARRIER_INIT %s 2>&1 \
// RUN:   | FileCheck %s \
// RUN:  --check-prefixes=ARRIVE,EXPECT_TX_QUALIFIED,ARRIVE_EXPECT_TX_QUALIFIED,COMPLETE_TX_QUALIFIED \
// RUN:  --check-prefixes=TRY_WAIT_QUALIFIED,TEST_WAIT_QUALIFIED,PROXY_ASYNC_SHARED,MBARRIER_INIT,FIRST
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE_COUNT -DCASE_TRY_WAIT_QUALIFIED_HINT %s 2>&1 \
// RUN:   | FileCheck %s \
// RUN:  --check-prefixes=ARRIVE_COUNT,TRY_WAIT_QUALIFIED_HINT,SECOND
// RUN: not %nvcc -ptx -o /dev/null -DCASE_WAIT_QUALIFIED %s 2>&1 \
// RUN:   | FileCheck %s \
// RUN:  --check-prefixes=WAIT_QUALIFIED,THIRD
// RUN: not %nvcc -ptx -o /dev/null -DCASE_WAIT %s 2>&1 \
// RUN:   | FileCheck %s \
// RUN:  --check-prefixes=WAIT,FOURTH
// RUN: not %nvcc -ptx -o /dev/null -DCASE_WAIT_QUALIFIED_HINT %s 2>&1 \
// RUN:   | FileCheck %s \
// RUN:  --check-prefixes=WAIT_QUALIFIED_HINT,FIFTH
// RUN: not %nvcc -ptx -o /dev/null -DCASE_WAIT_HINT %s 2>&1 \
// RUN:   | FileCheck %s \
// RUN:  --check-prefixes=WAIT_HINT,SIXTH
//
// Six compiles, each of cases that share no instantiation (nvcc reports a shared one's error once):
// each case of a later compile instantiates what a case of an earlier one does. Each case is one
// error, the ptxw one, at the line below it (-DAG checks: nvcc reports instantiation errors out of
// source order), and each compile's total is its number of cases (the last lines). Without a
// CASE the file compiles: what sm_80 has (mbarrier.init, mbarrier.inval) is accepted. The statements
// of tools/ptxwtools/core/variants.py are not repeated here: gate/variants.test refuses each of them on
// every target that lacks it; these are the other overloads (defaults, qualifiers, hints, waits).
//
// The protocol steps are here too: they call ptxw's own forms (qualified, so argument-dependent
// lookup cannot pick cuda::ptx's same-named functions, which would only fail at link time).

#include <ptxw/fence.h>
#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

__global__ void r9_target()
{
  __shared__ ptxw::cta_barrier bar;
  __shared__ ptxw::cluster_barrier cbar;

  ptxw::phase ph;

  // What sm_80 has.
  bar.init(ptxw::arrivals{1});
  cbar.init(ptxw::arrivals{1});
  bar.inval();
  (void) ph.parity();

#if defined(CASE_ARRIVE)
  // ARRIVE-DAG: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // ARRIVE-DAG: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive,
  // ARRIVE-DAG: at line [[#@LINE+1]] of
  bar.arrive();
#endif

#if defined(CASE_ARRIVE_COUNT)
  // ARRIVE_COUNT-DAG: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // ARRIVE_COUNT-DAG: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive,
  // ARRIVE_COUNT-DAG: at line [[#@LINE+1]] of
  bar.arrive(ptxw::arrivals{1});
#endif

#if defined(CASE_EXPECT_TX_QUALIFIED)
  // EXPECT_TX_QUALIFIED-DAG: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // EXPECT_TX_QUALIFIED-DAG: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_expect_tx,
  // EXPECT_TX_QUALIFIED-DAG: at line [[#@LINE+1]] of
  bar.expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptxw::tx_bytes{16});
#endif

#if defined(CASE_ARRIVE_EXPECT_TX_QUALIFIED)
  // ARRIVE_EXPECT_TX_QUALIFIED-DAG: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // ARRIVE_EXPECT_TX_QUALIFIED-DAG: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive_expect_tx,
  // ARRIVE_EXPECT_TX_QUALIFIED-DAG: at line [[#@LINE+1]] of
  bar.arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptxw::tx_bytes{16});
#endif

#if defined(CASE_COMPLETE_TX_QUALIFIED)
  // COMPLETE_TX_QUALIFIED-DAG: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // COMPLETE_TX_QUALIFIED-DAG: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_complete_tx,
  // COMPLETE_TX_QUALIFIED-DAG: at line [[#@LINE+1]] of
  bar.complete_tx(ptx::sem_relaxed, ptx::scope_cta, ptxw::tx_bytes{16});
#endif

#if defined(CASE_TRY_WAIT_QUALIFIED)
  // TRY_WAIT_QUALIFIED-DAG: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // TRY_WAIT_QUALIFIED-DAG: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_try_wait,
  // TRY_WAIT_QUALIFIED-DAG: at line [[#@LINE+1]] of
  (void) bar.try_wait(ptx::sem_acquire, ptx::scope_cta, ph);
#endif

#if defined(CASE_TRY_WAIT_QUALIFIED_HINT)
  // TRY_WAIT_QUALIFIED_HINT-DAG: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // TRY_WAIT_QUALIFIED_HINT-DAG: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_try_wait,
  // TRY_WAIT_QUALIFIED_HINT-DAG: at line [[#@LINE+1]] of
  (void) bar.try_wait(ptx::sem_acquire, ptx::scope_cta, ph, ptxw::suspend_hint{1000});
#endif

#if defined(CASE_TEST_WAIT_QUALIFIED)
  // TEST_WAIT_QUALIFIED-DAG: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // TEST_WAIT_QUALIFIED-DAG: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_test_wait,
  // TEST_WAIT_QUALIFIED-DAG: at line [[#@LINE+1]] of
  (void) bar.test_wait(ptx::sem_acquire, ptx::scope_cta, ph);
#endif

#if defined(CASE_WAIT)
  // WAIT-DAG: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // WAIT-DAG: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_try_wait,
  // WAIT-DAG: at line [[#@LINE+1]] of
  bar.wait(ph);
#endif

#if defined(CASE_WAIT_HINT)
  // WAIT_HINT-DAG: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // WAIT_HINT-DAG: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_try_wait,
  // WAIT_HINT-DAG: at line [[#@LINE+1]] of
  bar.wait(ph, ptxw::suspend_hint{1000});
#endif

#if defined(CASE_WAIT_QUALIFIED)
  // WAIT_QUALIFIED-DAG: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // WAIT_QUALIFIED-DAG: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_try_wait,
  // WAIT_QUALIFIED-DAG: at line [[#@LINE+1]] of
  bar.wait(ptx::sem_acquire, ptx::scope_cta, ph);
#endif

#if defined(CASE_WAIT_QUALIFIED_HINT)
  // WAIT_QUALIFIED_HINT-DAG: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // WAIT_QUALIFIED_HINT-DAG: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_try_wait,
  // WAIT_QUALIFIED_HINT-DAG: at line [[#@LINE+1]] of
  bar.wait(ptx::sem_acquire, ptx::scope_cta, ph, ptxw::suspend_hint{1000});
#endif

#if defined(CASE_PROXY_ASYNC_SHARED)
  // PROXY_ASYNC_SHARED-DAG: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // PROXY_ASYNC_SHARED-DAG: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::fence_proxy_async,
  // PROXY_ASYNC_SHARED-DAG: at line [[#@LINE+1]] of
  ptxw::fence_proxy_async(ptx::space_shared);
#endif

#if defined(CASE_MBARRIER_INIT)
  // MBARRIER_INIT-DAG: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // MBARRIER_INIT-DAG: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::fence_mbarrier_init,
  // MBARRIER_INIT-DAG: at line [[#@LINE+1]] of
  ptxw::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
#endif
}

// FIRST: 8 errors detected in the compilation of
// SECOND: 2 errors detected in the compilation of
// THIRD: 1 error detected in the compilation of
// FOURTH: 1 error detected in the compilation of
// FIFTH: 1 error detected in the compilation of
// SIXTH: 1 error detected in the compilation of
