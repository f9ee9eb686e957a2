// R9: the hardware backend of cluster launch control (ptxw::clc::context<hardware_t>) compiles only
// where ptxas has clusterlaunchcontrol.try_cancel. Runs where ptxas has mbarrier.expect_tx but not
// try_cancel (sm_90a): asking for the hardware there must fail with ptxw's R9 message, which names the
// way out (the automatic context, or emulated_t).
// REQUIRES: mbarrier-tx
// UNSUPPORTED: clc
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_HARDWARE_CTA %s 2>&1 | FileCheck %s --check-prefix=HARDWARE_CTA
// RUN: not %nvcc -ptx -o /dev/null -DCASE_HARDWARE_CLUSTER %s 2>&1 | FileCheck %s --check-prefix=HARDWARE_CLUSTER
// RUN: not %nvcc -ptx -o /dev/null -DCASE_FOR_EACH %s 2>&1 | FileCheck %s --check-prefix=FOR_EACH
//
// Each case must fail with exactly one error, the ptxw one, reported at the line below it. Without a
// CASE the file compiles: the same protocol with the automatic context and with emulated_t (the
// emulation) is accepted here.

#include <ptxw/clc.h>

#include "Inputs/clc_round.h"

__global__ void clc_r9_hardware(float* out, ptxw::clc::context<> automatic,
                                ptxw::clc::context<ptxw::clc::emulated_t> emulated,
                                ptxw::clc::context<ptxw::clc::hardware_t> hardware)
{
  // What sm_90 has: the emulation behind the same API.
  if (!clc_round<ptxw::clc::cta_t>(automatic, &out[0]) || !clc_round<ptxw::clc::cluster_t>(emulated, &out[1]))
  {
    return;
  }
  ptxw::for_each_canceled_block<1>(automatic, [&](dim3 block) { out[block.x] = 1.0f; });

#if defined(CASE_HARDWARE_CTA)
  {
    __shared__ ptxw::clc::slot<ptxw::clc::cta_t> slot;
    // HARDWARE_CTA: error: static assertion failed with "ptxw: R9 target: clusterlaunchcontrol.try_cancel needs sm_100 or newer; below it use ptxw::clc::context<ptxw::clc::automatic_t> (the default: counter_t there) or <emulated_t>"
    // HARDWARE_CTA: at line [[#@LINE+2]] of
    // HARDWARE_CTA: 1 error detected in the compilation of
    auto clc = ptxw::clc::open(slot, hardware);
    clc.request(clc.elect());
    if (!clc.wait().decode([&](auto block) { out[2] = block.x(); })) return;
  }
#endif

#if defined(CASE_HARDWARE_CLUSTER)
  {
    __shared__ ptxw::clc::slot<ptxw::clc::cluster_t> slot;
    // HARDWARE_CLUSTER: error: static assertion failed with "ptxw: R9 target: clusterlaunchcontrol.try_cancel needs sm_100 or newer; below it use ptxw::clc::context<ptxw::clc::automatic_t> (the default: counter_t there) or <emulated_t>"
    // HARDWARE_CLUSTER: at line [[#@LINE+2]] of
    // HARDWARE_CLUSTER: 1 error detected in the compilation of
    auto clc = ptxw::clc::open(slot, hardware);
    clc.request(clc.elect());
  }
#endif

#if defined(CASE_FOR_EACH)
  // FOR_EACH: error: static assertion failed with "ptxw: R9 target: clusterlaunchcontrol.try_cancel needs sm_100 or newer
  // FOR_EACH: at line [[#@LINE+2]] of
  // FOR_EACH: 1 error detected in the compilation of
  ptxw::for_each_canceled_block<1>(hardware, [&](dim3 block) { out[block.x] = 2.0f; });
#endif
}
