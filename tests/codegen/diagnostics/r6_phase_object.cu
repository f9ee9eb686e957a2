// R6: a ptxw::phase is one thread's idea of where one barrier is: it is not copied, moved, assigned
// or made from an integer, and a wait takes it after the (sem, scope) pair, never before.
// REQUIRES: mbarrier-tx, family-representative
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_COPY -DCASE_BY_VALUE -DCASE_MOVE -DCASE_ASSIGN -DCASE_FROM_INT \
// RUN:  -DCASE_WAIT_QUALIFIERS_AFTER -DCASE_TRY_WAIT_QUALIFIERS_AFTER -DCASE_TEST_WAIT_QUALIFIERS_AFTER %s 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=COPY,BY_VALUE,MOVE,ASSIGN,FROM_INT,WAIT_QUALIFIERS_AFTER \
// RUN:  --check-prefixes=TRY_WAIT_QUALIFIERS_AFTER,TEST_WAIT_QUALIFIERS_AFTER,CASES
// The cases compile together, once: each is one error at its line (-DAG checks: nvcc reports
// template instantiation errors at the end of the translation unit, out of source order), and
// the total is the number of cases (the last line).
//
// Each case must fail with exactly one error, the ptxw one, at the user's line. Without a CASE the
// file compiles: a phase passed by reference, and ptxw::phase::preceding() for a producer's start.

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

__device__ void wait_by_reference(ptxw::cta_barrier& bar, ptxw::phase& ph)
{
  bar.wait(ph);
}

__device__ void wait_by_value(ptxw::cta_barrier& bar, ptxw::phase ph);

__global__ void r6_phase_object()
{
  __shared__ ptxw::cta_barrier bar;
  ptxw::phase ph;
  ptxw::phase producer = ptxw::phase::preceding();

  // The legal forms of everything misused below.
  bar.init(ptxw::arrivals{1});
  wait_by_reference(bar, ph);
  bar.wait(ptx::sem_acquire, ptx::scope_cta, producer);

#if defined(CASE_COPY)
  // COPY-DAG: r6_phase_object.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: a ptxw::phase is not copied or moved {{.*}}: pass it by reference, ptxw::phase&
  ptxw::phase copy = ph;
  bar.wait(copy);
#endif

#if defined(CASE_BY_VALUE)
  // BY_VALUE-DAG: r6_phase_object.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: a ptxw::phase is not copied or moved {{.*}}: pass it by reference, ptxw::phase&
  wait_by_value(bar, ph);
#endif

#if defined(CASE_MOVE)
  // MOVE-DAG: r6_phase_object.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: a ptxw::phase is not copied or moved
  ptxw::phase moved(static_cast<ptxw::phase&&>(ph));
  bar.wait(moved);
#endif

#if defined(CASE_ASSIGN)
  // ASSIGN-DAG: r6_phase_object.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: a ptxw::phase is not assigned
  producer = ph;
#endif

#if defined(CASE_FROM_INT)
  // FROM_INT-DAG: r6_phase_object.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: a ptxw::phase is not made from an integer: {{.*}}ptxw::phase::preceding()
  ptxw::phase start{1};
  bar.wait(start);
#endif

#if defined(CASE_WAIT_QUALIFIERS_AFTER)
  // WAIT_QUALIFIERS_AFTER-DAG: r6_phase_object.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: a ptxw::phase is not copied or moved {{.*}}; a wait takes the (sem, scope) pair first, then the phase
  bar.wait(ph, ptx::sem_acquire, ptx::scope_cta);
#endif

#if defined(CASE_TRY_WAIT_QUALIFIERS_AFTER)
  // TRY_WAIT_QUALIFIERS_AFTER-DAG: r6_phase_object.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: a ptxw::phase is not copied or moved {{.*}}; a wait takes the (sem, scope) pair first, then the phase
  (void) bar.try_wait(ph, ptx::sem_relaxed, ptx::scope_cta, ptxw::suspend_hint{1000});
#endif

#if defined(CASE_TEST_WAIT_QUALIFIERS_AFTER)
  // TEST_WAIT_QUALIFIERS_AFTER-DAG: r6_phase_object.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: a ptxw::phase is not copied or moved {{.*}}; a wait takes the (sem, scope) pair first, then the phase
  (void) bar.test_wait(ph, ptx::sem_acquire, ptx::scope_cta);
#endif
}

// CASES: 8 errors detected in the compilation of
