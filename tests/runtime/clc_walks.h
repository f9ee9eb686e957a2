// The two ways a test kernel walks the blocks of a work-stealing launch: typed requests (open,
// request from the elected submitter, work, wait, decode) and for_each_canceled_block. Each block is
// handed to the test's Visit, `visit(block, own)` (own: the CTA's own blockIdx), by every thread.
#pragma once

#include <ptxw/ptxw.h>

namespace ptxw_test {

template <class Backend, class Visit>
__global__ void typed_walk(Visit visit, ptxw::clc::context<Backend> ctx)
{
  __shared__ ptxw::clc::slot<ptxw::clc::cta_t> slot;
  auto h = ptxw::clc::open(slot, ctx);
  if (!h.started())
  {
    return;
  }
  unsigned block = blockIdx.x;
  bool own       = true;
  while (true)
  {
    __syncthreads();
    h.request(h.elect());
    visit(block, own);
    own = false;
    if (!h.wait().decode([&](auto b) { block = b.x(); }))
    {
      break;
    }
  }
}

template <class Backend, class Visit>
__global__ void looped_walk(Visit visit, ptxw::clc::context<Backend> ctx)
{
  ptxw::for_each_canceled_block<1>(ctx, [&](dim3 b) { visit(b.x, b.x == blockIdx.x); });
}

} // namespace ptxw_test
