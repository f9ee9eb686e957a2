// R9: an instruction compiles only for targets that have it. Runs where ptxas has mbarrier.init but
// not mbarrier.expect_tx (sm_80): everything sm_90 added must fail there with a ptxw R9 message.
// REQUIRES: mbarrier
// UNSUPPORTED: mbarrier-tx
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_EXPECT_TX %s 2>&1 | FileCheck %s --check-prefix=EXPECT_TX
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE_EXPECT_TX %s 2>&1 | FileCheck %s --check-prefix=ARRIVE_EXPECT_TX
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE %s 2>&1 | FileCheck %s --check-prefix=ARRIVE
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TRY_WAIT %s 2>&1 | FileCheck %s --check-prefix=TRY_WAIT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE_COUNT %s 2>&1 | FileCheck %s --check-prefix=ARRIVE_COUNT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE_QUALIFIED %s 2>&1 | FileCheck %s --check-prefix=ARRIVE_QUALIFIED
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE_COUNT_QUALIFIED %s 2>&1 | FileCheck %s --check-prefix=ARRIVE_COUNT_QUALIFIED
// RUN: not %nvcc -ptx -o /dev/null -DCASE_EXPECT_TX_QUALIFIED %s 2>&1 | FileCheck %s --check-prefix=EXPECT_TX_QUALIFIED
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE_EXPECT_TX_QUALIFIED %s 2>&1 | FileCheck %s --check-prefix=ARRIVE_EXPECT_TX_QUALIFIED
// RUN: not %nvcc -ptx -o /dev/null -DCASE_COMPLETE_TX %s 2>&1 | FileCheck %s --check-prefix=COMPLETE_TX
// RUN: not %nvcc -ptx -o /dev/null -DCASE_COMPLETE_TX_QUALIFIED %s 2>&1 | FileCheck %s --check-prefix=COMPLETE_TX_QUALIFIED
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TRY_WAIT_HINT %s 2>&1 | FileCheck %s --check-prefix=TRY_WAIT_HINT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TRY_WAIT_QUALIFIED %s 2>&1 | FileCheck %s --check-prefix=TRY_WAIT_QUALIFIED
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TRY_WAIT_QUALIFIED_HINT %s 2>&1 | FileCheck %s --check-prefix=TRY_WAIT_QUALIFIED_HINT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TEST_WAIT %s 2>&1 | FileCheck %s --check-prefix=TEST_WAIT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TEST_WAIT_QUALIFIED %s 2>&1 | FileCheck %s --check-prefix=TEST_WAIT_QUALIFIED
// RUN: not %nvcc -ptx -o /dev/null -DCASE_WAIT %s 2>&1 | FileCheck %s --check-prefix=WAIT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_WAIT_HINT %s 2>&1 | FileCheck %s --check-prefix=WAIT_HINT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_WAIT_QUALIFIED %s 2>&1 | FileCheck %s --check-prefix=WAIT_QUALIFIED
// RUN: not %nvcc -ptx -o /dev/null -DCASE_WAIT_QUALIFIED_HINT %s 2>&1 | FileCheck %s --check-prefix=WAIT_QUALIFIED_HINT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_REMOTE %s 2>&1 | FileCheck %s --check-prefix=REMOTE
// RUN: not %nvcc -ptx -o /dev/null -DCASE_PROXY_ASYNC %s 2>&1 | FileCheck %s --check-prefix=PROXY_ASYNC
// RUN: not %nvcc -ptx -o /dev/null -DCASE_PROXY_ASYNC_SHARED %s 2>&1 | FileCheck %s --check-prefix=PROXY_ASYNC_SHARED
// RUN: not %nvcc -ptx -o /dev/null -DCASE_MBARRIER_INIT %s 2>&1 | FileCheck %s --check-prefix=MBARRIER_INIT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_AFTER_SLOT_READ %s 2>&1 | FileCheck %s --check-prefix=AFTER_SLOT_READ
// RUN: not %nvcc -ptx -o /dev/null -DCASE_BEFORE_ASYNC_READ %s 2>&1 | FileCheck %s --check-prefix=BEFORE_ASYNC_READ
// RUN: not %nvcc -ptx -o /dev/null -DCASE_AFTER_MBARRIER_INIT %s 2>&1 | FileCheck %s --check-prefix=AFTER_MBARRIER_INIT
//
// Each case must fail with exactly one error, the ptxw one, reported at the line below it. Without a
// CASE the file compiles: what sm_80 has (mbarrier.init, mbarrier.inval) is accepted.
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

#if defined(CASE_EXPECT_TX)
  // EXPECT_TX: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // EXPECT_TX: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_expect_tx,
  // EXPECT_TX: at line [[#@LINE+2]] of
  // EXPECT_TX: 1 error detected in the compilation of
  bar.expect_tx(ptxw::tx_bytes{16});
#endif

#if defined(CASE_ARRIVE_EXPECT_TX)
  // ARRIVE_EXPECT_TX: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // ARRIVE_EXPECT_TX: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive_expect_tx,
  // ARRIVE_EXPECT_TX: at line [[#@LINE+2]] of
  // ARRIVE_EXPECT_TX: 1 error detected in the compilation of
  bar.arrive_expect_tx(ptxw::tx_bytes{16});
#endif

#if defined(CASE_ARRIVE)
  // ARRIVE: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // ARRIVE: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive,
  // ARRIVE: at line [[#@LINE+2]] of
  // ARRIVE: 1 error detected in the compilation of
  bar.arrive();
#endif

#if defined(CASE_TRY_WAIT)
  // TRY_WAIT: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // TRY_WAIT: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_try_wait,
  // TRY_WAIT: at line [[#@LINE+2]] of
  // TRY_WAIT: 1 error detected in the compilation of
  (void) bar.try_wait(ph);
#endif

#if defined(CASE_ARRIVE_COUNT)
  // ARRIVE_COUNT: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // ARRIVE_COUNT: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive,
  // ARRIVE_COUNT: at line [[#@LINE+2]] of
  // ARRIVE_COUNT: 1 error detected in the compilation of
  bar.arrive(ptxw::arrivals{1});
#endif

#if defined(CASE_ARRIVE_QUALIFIED)
  // ARRIVE_QUALIFIED: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // ARRIVE_QUALIFIED: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive,
  // ARRIVE_QUALIFIED: at line [[#@LINE+2]] of
  // ARRIVE_QUALIFIED: 1 error detected in the compilation of
  bar.arrive(ptx::sem_release, ptx::scope_cta);
#endif

#if defined(CASE_ARRIVE_COUNT_QUALIFIED)
  // ARRIVE_COUNT_QUALIFIED: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // ARRIVE_COUNT_QUALIFIED: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive,
  // ARRIVE_COUNT_QUALIFIED: at line [[#@LINE+2]] of
  // ARRIVE_COUNT_QUALIFIED: 1 error detected in the compilation of
  bar.arrive(ptx::sem_release, ptx::scope_cta, ptxw::arrivals{1});
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

#if defined(CASE_COMPLETE_TX)
  // COMPLETE_TX: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // COMPLETE_TX: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_complete_tx,
  // COMPLETE_TX: at line [[#@LINE+2]] of
  // COMPLETE_TX: 1 error detected in the compilation of
  bar.complete_tx(ptxw::tx_bytes{16});
#endif

#if defined(CASE_COMPLETE_TX_QUALIFIED)
  // COMPLETE_TX_QUALIFIED: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // COMPLETE_TX_QUALIFIED: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_complete_tx,
  // COMPLETE_TX_QUALIFIED: at line [[#@LINE+2]] of
  // COMPLETE_TX_QUALIFIED: 1 error detected in the compilation of
  bar.complete_tx(ptx::sem_relaxed, ptx::scope_cta, ptxw::tx_bytes{16});
#endif

#if defined(CASE_TRY_WAIT_HINT)
  // TRY_WAIT_HINT: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // TRY_WAIT_HINT: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_try_wait,
  // TRY_WAIT_HINT: at line [[#@LINE+2]] of
  // TRY_WAIT_HINT: 1 error detected in the compilation of
  (void) bar.try_wait(ph, ptxw::suspend_hint{1000});
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

#if defined(CASE_TEST_WAIT)
  // TEST_WAIT: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // TEST_WAIT: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_test_wait,
  // TEST_WAIT: at line [[#@LINE+2]] of
  // TEST_WAIT: 1 error detected in the compilation of
  (void) bar.test_wait(ph);
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

#if defined(CASE_REMOTE)
  // REMOTE: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // REMOTE: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mapa,
  // REMOTE: at line [[#@LINE+2]] of
  // REMOTE: 1 error detected in the compilation of
  (void) cbar.remote(ptxw::cta_rank{1});
#endif

#if defined(CASE_PROXY_ASYNC)
  // PROXY_ASYNC: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // PROXY_ASYNC: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::fence_proxy_async,
  // PROXY_ASYNC: at line [[#@LINE+2]] of
  // PROXY_ASYNC: 1 error detected in the compilation of
  ptxw::fence_proxy_async();
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

#if defined(CASE_AFTER_SLOT_READ)
  // AFTER_SLOT_READ: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // AFTER_SLOT_READ: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::fence_proxy_async_generic,
  // AFTER_SLOT_READ: at line [[#@LINE+2]] of
  // AFTER_SLOT_READ: 1 error detected in the compilation of
  ptxw::fence_after_slot_read();
#endif

#if defined(CASE_BEFORE_ASYNC_READ)
  // BEFORE_ASYNC_READ: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // BEFORE_ASYNC_READ: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::fence_proxy_async,
  // BEFORE_ASYNC_READ: at line [[#@LINE+2]] of
  // BEFORE_ASYNC_READ: 1 error detected in the compilation of
  ptxw::fence_before_async_read(ptx::space_shared);
#endif

#if defined(CASE_AFTER_MBARRIER_INIT)
  // AFTER_MBARRIER_INIT: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
  // AFTER_MBARRIER_INIT: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::fence_mbarrier_init,
  // AFTER_MBARRIER_INIT: at line [[#@LINE+2]] of
  // AFTER_MBARRIER_INIT: 1 error detected in the compilation of
  ptxw::fence_after_mbarrier_init();
#endif
}
