// Multicast cluster launch control: where ptxas has it (REQUIRES), and only on the arch-specific
// Blackwell target of this suite (UNSUPPORTED on sm_90a, where the feature check alone would already skip it).
// REQUIRES: clc-multicast
// UNSUPPORTED: target-sm_90a
// RUN: %ptxw-compile %s -o %t
// RUN: %sass-check %s --input-file=%t.sass
#include <cuda/ptx>
#include <cstdint>

extern "C" __global__ void request()
{
  __shared__ alignas(16) uint4 response;
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    cuda::ptx::clusterlaunchcontrol_try_cancel_multicast(&response, &bar);
}

// SASS-LABEL: Function : request
// SASS:       UGETNEXTWORKID.BROADCAST
