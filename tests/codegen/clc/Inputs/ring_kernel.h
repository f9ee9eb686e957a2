// The warp-specialised kernel of the ring tests (ring.cu, ring_cluster.cu): warp 0 schedules, warps
// 1-3 are the consumer roles; each role's lane 0 records the blocks it ran. Not a test (lit skips
// Inputs/).
#pragma once

#include <ptxw/clc.h>

inline constexpr unsigned kRoles = 3;

template <unsigned Depth, class Receivers = ptxw::clc::cta_t, class Backend>
__device__ void ring_kernel(unsigned* out, const ptxw::clc::context<Backend>& ctx)
{
  __shared__ ptxw::clc::ring<Depth, kRoles, Receivers> ring;
  auto r = ptxw::clc::open(ring, ctx);
  if (!r.started())
  {
    return;
  }
  const unsigned warp = threadIdx.x / 32;
  if (warp == 0)
  {
    r.scheduler().run(r.elect());
    return;
  }
  r.consumer(warp - 1).for_each([&](dim3 b) {
    if (threadIdx.x % 32 == 0)
    {
      out[b.x * kRoles + warp - 1] = b.x;
    }
  });
}
