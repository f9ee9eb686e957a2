// R6: a ptxw::phase is one thread's idea of where one barrier is: it is not copied, moved, assigned
// or made from an integer, and a wait takes it after the (sem, scope) pair, never before.
// REQUIRES: mbarrier-tx, family-representative
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_COPY %s 2>&1 | FileCheck %s --check-prefix=COPY
// RUN: not %nvcc -ptx -o /dev/null -DCASE_BY_VALUE %s 2>&1 | FileCheck %s --check-prefix=BY_VALUE
// RUN: not %nvcc -ptx -o /dev/null -DCASE_MOVE %s 2>&1 | FileCheck %s --check-prefix=MOVE
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ASSIGN %s 2>&1 | FileCheck %s --check-prefix=ASSIGN
// RUN: not %nvcc -ptx -o /dev/null -DCASE_FROM_INT %s 2>&1 | FileCheck %s --check-prefix=FROM_INT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_WAIT_QUALIFIERS_AFTER %s 2>&1 | FileCheck %s --check-prefix=WAIT_QUALIFIERS_AFTER
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TRY_WAIT_QUALIFIERS_AFTER %s 2>&1 | FileCheck %s --check-prefix=TRY_WAIT_QUALIFIERS_AFTER
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TEST_WAIT_QUALIFIERS_AFTER %s 2>&1 | FileCheck %s --check-prefix=TEST_WAIT_QUALIFIERS_AFTER
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
  // COPY: r6_phase_object.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: a ptxw::phase is not copied or moved {{.*}}: pass it by reference, ptxw::phase&
  // COPY: 1 error detected in the compilation of
  ptxw::phase copy = ph;
  bar.wait(copy);
#endif

#if defined(CASE_BY_VALUE)
  // BY_VALUE: r6_phase_object.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: a ptxw::phase is not copied or moved {{.*}}: pass it by reference, ptxw::phase&
  // BY_VALUE: 1 error detected in the compilation of
  wait_by_value(bar, ph);
#endif

#if defined(CASE_MOVE)
  // MOVE: r6_phase_object.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: a ptxw::phase is not copied or moved
  // MOVE: 1 error detected in the compilation of
  ptxw::phase moved(static_cast<ptxw::phase&&>(ph));
  bar.wait(moved);
#endif

#if defined(CASE_ASSIGN)
  // ASSIGN: r6_phase_object.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: a ptxw::phase is not assigned
  // ASSIGN: 1 error detected in the compilation of
  producer = ph;
#endif

#if defined(CASE_FROM_INT)
  // FROM_INT: r6_phase_object.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: a ptxw::phase is not made from an integer: {{.*}}ptxw::phase::preceding()
  // FROM_INT: 1 error detected in the compilation of
  ptxw::phase start{1};
  bar.wait(start);
#endif

#if defined(CASE_WAIT_QUALIFIERS_AFTER)
  // WAIT_QUALIFIERS_AFTER: r6_phase_object.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: a ptxw::phase is not copied or moved {{.*}}; a wait takes the (sem, scope) pair first, then the phase
  // WAIT_QUALIFIERS_AFTER: 1 error detected in the compilation of
  bar.wait(ph, ptx::sem_acquire, ptx::scope_cta);
#endif

#if defined(CASE_TRY_WAIT_QUALIFIERS_AFTER)
  // TRY_WAIT_QUALIFIERS_AFTER: r6_phase_object.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: a ptxw::phase is not copied or moved {{.*}}; a wait takes the (sem, scope) pair first, then the phase
  // TRY_WAIT_QUALIFIERS_AFTER: 1 error detected in the compilation of
  (void) bar.try_wait(ph, ptx::sem_relaxed, ptx::scope_cta, ptxw::suspend_hint{1000});
#endif

#if defined(CASE_TEST_WAIT_QUALIFIERS_AFTER)
  // TEST_WAIT_QUALIFIERS_AFTER: r6_phase_object.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: a ptxw::phase is not copied or moved {{.*}}; a wait takes the (sem, scope) pair first, then the phase
  // TEST_WAIT_QUALIFIERS_AFTER: 1 error detected in the compilation of
  (void) bar.test_wait(ph, ptx::sem_acquire, ptx::scope_cta);
#endif
}
