// What the clc R9 diagnostics compile beside the cases they refuse: one round of the low-level
// protocol that the target accepts. The refused calls stay in the test files, so that each error
// names the user's line. Not a test (lit skips Inputs/).
#pragma once

#include <ptxw/clc.h>

// open, request, wait, decode on a slot of Scope served by ctx: *out is the next block's x; false
// where the request canceled nothing.
template <class Scope, class Context>
__device__ bool clc_round(Context ctx, float* out)
{
  __shared__ ptxw::clc::slot<Scope> slot;
  auto clc = ptxw::clc::open(slot, ctx);
  clc.request(clc.elect());
  return clc.wait().decode([&](auto block) { *out = block.x(); });
}
