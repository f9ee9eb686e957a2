// R9: the .layout forms of mbarrier.init and mbarrier.check_layout need PTX ISA 9.3. Runs where ptxas
// has sm_90's mbarrier forms but not these (a toolchain whose nvcc emits an older PTX ISA, CUDA 13.0):
// each must fail with the ptxw R9 message that names the PTX ISA, the target being new enough.
// REQUIRES: mbarrier-tx, family-representative
// UNSUPPORTED: mbarrier-layout
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_INIT -DCASE_CHECK_V0 -DCASE_CHECK_V1 %s 2>&1 \
// RUN:   | FileCheck %s \
// RUN:  --check-prefixes=INIT,CHECK_V0,CHECK_V1,FIRST
// RUN: not %nvcc -ptx -o /dev/null -DCASE_INIT_CLUSTER %s 2>&1 \
// RUN:   | FileCheck %s \
// RUN:  --check-prefixes=INIT_CLUSTER,SECOND
//
// Two compiles, each of cases that share no instantiation (nvcc reports a shared one's error once):
// INIT_CLUSTER instantiates what INIT does. Each case is one error, the ptxw one, at the line below
// it (-DAG checks: nvcc reports instantiation errors out of source order), and each compile's total
// is its number of cases (the last lines). Without a
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
  // INIT-DAG: error: static assertion failed with "ptxw: R9 target: this form needs a newer PTX ISA than this nvcc emits
  // INIT-DAG: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_init_layout_v1, {{.*}}Sm=90, Isa=930]
  // INIT-DAG: at line [[#@LINE+1]] of
  bar.init(ptxw::layout_v1, ptxw::arrivals{1});
#endif

#if defined(CASE_INIT_CLUSTER)
  // INIT_CLUSTER-DAG: error: static assertion failed with "ptxw: R9 target: this form needs a newer PTX ISA than this nvcc emits
  // INIT_CLUSTER-DAG: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_init_layout_v1, {{.*}}Sm=90, Isa=930]
  // INIT_CLUSTER-DAG: at line [[#@LINE+1]] of
  cbar.init(ptxw::layout_v1, ptxw::arrivals{1});
#endif

#if defined(CASE_CHECK_V0)
  // CHECK_V0-DAG: error: static assertion failed with "ptxw: R9 target: this form needs a newer PTX ISA than this nvcc emits
  // CHECK_V0-DAG: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_check_layout_layout_v0, {{.*}}Sm=90, Isa=930]
  // CHECK_V0-DAG: at line [[#@LINE+1]] of
  *out = bar.check_layout(ptxw::layout_v0);
#endif

#if defined(CASE_CHECK_V1)
  // CHECK_V1-DAG: error: static assertion failed with "ptxw: R9 target: this form needs a newer PTX ISA than this nvcc emits
  // CHECK_V1-DAG: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_check_layout_layout_v1, {{.*}}Sm=90, Isa=930]
  // CHECK_V1-DAG: at line [[#@LINE+1]] of
  *out = cbar.check_layout(ptxw::layout_v1);
#endif
}

// FIRST: 3 errors detected in the compilation of
// SECOND: 1 error detected in the compilation of
