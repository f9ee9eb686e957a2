// R9: work stealing needs sm_90 or newer (the Hopper backends; the hardware from sm_100). Runs where
// ptxas has no mbarrier.expect_tx (sm_80): every entry point fails with exactly one error, ptxw's R9,
// and no error from ptxw's internals. Without a CASE the file compiles: including the headers costs
// nothing where they cannot run.
// UNSUPPORTED: mbarrier-tx
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_FOR_EACH_BLOCK -DCASE_FOR_EACH_CLUSTER -DCASE_OPEN_EMULATED %s 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=FOR_EACH_BLOCK,FOR_EACH_CLUSTER,OPEN_EMULATED,CASES
// The cases compile together, once: each is one error at its line (-DAG checks: nvcc reports
// template instantiation errors at the end of the translation unit, out of source order), and
// the total is the number of cases (the last line).

#include <ptxw/clc.h>

__global__ void clc_r9_below_sm90(float* out, ptxw::clc::context<> ctx,
                                  ptxw::clc::context<ptxw::clc::emulated_t> emulated)
{
  out[0] = 1.0f;
#if defined(CASE_FOR_EACH_BLOCK)
  // FOR_EACH_BLOCK-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R9 target: cluster launch control on Hopper (ptxw::clc::counter_t, emulated_t) needs sm_90 or newer"
  // FOR_EACH_BLOCK-DAG: at line [[#@LINE+1]] of
  ptxw::for_each_canceled_block<1>(ctx, [&](dim3 block) { out[block.x] = 2.0f; });
#endif

#if defined(CASE_FOR_EACH_CLUSTER)
  // FOR_EACH_CLUSTER-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R9 target: cluster launch control on Hopper (ptxw::clc::counter_t, emulated_t) needs sm_90 or newer"
  // FOR_EACH_CLUSTER-DAG: at line [[#@LINE+1]] of
  ptxw::for_each_canceled_cluster<1>(ctx, [&](dim3 block) { out[block.x] = 3.0f; });
#endif

#if defined(CASE_OPEN_EMULATED)
  {
    __shared__ ptxw::clc::slot<ptxw::clc::cta_t> slot;
    // OPEN_EMULATED-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R9 target: cluster launch control on Hopper (ptxw::clc::counter_t, emulated_t) needs sm_90 or newer"
    // OPEN_EMULATED-DAG: at line [[#@LINE+1]] of
    auto clc = ptxw::clc::open(slot, emulated);
    clc.request(clc.elect());
    if (!clc.wait().decode([&](auto block) { out[block.x()] = 4.0f; }))
    {
      out[1] = 0.0f;
    }
  }
#endif
}

// CASES: 3 errors detected in the compilation of
