// R11: arrival counts (ptxw::arrivals), transaction bytes (ptxw::tx_bytes), suspend hints and CTA
// ranks are distinct types; a bare integer or the wrong unit does not compile, nor does the literal
// ptxw::arrivals{0}. One case per entry point that takes a count.
// REQUIRES: mbarrier-tx, family-representative
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_INIT_INT %s 2>&1 | FileCheck %s --check-prefix=INIT_INT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_INIT_BYTES %s 2>&1 | FileCheck %s --check-prefix=INIT_BYTES
// RUN: not %nvcc -ptx -o /dev/null -DCASE_INIT_ZERO %s 2>&1 | FileCheck %s --check-prefix=INIT_ZERO
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE_INT %s 2>&1 | FileCheck %s --check-prefix=ARRIVE_INT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE_BYTES %s 2>&1 | FileCheck %s --check-prefix=ARRIVE_BYTES
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE_QUALIFIED_INT %s 2>&1 | FileCheck %s --check-prefix=ARRIVE_QUALIFIED_INT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_EXPECT_TX_INT %s 2>&1 | FileCheck %s --check-prefix=EXPECT_TX_INT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_EXPECT_TX_ARRIVALS %s 2>&1 | FileCheck %s --check-prefix=EXPECT_TX_ARRIVALS
// RUN: not %nvcc -ptx -o /dev/null -DCASE_EXPECT_TX_QUALIFIED_ARRIVALS %s 2>&1 | FileCheck %s --check-prefix=EXPECT_TX_QUALIFIED_ARRIVALS
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE_EXPECT_TX_INT %s 2>&1 | FileCheck %s --check-prefix=ARRIVE_EXPECT_TX_INT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE_EXPECT_TX_QUALIFIED_INT %s 2>&1 | FileCheck %s --check-prefix=ARRIVE_EXPECT_TX_QUALIFIED_INT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_COMPLETE_TX_INT %s 2>&1 | FileCheck %s --check-prefix=COMPLETE_TX_INT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_COMPLETE_TX_QUALIFIED_ARRIVALS %s 2>&1 | FileCheck %s --check-prefix=COMPLETE_TX_QUALIFIED_ARRIVALS
// RUN: not %nvcc -ptx -o /dev/null -DCASE_REMOTE_RANK_INT %s 2>&1 | FileCheck %s --check-prefix=REMOTE_RANK_INT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_REMOTE_ARRIVE_INT %s 2>&1 | FileCheck %s --check-prefix=REMOTE_ARRIVE_INT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_REMOTE_ARRIVE_QUALIFIED_BYTES %s 2>&1 | FileCheck %s --check-prefix=REMOTE_ARRIVE_QUALIFIED_BYTES
// RUN: not %nvcc -ptx -o /dev/null -DCASE_REMOTE_COMPLETE_TX_ARRIVALS %s 2>&1 | FileCheck %s --check-prefix=REMOTE_COMPLETE_TX_ARRIVALS
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TRY_WAIT_HINT_INT %s 2>&1 | FileCheck %s --check-prefix=TRY_WAIT_HINT_INT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TRY_WAIT_SEM_AFTER_PHASE %s 2>&1 | FileCheck %s --check-prefix=TRY_WAIT_SEM_AFTER_PHASE
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TRY_WAIT_QUALIFIED_HINT_INT %s 2>&1 | FileCheck %s --check-prefix=TRY_WAIT_QUALIFIED_HINT_INT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_WAIT_HINT_INT %s 2>&1 | FileCheck %s --check-prefix=WAIT_HINT_INT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_WAIT_QUALIFIED_HINT_INT %s 2>&1 | FileCheck %s --check-prefix=WAIT_QUALIFIED_HINT_INT
//
// Each case must fail with exactly one error, the ptxw one, naming the user's line: the error line
// itself for the forms without qualifiers (and for arrivals{0}), the instantiation note for the
// forms with qualifiers, which check their qualifiers first. Without a CASE the file compiles: the
// correct spellings of the same calls, in the same kernel, are accepted.

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

__global__ void r11_units(unsigned n)
{
  __shared__ ptxw::cta_barrier bar;
  __shared__ ptxw::cluster_barrier cbar;
  ptxw::phase ph;

  // The legal forms of everything misused below.
  bar.init(ptxw::arrivals{4});
  bar.init(ptxw::arrivals{n});
  cbar.init(ptxw::arrivals{4});
  bar.arrive(ptxw::arrivals{1});
  bar.arrive(ptx::sem_relaxed, ptx::scope_cta, ptxw::arrivals{1});
  bar.expect_tx(ptxw::tx_bytes{16});
  bar.expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptxw::tx_bytes{0});
  bar.arrive_expect_tx(ptxw::tx_bytes{16});
  bar.arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptxw::tx_bytes{16});
  bar.complete_tx(ptxw::tx_bytes{16});
  bar.complete_tx(ptx::sem_relaxed, ptx::scope_cta, ptxw::tx_bytes{16});
  cbar.remote(ptxw::cta_rank{1}).arrive(ptxw::arrivals{1});
  cbar.remote(ptxw::cta_rank{1}).arrive(ptx::sem_relaxed, ptx::scope_cluster, ptxw::arrivals{1});
  cbar.remote(ptxw::cta_rank{1}).complete_tx(ptxw::tx_bytes{16});
  (void) bar.try_wait(ph, ptxw::suspend_hint{1000});
  (void) bar.try_wait(ptx::sem_acquire, ptx::scope_cta, ph, ptxw::suspend_hint{1000});
  bar.wait(ph, ptxw::suspend_hint{1000});
  bar.wait(ptx::sem_acquire, ptx::scope_cta, ph, ptxw::suspend_hint{1000});

#if defined(CASE_INIT_INT)
  // INIT_INT: r11_units.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::arrivals{n}
  // INIT_INT: 1 error detected in the compilation of
  bar.init(4);
#endif

#if defined(CASE_INIT_BYTES)
  // INIT_BYTES: r11_units.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::arrivals{n}
  // INIT_BYTES: 1 error detected in the compilation of
  bar.init(ptxw::tx_bytes{4});
#endif

#if defined(CASE_INIT_ZERO)
  // INIT_ZERO: r11_units.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: ptxw::arrivals{0}: a phase completes after at least one arrival
  // INIT_ZERO: 1 error detected in the compilation of
  bar.init(ptxw::arrivals{0});
#endif

#if defined(CASE_ARRIVE_INT)
  // ARRIVE_INT: r11_units.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::arrivals{n}
  // ARRIVE_INT: 1 error detected in the compilation of
  bar.arrive(1u);
#endif

#if defined(CASE_ARRIVE_BYTES)
  // ARRIVE_BYTES: r11_units.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::arrivals{n}
  // ARRIVE_BYTES: 1 error detected in the compilation of
  bar.arrive(ptxw::tx_bytes{16});
#endif

#if defined(CASE_ARRIVE_QUALIFIED_INT)
  // ARRIVE_QUALIFIED_INT: error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::arrivals{n}
  // ARRIVE_QUALIFIED_INT: at line [[#@LINE+2]] of
  // ARRIVE_QUALIFIED_INT: 1 error detected in the compilation of
  bar.arrive(ptx::sem_relaxed, ptx::scope_cta, 1u);
#endif

#if defined(CASE_EXPECT_TX_INT)
  // EXPECT_TX_INT: r11_units.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::tx_bytes{n}
  // EXPECT_TX_INT: 1 error detected in the compilation of
  bar.expect_tx(16u);
#endif

#if defined(CASE_EXPECT_TX_ARRIVALS)
  // EXPECT_TX_ARRIVALS: r11_units.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::tx_bytes{n}
  // EXPECT_TX_ARRIVALS: 1 error detected in the compilation of
  bar.expect_tx(ptxw::arrivals{1});
#endif

#if defined(CASE_EXPECT_TX_QUALIFIED_ARRIVALS)
  // EXPECT_TX_QUALIFIED_ARRIVALS: error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::tx_bytes{n}
  // EXPECT_TX_QUALIFIED_ARRIVALS: at line [[#@LINE+2]] of
  // EXPECT_TX_QUALIFIED_ARRIVALS: 1 error detected in the compilation of
  bar.expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptxw::arrivals{1});
#endif

#if defined(CASE_ARRIVE_EXPECT_TX_INT)
  // ARRIVE_EXPECT_TX_INT: r11_units.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::tx_bytes{n}
  // ARRIVE_EXPECT_TX_INT: 1 error detected in the compilation of
  bar.arrive_expect_tx(16);
#endif

#if defined(CASE_ARRIVE_EXPECT_TX_QUALIFIED_INT)
  // ARRIVE_EXPECT_TX_QUALIFIED_INT: error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::tx_bytes{n}
  // ARRIVE_EXPECT_TX_QUALIFIED_INT: at line [[#@LINE+2]] of
  // ARRIVE_EXPECT_TX_QUALIFIED_INT: 1 error detected in the compilation of
  bar.arrive_expect_tx(ptx::sem_release, ptx::scope_cta, 16);
#endif

#if defined(CASE_COMPLETE_TX_INT)
  // COMPLETE_TX_INT: r11_units.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::tx_bytes{n}
  // COMPLETE_TX_INT: 1 error detected in the compilation of
  bar.complete_tx(16u);
#endif

#if defined(CASE_COMPLETE_TX_QUALIFIED_ARRIVALS)
  // COMPLETE_TX_QUALIFIED_ARRIVALS: error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::tx_bytes{n}
  // COMPLETE_TX_QUALIFIED_ARRIVALS: at line [[#@LINE+2]] of
  // COMPLETE_TX_QUALIFIED_ARRIVALS: 1 error detected in the compilation of
  bar.complete_tx(ptx::sem_relaxed, ptx::scope_cta, ptxw::arrivals{16});
#endif

#if defined(CASE_REMOTE_RANK_INT)
  // REMOTE_RANK_INT: r11_units.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: remote() takes a ptxw::cta_rank{r}
  // REMOTE_RANK_INT: 1 error detected in the compilation of
  cbar.remote(1u).arrive();
#endif

#if defined(CASE_REMOTE_ARRIVE_INT)
  // REMOTE_ARRIVE_INT: r11_units.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::arrivals{n}
  // REMOTE_ARRIVE_INT: 1 error detected in the compilation of
  cbar.remote(ptxw::cta_rank{1}).arrive(1u);
#endif

#if defined(CASE_REMOTE_ARRIVE_QUALIFIED_BYTES)
  // REMOTE_ARRIVE_QUALIFIED_BYTES: error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::arrivals{n}
  // REMOTE_ARRIVE_QUALIFIED_BYTES: at line [[#@LINE+2]] of
  // REMOTE_ARRIVE_QUALIFIED_BYTES: 1 error detected in the compilation of
  cbar.remote(ptxw::cta_rank{1}).arrive(ptx::sem_release, ptx::scope_cluster, ptxw::tx_bytes{1});
#endif

#if defined(CASE_REMOTE_COMPLETE_TX_ARRIVALS)
  // REMOTE_COMPLETE_TX_ARRIVALS: r11_units.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::tx_bytes{n}
  // REMOTE_COMPLETE_TX_ARRIVALS: 1 error detected in the compilation of
  cbar.remote(ptxw::cta_rank{1}).complete_tx(ptxw::arrivals{1});
#endif

#if defined(CASE_TRY_WAIT_HINT_INT)
  // TRY_WAIT_HINT_INT: r11_units.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: the argument after the phase is a ptxw::suspend_hint{ns}
  // TRY_WAIT_HINT_INT: 1 error detected in the compilation of
  (void) bar.try_wait(ph, 1000u);
#endif

#if defined(CASE_TRY_WAIT_SEM_AFTER_PHASE)
  // TRY_WAIT_SEM_AFTER_PHASE: r11_units.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: the argument after the phase is a ptxw::suspend_hint{ns}; qualifiers come first
  // TRY_WAIT_SEM_AFTER_PHASE: 1 error detected in the compilation of
  (void) bar.try_wait(ph, ptx::sem_relaxed);
#endif

#if defined(CASE_TRY_WAIT_QUALIFIED_HINT_INT)
  // TRY_WAIT_QUALIFIED_HINT_INT: error: {{.*}} was declared unavailable ("ptxw: R11 units: the argument after the phase is a ptxw::suspend_hint{ns}
  // TRY_WAIT_QUALIFIED_HINT_INT: at line [[#@LINE+2]] of
  // TRY_WAIT_QUALIFIED_HINT_INT: 1 error detected in the compilation of
  (void) bar.try_wait(ptx::sem_acquire, ptx::scope_cta, ph, 1000u);
#endif

#if defined(CASE_WAIT_HINT_INT)
  // WAIT_HINT_INT: r11_units.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: the argument after the phase is a ptxw::suspend_hint{ns}
  // WAIT_HINT_INT: 1 error detected in the compilation of
  bar.wait(ph, 1000u);
#endif

#if defined(CASE_WAIT_QUALIFIED_HINT_INT)
  // WAIT_QUALIFIED_HINT_INT: error: {{.*}} was declared unavailable ("ptxw: R11 units: the argument after the phase is a ptxw::suspend_hint{ns}
  // WAIT_QUALIFIED_HINT_INT: at line [[#@LINE+2]] of
  // WAIT_QUALIFIED_HINT_INT: 1 error detected in the compilation of
  bar.wait(ptx::sem_relaxed, ptx::scope_cta, ph, 1000u);
#endif
}
