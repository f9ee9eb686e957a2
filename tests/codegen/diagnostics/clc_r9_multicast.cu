// R9: the multicast form of try_cancel (a ptxw::clc::slot<cluster_t> served by the hardware) compiles
// only for arch- or family-specific targets, where ptxas has it. Runs where ptxas has try_cancel but
// not .multicast::cluster::all (sm_100): the cluster form must fail there with ptxw's R9 message --
// also with the automatic context, which picks the hardware from sm_100 on.
// REQUIRES: clc
// UNSUPPORTED: clc-multicast
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_HARDWARE_CLUSTER %s 2>&1 | FileCheck %s --check-prefix=HARDWARE_CLUSTER
// RUN: not %nvcc -ptx -o /dev/null -DCASE_AUTOMATIC_CLUSTER %s 2>&1 | FileCheck %s --check-prefix=AUTOMATIC_CLUSTER
// RUN: not %nvcc -ptx -o /dev/null -DCASE_FOR_EACH_CLUSTER %s 2>&1 | FileCheck %s --check-prefix=FOR_EACH_CLUSTER
//
// Each case must fail with exactly one error, the ptxw one, reported at the line below it. Without a
// CASE the file compiles: the CTA form on the hardware, and the cluster form on the emulation.

#include <ptxw/clc.h>

#include "Inputs/clc_round.h"

__global__ void __cluster_dims__(2, 1, 1)
  clc_r9_multicast(float* out, ptxw::clc::context<> automatic, ptxw::clc::context<ptxw::clc::emulated_t> emulated,
                   ptxw::clc::context<ptxw::clc::hardware_t> hardware)
{
  // What sm_100 has: try_cancel to the requesting CTA, and the emulation's multicast.
  if (!clc_round<ptxw::clc::cta_t>(hardware, &out[0]) || !clc_round<ptxw::clc::cluster_t>(emulated, &out[1]))
  {
    return;
  }
  ptxw::for_each_canceled_block<1>(automatic, [&](dim3 block) { out[block.x] = 1.0f; });

#if defined(CASE_HARDWARE_CLUSTER)
  {
    __shared__ ptxw::clc::slot<ptxw::clc::cluster_t> slot;
    // HARDWARE_CLUSTER: error: static assertion failed with "ptxw: R9 target: clusterlaunchcontrol.try_cancel.multicast::cluster::all needs an arch- or family-specific target (sm_100a, sm_100f, sm_103a, sm_110a, sm_120a, sm_121a, ...): ptxas rejects it on sm_100, sm_103, sm_110, sm_120 and sm_121; there, use ptxw::clc::context<ptxw::clc::counter_t>.
    // HARDWARE_CLUSTER: at line [[#@LINE+2]] of
    // HARDWARE_CLUSTER: 1 error detected in the compilation of
    auto clc = ptxw::clc::open(slot, hardware);
    clc.request(clc.elect());
  }
#endif

#if defined(CASE_AUTOMATIC_CLUSTER)
  {
    __shared__ ptxw::clc::slot<ptxw::clc::cluster_t> slot;
    // AUTOMATIC_CLUSTER: error: static assertion failed with "ptxw: R9 target: clusterlaunchcontrol.try_cancel.multicast::cluster::all needs an arch- or family-specific target
    // AUTOMATIC_CLUSTER: at line [[#@LINE+2]] of
    // AUTOMATIC_CLUSTER: 1 error detected in the compilation of
    auto clc = ptxw::clc::open(slot, automatic);
    clc.request(clc.elect());
  }
#endif

#if defined(CASE_FOR_EACH_CLUSTER)
  // FOR_EACH_CLUSTER: error: static assertion failed with "ptxw: R9 target: clusterlaunchcontrol.try_cancel.multicast::cluster::all needs an arch- or family-specific target
  // FOR_EACH_CLUSTER: at line [[#@LINE+2]] of
  // FOR_EACH_CLUSTER: 1 error detected in the compilation of
  ptxw::for_each_canceled_cluster<1>(automatic, [&](dim3 block) { out[block.x] = 2.0f; });
#endif
}
