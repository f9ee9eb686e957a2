// R11: arrival counts (ptxw::arrivals), transaction bytes (ptxw::tx_bytes), suspend hints and CTA
// ranks are distinct types; a bare integer or the wrong unit does not compile, nor does the literal
// ptxw::arrivals{0}. One case per entry point that takes a count.
// REQUIRES: mbarrier-tx, family-representative
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_INIT_INT -DCASE_INIT_BYTES -DCASE_INIT_ZERO -DCASE_ARRIVE_INT \
// RUN:  -DCASE_ARRIVE_BYTES -DCASE_ARRIVE_QUALIFIED_INT -DCASE_EXPECT_TX_INT -DCASE_EXPECT_TX_ARRIVALS \
// RUN:  -DCASE_EXPECT_TX_QUALIFIED_ARRIVALS -DCASE_ARRIVE_EXPECT_TX_INT \
// RUN:  -DCASE_ARRIVE_EXPECT_TX_QUALIFIED_INT -DCASE_COMPLETE_TX_INT -DCASE_COMPLETE_TX_QUALIFIED_ARRIVALS \
// RUN:  -DCASE_REMOTE_RANK_INT -DCASE_REMOTE_ARRIVE_INT -DCASE_REMOTE_ARRIVE_QUALIFIED_BYTES \
// RUN:  -DCASE_REMOTE_COMPLETE_TX_ARRIVALS -DCASE_TRY_WAIT_HINT_INT -DCASE_TRY_WAIT_SEM_AFTER_PHASE \
// RUN:  -DCASE_TRY_WAIT_QUALIFIED_HINT_INT -DCASE_WAIT_HINT_INT -DCASE_WAIT_QUALIFIED_HINT_INT %s 2>&1 \
// RUN:   | FileCheck %s \
// RUN:  --check-prefixes=INIT_INT,INIT_BYTES,INIT_ZERO,ARRIVE_INT,ARRIVE_BYTES,ARRIVE_QUALIFIED_INT \
// RUN:  --check-prefixes=EXPECT_TX_INT,EXPECT_TX_ARRIVALS,EXPECT_TX_QUALIFIED_ARRIVALS \
// RUN:  --check-prefixes=ARRIVE_EXPECT_TX_INT,ARRIVE_EXPECT_TX_QUALIFIED_INT,COMPLETE_TX_INT \
// RUN:  --check-prefixes=COMPLETE_TX_QUALIFIED_ARRIVALS,REMOTE_RANK_INT,REMOTE_ARRIVE_INT \
// RUN:  --check-prefixes=REMOTE_ARRIVE_QUALIFIED_BYTES,REMOTE_COMPLETE_TX_ARRIVALS,TRY_WAIT_HINT_INT \
// RUN:  --check-prefixes=TRY_WAIT_SEM_AFTER_PHASE,TRY_WAIT_QUALIFIED_HINT_INT,WAIT_HINT_INT \
// RUN:  --check-prefixes=WAIT_QUALIFIED_HINT_INT,CASES
// The cases compile together, once: each is one error at its line (-DAG checks: nvcc reports
// template instantiation errors at the end of the translation unit, out of source order), and
// the total is the number of cases (the last line).
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
  // INIT_INT-DAG: r11_units.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::arrivals{n}
  bar.init(4);
#endif

#if defined(CASE_INIT_BYTES)
  // INIT_BYTES-DAG: r11_units.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::arrivals{n}
  bar.init(ptxw::tx_bytes{4});
#endif

#if defined(CASE_INIT_ZERO)
  // INIT_ZERO-DAG: r11_units.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: ptxw::arrivals{0}: a phase completes after at least one arrival
  bar.init(ptxw::arrivals{0});
#endif

#if defined(CASE_ARRIVE_INT)
  // ARRIVE_INT-DAG: r11_units.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::arrivals{n}
  bar.arrive(1u);
#endif

#if defined(CASE_ARRIVE_BYTES)
  // ARRIVE_BYTES-DAG: r11_units.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::arrivals{n}
  bar.arrive(ptxw::tx_bytes{16});
#endif

#if defined(CASE_ARRIVE_QUALIFIED_INT)
  // ARRIVE_QUALIFIED_INT-DAG: {{.*}}/include/ptxw/{{.*}}: error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::arrivals{n}
  // ARRIVE_QUALIFIED_INT-DAG: at line [[#@LINE+1]] of
  bar.arrive(ptx::sem_relaxed, ptx::scope_cta, 1u);
#endif

#if defined(CASE_EXPECT_TX_INT)
  // EXPECT_TX_INT-DAG: r11_units.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::tx_bytes{n}
  bar.expect_tx(16u);
#endif

#if defined(CASE_EXPECT_TX_ARRIVALS)
  // EXPECT_TX_ARRIVALS-DAG: r11_units.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::tx_bytes{n}
  bar.expect_tx(ptxw::arrivals{1});
#endif

#if defined(CASE_EXPECT_TX_QUALIFIED_ARRIVALS)
  // EXPECT_TX_QUALIFIED_ARRIVALS-DAG: {{.*}}/include/ptxw/{{.*}}: error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::tx_bytes{n}
  // EXPECT_TX_QUALIFIED_ARRIVALS-DAG: at line [[#@LINE+1]] of
  bar.expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptxw::arrivals{1});
#endif

#if defined(CASE_ARRIVE_EXPECT_TX_INT)
  // ARRIVE_EXPECT_TX_INT-DAG: r11_units.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::tx_bytes{n}
  bar.arrive_expect_tx(16);
#endif

#if defined(CASE_ARRIVE_EXPECT_TX_QUALIFIED_INT)
  // ARRIVE_EXPECT_TX_QUALIFIED_INT-DAG: {{.*}}/include/ptxw/{{.*}}: error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::tx_bytes{n}
  // ARRIVE_EXPECT_TX_QUALIFIED_INT-DAG: at line [[#@LINE+1]] of
  bar.arrive_expect_tx(ptx::sem_release, ptx::scope_cta, 16);
#endif

#if defined(CASE_COMPLETE_TX_INT)
  // COMPLETE_TX_INT-DAG: r11_units.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::tx_bytes{n}
  bar.complete_tx(16u);
#endif

#if defined(CASE_COMPLETE_TX_QUALIFIED_ARRIVALS)
  // COMPLETE_TX_QUALIFIED_ARRIVALS-DAG: {{.*}}/include/ptxw/{{.*}}: error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::tx_bytes{n}
  // COMPLETE_TX_QUALIFIED_ARRIVALS-DAG: at line [[#@LINE+1]] of
  bar.complete_tx(ptx::sem_relaxed, ptx::scope_cta, ptxw::arrivals{16});
#endif

#if defined(CASE_REMOTE_RANK_INT)
  // REMOTE_RANK_INT-DAG: r11_units.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: remote() takes a ptxw::cta_rank{r}
  cbar.remote(1u).arrive();
#endif

#if defined(CASE_REMOTE_ARRIVE_INT)
  // REMOTE_ARRIVE_INT-DAG: r11_units.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::arrivals{n}
  cbar.remote(ptxw::cta_rank{1}).arrive(1u);
#endif

#if defined(CASE_REMOTE_ARRIVE_QUALIFIED_BYTES)
  // REMOTE_ARRIVE_QUALIFIED_BYTES-DAG: {{.*}}/include/ptxw/{{.*}}: error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::arrivals{n}
  // REMOTE_ARRIVE_QUALIFIED_BYTES-DAG: at line [[#@LINE+1]] of
  cbar.remote(ptxw::cta_rank{1}).arrive(ptx::sem_release, ptx::scope_cluster, ptxw::tx_bytes{1});
#endif

#if defined(CASE_REMOTE_COMPLETE_TX_ARRIVALS)
  // REMOTE_COMPLETE_TX_ARRIVALS-DAG: r11_units.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: this count is ptxw::tx_bytes{n}
  cbar.remote(ptxw::cta_rank{1}).complete_tx(ptxw::arrivals{1});
#endif

#if defined(CASE_TRY_WAIT_HINT_INT)
  // TRY_WAIT_HINT_INT-DAG: r11_units.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: the argument after the phase is a ptxw::suspend_hint{ns}
  (void) bar.try_wait(ph, 1000u);
#endif

#if defined(CASE_TRY_WAIT_SEM_AFTER_PHASE)
  // TRY_WAIT_SEM_AFTER_PHASE-DAG: r11_units.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: the argument after the phase is a ptxw::suspend_hint{ns}; qualifiers come first
  (void) bar.try_wait(ph, ptx::sem_relaxed);
#endif

#if defined(CASE_TRY_WAIT_QUALIFIED_HINT_INT)
  // TRY_WAIT_QUALIFIED_HINT_INT-DAG: {{.*}}/include/ptxw/{{.*}}: error: {{.*}} was declared unavailable ("ptxw: R11 units: the argument after the phase is a ptxw::suspend_hint{ns}
  // TRY_WAIT_QUALIFIED_HINT_INT-DAG: at line [[#@LINE+1]] of
  (void) bar.try_wait(ptx::sem_acquire, ptx::scope_cta, ph, 1000u);
#endif

#if defined(CASE_WAIT_HINT_INT)
  // WAIT_HINT_INT-DAG: r11_units.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R11 units: the argument after the phase is a ptxw::suspend_hint{ns}
  bar.wait(ph, 1000u);
#endif

#if defined(CASE_WAIT_QUALIFIED_HINT_INT)
  // WAIT_QUALIFIED_HINT_INT-DAG: {{.*}}/include/ptxw/{{.*}}: error: {{.*}} was declared unavailable ("ptxw: R11 units: the argument after the phase is a ptxw::suspend_hint{ns}
  // WAIT_QUALIFIED_HINT_INT-DAG: at line [[#@LINE+1]] of
  bar.wait(ptx::sem_relaxed, ptx::scope_cta, ph, 1000u);
#endif
}

// CASES: 22 errors detected in the compilation of
