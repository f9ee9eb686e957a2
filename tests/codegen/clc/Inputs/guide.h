// The CUDA programming guide's work-stealing vector-scalar kernel (section 4.12.2) on ptxw's
// low-level API, for guide_thread_blocks.cu and guide_clusters.cu. ptxw's code is the same for a
// slot of either scope: of the guide's two listings, only the barrier that protects the result
// before each request differs (sync: __syncthreads for a CTA, the cluster barrier for a cluster).
// The twins are in those files, following each listing. Not a test (lit skips Inputs/).
#pragma once

#include <ptxw/clc.h>

#include "reference.h"

template <class Scope, class Sync>
__device__ inline void ptxw_guide(ptxw::clc::slot<Scope>& slot, ptxw::clc::context<ptxw::clc::hardware_t> ctx,
                                  float* data, int n, Sync sync)
{
  auto clc = ptxw::clc::open(slot, ctx);
  if (!clc.started())
  {
    return;
  }
  float alpha = compute_scalar();
  int bx      = blockIdx.x;
  while (true)
  {
    sync();
    clc.request(clc.elect()); // one lane of the first warp
    scale_block(data, n, alpha, bx);
    if (!clc.wait().decode([&](auto block) { bx = block.x(); }))
    {
      break;
    }
  }
}
