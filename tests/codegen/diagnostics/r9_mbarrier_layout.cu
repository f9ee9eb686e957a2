// R9: the .layout forms of mbarrier.init and mbarrier.check_layout need PTX ISA 9.3. Runs where ptxas
// has sm_90's mbarrier forms but not these (a toolchain whose nvcc emits an older PTX ISA, CUDA 13.0):
// each must fail with the ptxw R9 message that names the PTX ISA, the target being new enough.
// REQUIRES: mbarrier-tx, family-representative
// UNSUPPORTED: mbarrier-layout
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_INIT %s 2>&1 | FileCheck %s --check-prefix=INIT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_INIT_CLUSTER %s 2>&1 | FileCheck %s --check-prefix=INIT_CLUSTER
// RUN: not %nvcc -ptx -o /dev/null -DCASE_CHECK_V0 %s 2>&1 | FileCheck %s --check-prefix=CHECK_V0
// RUN: not %nvcc -ptx -o /dev/null -DCASE_CHECK_V1 %s 2>&1 | FileCheck %s --check-prefix=CHECK_V1
//
// Each case must fail with exactly one error, the ptxw one, reported at the line below it. Without a
// CASE the file compiles: the barrier's forms without a layout, and the tags themselves, are accepted.

#include <ptxw/mbarrier.h>

__global__ void r9_mbarrier_layout(unsigned* out)
{
  __shared__ ptxw::cta_barrier bar;
  __shared__ ptxw::cluster_barrier cbar;

  bar.init(ptxw::arrivals{1});
  cbar.init(ptxw::arrivals{1});
  [[maybe_unused]] constexpr ptxw::layout_v0_t v0 = ptxw::layout_v0;
  [[maybe_unused]] constexpr ptxw::layout_v1_t v1 = ptxw::layout_v1;
  (void) out;

#if defined(CASE_INIT)
  // INIT: error: static assertion failed with "ptxw: R9 target: this form needs a newer PTX ISA than this nvcc emits
  // INIT: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_init_layout_v1, {{.*}}Sm=90, Isa=930]
  // INIT: at line [[#@LINE+2]] of
  // INIT: 1 error detected in the compilation of
  bar.init(ptxw::layout_v1, ptxw::arrivals{1});
#endif

#if defined(CASE_INIT_CLUSTER)
  // INIT_CLUSTER: error: static assertion failed with "ptxw: R9 target: this form needs a newer PTX ISA than this nvcc emits
  // INIT_CLUSTER: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_init_layout_v1, {{.*}}Sm=90, Isa=930]
  // INIT_CLUSTER: at line [[#@LINE+2]] of
  // INIT_CLUSTER: 1 error detected in the compilation of
  cbar.init(ptxw::layout_v1, ptxw::arrivals{1});
#endif

#if defined(CASE_CHECK_V0)
  // CHECK_V0: error: static assertion failed with "ptxw: R9 target: this form needs a newer PTX ISA than this nvcc emits
  // CHECK_V0: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_check_layout_layout_v0, {{.*}}Sm=90, Isa=930]
  // CHECK_V0: at line [[#@LINE+2]] of
  // CHECK_V0: 1 error detected in the compilation of
  *out = bar.check_layout(ptxw::layout_v0);
#endif

#if defined(CASE_CHECK_V1)
  // CHECK_V1: error: static assertion failed with "ptxw: R9 target: this form needs a newer PTX ISA than this nvcc emits
  // CHECK_V1: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_check_layout_layout_v1, {{.*}}Sm=90, Isa=930]
  // CHECK_V1: at line [[#@LINE+2]] of
  // CHECK_V1: 1 error detected in the compilation of
  *out = cbar.check_layout(ptxw::layout_v1);
#endif
}
