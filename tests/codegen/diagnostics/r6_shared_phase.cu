// R6: a ptxw::phase is a local variable of the thread that waits. `__shared__ ptxw::phase` cannot
// get a ptxw message at compile time (nvcc runs and instantiates nothing for a __shared__
// declaration that could tell where the object lives), but its constructor is not constexpr, so
// nvcc warns that the initialiser never runs (#20054); %nvcc makes that an error and %ptxw-compile
// fails on it. At run time checked mode reports it as R6 (MbarrierChecked.R6PhaseInSharedMemory).
// REQUIRES: mbarrier-tx, family-representative
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_SHARED %s 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: not %ptxw-compile %s -o %t -- -DCASE_SHARED 2>&1 | FileCheck %s --check-prefix=COMPILE
// RUN: %ptxw-compile --allow-warnings %s -o %t -- -DCASE_SHARED

#include <ptxw/mbarrier.h>

extern "C" __global__ void r6_shared_phase(unsigned* out)
{
  __shared__ ptxw::cta_barrier bar;
  ptxw::phase ph;
  bar.wait(ph);
  *out = ph.parity();

#if defined(CASE_SHARED)
  // SHARED: r6_shared_phase.cu([[#@LINE+4]]): error #20054-D: dynamic initialization is not supported for a function-scope static __shared__ variable
  // SHARED: 1 error detected in the compilation of
  // COMPILE: ptxw compile: a correct kernel compiles without warnings or advisories; nvcc or ptxas printed for {{.*}}r6_shared_phase.cu:
  // COMPILE-NEXT: r6_shared_phase.cu([[#@LINE+1]]): warning #20054-D: dynamic initialization is not supported
  __shared__ ptxw::phase shared_ph;
  bar.wait(shared_ph);
#endif
}
