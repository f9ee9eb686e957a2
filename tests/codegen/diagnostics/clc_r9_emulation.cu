// R9: the emulation behind ptxw::clc (cp.async.bulk, mbarrier transaction counts) needs sm_90.
// Runs where ptxas has mbarrier.init but not mbarrier.expect_tx (sm_80): including the cluster
// launch control headers must compile there (gates fire only when instantiated), and opening a
// slot with the automatic context (the emulation below sm_100) must fail with ptxw's R9 message.
// REQUIRES: mbarrier
// UNSUPPORTED: mbarrier-tx
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_EMULATION %s 2>&1 | FileCheck %s --check-prefix=EMULATION
//
// Each case must fail with exactly one error, the ptxw one, reported at the line below it. Without a
// CASE the file compiles: what sm_80 has (mbarrier.init) next to the included headers.

#include <ptxw/clc.h>

__global__ void clc_r9_emulation(ptxw::clc::context<> ctx)
{
  __shared__ ptxw::cta_barrier bar;
  bar.init(ptxw::arrivals{1});
  (void) ctx;

#if defined(CASE_EMULATION)
  __shared__ ptxw::clc::slot<ptxw::clc::cta_t> slot;
  // EMULATION: error: static assertion failed with "ptxw: R9 target: cluster launch control on Hopper (ptxw::clc::counter_t, emulated_t) needs sm_90 or newer"
  // EMULATION: at line [[#@LINE+2]] of
  // EMULATION: 1 error detected in the compilation of
  auto clc = ptxw::clc::open(slot, ctx);
#endif
}
