// R6: waits take a ptxw::phase lvalue, which flips once per completed wait; a parity integer or a
// temporary (or const) phase does not compile.
// REQUIRES: mbarrier-tx
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TRY_WAIT_INT %s 2>&1 | FileCheck %s --check-prefix=TRY_WAIT_INT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_WAIT_TEMPORARY %s 2>&1 | FileCheck %s --check-prefix=WAIT_TEMPORARY
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TEST_WAIT_PARITY %s 2>&1 | FileCheck %s --check-prefix=TEST_WAIT_PARITY
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TRY_WAIT_CONST %s 2>&1 | FileCheck %s --check-prefix=TRY_WAIT_CONST
// RUN: not %nvcc -ptx -o /dev/null -DCASE_WAIT_MOVED %s 2>&1 | FileCheck %s --check-prefix=WAIT_MOVED
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TEST_WAIT_TEMPORARY %s 2>&1 | FileCheck %s --check-prefix=TEST_WAIT_TEMPORARY
// RUN: not %nvcc -ptx -o /dev/null -DCASE_COPY %s 2>&1 | FileCheck %s --check-prefix=COPY
//
// Each case must fail with exactly one error, the ptxw one, reported at the line below it. Without a
// CASE the file compiles: waits on a ptxw::phase lvalue are accepted. A phase cannot be copied (a
// copy is a second, diverging phase): that one is the deleted copy constructor, whose declaration
// in ptxw/phase.h carries the R6 comment.

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

__global__ void r6_parity()
{
  __shared__ ptxw::cta_barrier bar;
  ptxw::phase ph;

  // The legal forms of everything misused below.
  bar.init(ptxw::arrivals{1});
  (void) bar.try_wait(ph);
  (void) bar.test_wait(ph);
  bar.wait(ph);
  bar.wait(ptx::sem_relaxed, ptx::scope_cta, ph, ptxw::suspend_hint{1000});

#if defined(CASE_TRY_WAIT_INT)
  // TRY_WAIT_INT: error: static assertion failed with "ptxw: R6 parity: waits take a ptxw::phase lvalue
  // TRY_WAIT_INT: at line [[#@LINE+2]] of
  // TRY_WAIT_INT: 1 error detected in the compilation of
  (void) bar.try_wait(0u);
#endif

#if defined(CASE_WAIT_TEMPORARY)
  // WAIT_TEMPORARY: error: static assertion failed with "ptxw: R6 parity: waits take a ptxw::phase lvalue
  // WAIT_TEMPORARY: at line [[#@LINE+2]] of
  // WAIT_TEMPORARY: 1 error detected in the compilation of
  bar.wait(ptxw::phase{});
#endif

#if defined(CASE_TEST_WAIT_PARITY)
  // TEST_WAIT_PARITY: error: static assertion failed with "ptxw: R6 parity: waits take a ptxw::phase lvalue
  // TEST_WAIT_PARITY: at line [[#@LINE+2]] of
  // TEST_WAIT_PARITY: 1 error detected in the compilation of
  (void) bar.test_wait(ph.parity());
#endif

#if defined(CASE_TRY_WAIT_CONST)
  const ptxw::phase cph;
  // TRY_WAIT_CONST: error: static assertion failed with "ptxw: R6 parity: waits take a ptxw::phase lvalue
  // TRY_WAIT_CONST: at line [[#@LINE+2]] of
  // TRY_WAIT_CONST: 1 error detected in the compilation of
  (void) bar.try_wait(ptx::sem_acquire, ptx::scope_cta, cph);
#endif

#if defined(CASE_WAIT_MOVED)
  // WAIT_MOVED: error: static assertion failed with "ptxw: R6 parity: waits take a ptxw::phase lvalue
  // WAIT_MOVED: at line [[#@LINE+2]] of
  // WAIT_MOVED: 1 error detected in the compilation of
  bar.wait(static_cast<ptxw::phase&&>(ph));
#endif

#if defined(CASE_TEST_WAIT_TEMPORARY)
  // TEST_WAIT_TEMPORARY: error: static assertion failed with "ptxw: R6 parity: waits take a ptxw::phase lvalue
  // TEST_WAIT_TEMPORARY: at line [[#@LINE+2]] of
  // TEST_WAIT_TEMPORARY: 1 error detected in the compilation of
  (void) bar.test_wait(ptxw::phase{});
#endif

#if defined(CASE_COPY)
  // COPY: error: function "ptxw::{{(un)?checked_mode::}}phase::phase(const ptxw::{{(un)?checked_mode::}}phase &)" (declared at line [[#]] of {{.*}}ptxw/phase.h) cannot be referenced -- it is a deleted function
  // COPY: 1 error detected in the compilation of
  ptxw::phase copy = ph;
  bar.wait(copy);
#endif
}
