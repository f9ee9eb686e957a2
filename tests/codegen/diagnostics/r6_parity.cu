// R6: every wait takes a ptxw::phase lvalue, which flips once per completed wait; a parity integer
// or a temporary, const or moved phase does not compile. One case per wait form.
// REQUIRES: mbarrier-tx, family-representative
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TRY_WAIT_INT -DCASE_TRY_WAIT_HINT_TEMPORARY -DCASE_TRY_WAIT_CONST \
// RUN:  -DCASE_TRY_WAIT_HINT_PARITY -DCASE_TEST_WAIT_PARITY -DCASE_TEST_WAIT_TEMPORARY \
// RUN:  -DCASE_TEST_WAIT_QUALIFIED_INT -DCASE_WAIT_TEMPORARY -DCASE_WAIT_MOVED -DCASE_WAIT_HINT_CONST \
// RUN:  -DCASE_WAIT_QUALIFIED_INT -DCASE_WAIT_QUALIFIED_HINT_TEMPORARY %s 2>&1 \
// RUN:   | FileCheck %s \
// RUN:  --check-prefixes=TRY_WAIT_INT,TRY_WAIT_HINT_TEMPORARY,TRY_WAIT_CONST,TRY_WAIT_HINT_PARITY \
// RUN:  --check-prefixes=TEST_WAIT_PARITY,TEST_WAIT_TEMPORARY,TEST_WAIT_QUALIFIED_INT,WAIT_TEMPORARY \
// RUN:  --check-prefixes=WAIT_MOVED,WAIT_HINT_CONST,WAIT_QUALIFIED_INT,WAIT_QUALIFIED_HINT_TEMPORARY \
// RUN:  --check-prefixes=CASES
// The cases compile together, once: each is one error at its line (-DAG checks: nvcc reports
// template instantiation errors at the end of the translation unit, out of source order), and
// the total is the number of cases (the last line).
//
// Each case must fail with exactly one error, the ptxw one, naming the user's line. Without a CASE
// the file compiles: every wait form on a ptxw::phase lvalue is accepted. In the forms without
// qualifiers the phase is refused at the call itself, the error line is the user's; in the forms
// with qualifiers it is refused after the qualifiers were checked, and the user's line is in the
// instantiation note. The phase object's own rules (no copy, no integer) are r6_phase_object.cu.

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

__global__ void r6_parity()
{
  __shared__ ptxw::cta_barrier bar;
  ptxw::phase ph;
  const ptxw::phase cph;
  const ptxw::suspend_hint hint{1000};

  // The legal forms of everything misused below.
  bar.init(ptxw::arrivals{1});
  (void) bar.try_wait(ph);
  (void) bar.try_wait(ph, hint);
  (void) bar.try_wait(ptx::sem_acquire, ptx::scope_cta, ph);
  (void) bar.try_wait(ptx::sem_relaxed, ptx::scope_cta, ph, hint);
  (void) bar.test_wait(ph);
  (void) bar.test_wait(ptx::sem_relaxed, ptx::scope_cta, ph);
  bar.wait(ph);
  bar.wait(ph, hint);
  bar.wait(ptx::sem_acquire, ptx::scope_cta, ph);
  bar.wait(ptx::sem_relaxed, ptx::scope_cta, ph, hint);
  (void) cph.parity();

#if defined(CASE_TRY_WAIT_INT)
  // TRY_WAIT_INT-DAG: r6_parity.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: waits take a ptxw::phase lvalue
  (void) bar.try_wait(0u);
#endif

#if defined(CASE_TRY_WAIT_HINT_TEMPORARY)
  // TRY_WAIT_HINT_TEMPORARY-DAG: r6_parity.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: waits take a ptxw::phase lvalue
  (void) bar.try_wait(ptxw::phase{}, hint);
#endif

#if defined(CASE_TRY_WAIT_CONST)
  // TRY_WAIT_CONST-DAG: {{.*}}/include/ptxw/{{.*}}: error: {{.*}} was declared unavailable ("ptxw: R6 parity: waits take a ptxw::phase lvalue
  // TRY_WAIT_CONST-DAG: at line [[#@LINE+1]] of
  (void) bar.try_wait(ptx::sem_acquire, ptx::scope_cta, cph);
#endif

#if defined(CASE_TRY_WAIT_HINT_PARITY)
  // TRY_WAIT_HINT_PARITY-DAG: {{.*}}/include/ptxw/{{.*}}: error: {{.*}} was declared unavailable ("ptxw: R6 parity: waits take a ptxw::phase lvalue
  // TRY_WAIT_HINT_PARITY-DAG: at line [[#@LINE+1]] of
  (void) bar.try_wait(ptx::sem_relaxed, ptx::scope_cta, ph.parity(), hint);
#endif

#if defined(CASE_TEST_WAIT_PARITY)
  // TEST_WAIT_PARITY-DAG: r6_parity.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: waits take a ptxw::phase lvalue
  (void) bar.test_wait(ph.parity());
#endif

#if defined(CASE_TEST_WAIT_TEMPORARY)
  // TEST_WAIT_TEMPORARY-DAG: r6_parity.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: waits take a ptxw::phase lvalue
  (void) bar.test_wait(ptxw::phase{});
#endif

#if defined(CASE_TEST_WAIT_QUALIFIED_INT)
  // TEST_WAIT_QUALIFIED_INT-DAG: {{.*}}/include/ptxw/{{.*}}: error: {{.*}} was declared unavailable ("ptxw: R6 parity: waits take a ptxw::phase lvalue
  // TEST_WAIT_QUALIFIED_INT-DAG: at line [[#@LINE+1]] of
  (void) bar.test_wait(ptx::sem_relaxed, ptx::scope_cta, 1u);
#endif

#if defined(CASE_WAIT_TEMPORARY)
  // WAIT_TEMPORARY-DAG: r6_parity.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: waits take a ptxw::phase lvalue
  bar.wait(ptxw::phase{});
#endif

#if defined(CASE_WAIT_MOVED)
  // WAIT_MOVED-DAG: r6_parity.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: waits take a ptxw::phase lvalue
  bar.wait(static_cast<ptxw::phase&&>(ph));
#endif

#if defined(CASE_WAIT_HINT_CONST)
  // WAIT_HINT_CONST-DAG: r6_parity.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: waits take a ptxw::phase lvalue
  bar.wait(cph, hint);
#endif

#if defined(CASE_WAIT_QUALIFIED_INT)
  // WAIT_QUALIFIED_INT-DAG: {{.*}}/include/ptxw/{{.*}}: error: {{.*}} was declared unavailable ("ptxw: R6 parity: waits take a ptxw::phase lvalue
  // WAIT_QUALIFIED_INT-DAG: at line [[#@LINE+1]] of
  bar.wait(ptx::sem_acquire, ptx::scope_cta, 0u);
#endif

#if defined(CASE_WAIT_QUALIFIED_HINT_TEMPORARY)
  // WAIT_QUALIFIED_HINT_TEMPORARY-DAG: {{.*}}/include/ptxw/{{.*}}: error: {{.*}} was declared unavailable ("ptxw: R6 parity: waits take a ptxw::phase lvalue
  // WAIT_QUALIFIED_HINT_TEMPORARY-DAG: at line [[#@LINE+1]] of
  bar.wait(ptx::sem_relaxed, ptx::scope_cta, ptxw::phase{}, hint);
#endif
}

// CASES: 12 errors detected in the compilation of
