// R9: an instruction compiles only for targets that have it. Runs where ptxas has mbarrier.init but
// not mbarrier.expect_tx (sm_80): everything sm_90 added must fail there with a ptxw R9 message.
// REQUIRES: mbarrier
// UNSUPPORTED: mbarrier-tx
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE %s 2>&1 | FileCheck %s --check-prefix=ARRIVE
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE_COUNT %s 2>&1 | FileCheck %s --check-prefix=ARRIVE_COUNT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_EXPECT_TX_QUALIFIED %s 2>&1 | FileCheck %s --check-prefix=EXPECT_TX_QUALIFIED
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE_EXPECT_TX_QUALIFIED %s 2>&1 | FileCheck %s --check-prefix=ARRIVE_EXPECT_TX_QUALIFIED
// RUN: not %nvcc -ptx -o /dev/null -DCASE_COMPLETE_TX_QUALIFIED %s 2>&1 | FileCheck %s --check-prefix=COMPLETE_TX_QUALIFIED
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TRY_WAIT_QUALIFIED %s 2>&1 | FileCheck %s --check-prefix=TRY_WAIT_QUALIFIED
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TRY_WAIT_QUALIFIED_HINT %s 2>&1 | FileCheck %s --check-prefix=TRY_WAIT_QUALIFIED_HINT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TEST_WAIT_QUALIFIED %s 2>&1 | FileCheck %s --check-prefix=TEST_WAIT_QUALIFIED
// RUN: not %nvcc -ptx -o /dev/null -DCASE_WAIT %s 2>&1 | FileCheck %s --check-prefix=WAIT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_WAIT_HINT %s 2>&1 | FileCheck %s --check-prefix=WAIT_HINT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_WAIT_QUALIFIED %s 2>&1 | FileCheck %s --check-prefix=WAIT_QUALIFIED
// RUN: not %nvcc -ptx -o /dev/null -DCASE_WAIT_QUALIFIED_HINT %s 2>&1 | FileCheck %s --check-prefix=WAIT_QUALIFIED_HINT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_PROXY_ASYNC_SHARED %s 2>&1 | FileCheck %s --check-prefix=PROXY_ASYNC_SHARED
// RUN: not %nvcc -ptx -o /dev/null -DCASE_MBARRIER_INIT %s 2>&1 | FileCheck %s --check-prefix=MBARRIER_INIT
//
// Each case must fail with exactly one error, the ptxw one, reported at the line below it. Without a
// CASE the file compiles: what sm_80 has (mbarrier.init, mbarrier.inval) is accepted. The statements
// of tools/ptxwtools/variants.py are not repeated here: gate/variants.test refuses each of them on
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
  // ARRIVE: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // ARRIVE: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive,
  // ARRIVE: at line [[#@LINE+2]] of
  // ARRIVE: 1 error detected in the compilation of
  bar.arrive();
#endif

#if defined(CASE_ARRIVE_COUNT)
  // ARRIVE_COUNT: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // ARRIVE_COUNT: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive,
  // ARRIVE_COUNT: at line [[#@LINE+2]] of
  // ARRIVE_COUNT: 1 error detected in the compilation of
  bar.arrive(ptxw::arrivals{1});
#endif

#if defined(CASE_EXPECT_TX_QUALIFIED)
  // EXPECT_TX_QUALIFIED: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // EXPECT_TX_QUALIFIED: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_expect_tx,
  // EXPECT_TX_QUALIFIED: at line [[#@LINE+2]] of
  // EXPECT_TX_QUALIFIED: 1 error detected in the compilation of
  bar.expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptxw::tx_bytes{16});
#endif

#if defined(CASE_ARRIVE_EXPECT_TX_QUALIFIED)
  // ARRIVE_EXPECT_TX_QUALIFIED: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // ARRIVE_EXPECT_TX_QUALIFIED: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive_expect_tx,
  // ARRIVE_EXPECT_TX_QUALIFIED: at line [[#@LINE+2]] of
  // ARRIVE_EXPECT_TX_QUALIFIED: 1 error detected in the compilation of
  bar.arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptxw::tx_bytes{16});
#endif

#if defined(CASE_COMPLETE_TX_QUALIFIED)
  // COMPLETE_TX_QUALIFIED: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // COMPLETE_TX_QUALIFIED: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_complete_tx,
  // COMPLETE_TX_QUALIFIED: at line [[#@LINE+2]] of
  // COMPLETE_TX_QUALIFIED: 1 error detected in the compilation of
  bar.complete_tx(ptx::sem_relaxed, ptx::scope_cta, ptxw::tx_bytes{16});
#endif

#if defined(CASE_TRY_WAIT_QUALIFIED)
  // TRY_WAIT_QUALIFIED: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // TRY_WAIT_QUALIFIED: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_try_wait,
  // TRY_WAIT_QUALIFIED: at line [[#@LINE+2]] of
  // TRY_WAIT_QUALIFIED: 1 error detected in the compilation of
  (void) bar.try_wait(ptx::sem_acquire, ptx::scope_cta, ph);
#endif

#if defined(CASE_TRY_WAIT_QUALIFIED_HINT)
  // TRY_WAIT_QUALIFIED_HINT: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // TRY_WAIT_QUALIFIED_HINT: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_try_wait,
  // TRY_WAIT_QUALIFIED_HINT: at line [[#@LINE+2]] of
  // TRY_WAIT_QUALIFIED_HINT: 1 error detected in the compilation of
  (void) bar.try_wait(ptx::sem_acquire, ptx::scope_cta, ph, ptxw::suspend_hint{1000});
#endif

#if defined(CASE_TEST_WAIT_QUALIFIED)
  // TEST_WAIT_QUALIFIED: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // TEST_WAIT_QUALIFIED: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_test_wait,
  // TEST_WAIT_QUALIFIED: at line [[#@LINE+2]] of
  // TEST_WAIT_QUALIFIED: 1 error detected in the compilation of
  (void) bar.test_wait(ptx::sem_acquire, ptx::scope_cta, ph);
#endif

#if defined(CASE_WAIT)
  // WAIT: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // WAIT: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_try_wait,
  // WAIT: at line [[#@LINE+2]] of
  // WAIT: 1 error detected in the compilation of
  bar.wait(ph);
#endif

#if defined(CASE_WAIT_HINT)
  // WAIT_HINT: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // WAIT_HINT: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_try_wait,
  // WAIT_HINT: at line [[#@LINE+2]] of
  // WAIT_HINT: 1 error detected in the compilation of
  bar.wait(ph, ptxw::suspend_hint{1000});
#endif

#if defined(CASE_WAIT_QUALIFIED)
  // WAIT_QUALIFIED: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // WAIT_QUALIFIED: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_try_wait,
  // WAIT_QUALIFIED: at line [[#@LINE+2]] of
  // WAIT_QUALIFIED: 1 error detected in the compilation of
  bar.wait(ptx::sem_acquire, ptx::scope_cta, ph);
#endif

#if defined(CASE_WAIT_QUALIFIED_HINT)
  // WAIT_QUALIFIED_HINT: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // WAIT_QUALIFIED_HINT: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_try_wait,
  // WAIT_QUALIFIED_HINT: at line [[#@LINE+2]] of
  // WAIT_QUALIFIED_HINT: 1 error detected in the compilation of
  bar.wait(ptx::sem_acquire, ptx::scope_cta, ph, ptxw::suspend_hint{1000});
#endif

#if defined(CASE_PROXY_ASYNC_SHARED)
  // PROXY_ASYNC_SHARED: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // PROXY_ASYNC_SHARED: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::fence_proxy_async,
  // PROXY_ASYNC_SHARED: at line [[#@LINE+2]] of
  // PROXY_ASYNC_SHARED: 1 error detected in the compilation of
  ptxw::fence_proxy_async(ptx::space_shared);
#endif

#if defined(CASE_MBARRIER_INIT)
  // MBARRIER_INIT: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // MBARRIER_INIT: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::fence_mbarrier_init,
  // MBARRIER_INIT: at line [[#@LINE+2]] of
  // MBARRIER_INIT: 1 error detected in the compilation of
  ptxw::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
#endif
}
