// R1: after a CTA observed a failed cancellation response it must not request again. decode()'s
// failure callback receives a ptxw::clc::exhausted<handle>, whose request() does not compile.
// Runs wherever the cluster launch control API compiles (the emulation from sm_90, the hardware
// from sm_100).
// REQUIRES: mbarrier-tx
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_EXHAUSTED_REQUEST %s 2>&1 | FileCheck %s --check-prefix=EXHAUSTED_REQUEST
// RUN: not %nvcc -ptx -o /dev/null -DCASE_EXHAUSTED_REQUEST_GENERIC %s 2>&1 | FileCheck %s --check-prefix=EXHAUSTED_REQUEST_GENERIC
//
// Each case must fail with exactly one error, the ptxw one. Without a CASE the file compiles: the
// failure callback may look at the exhausted handle and leave the loop.

#include <ptxw/clc.h>

__global__ void clc_r1_exhausted(unsigned* out, ptxw::clc::context<> ctx)
{
  __shared__ ptxw::clc::slot<ptxw::clc::cta_t> slot;
  auto clc = ptxw::clc::open(slot, ctx);
  if (!clc.started())
  {
    return;
  }
  while (true)
  {
    __syncthreads();
    clc.request(clc.elect());
    bool more = clc.wait().decode([&](auto block) { out[block.x()] = 1u; },
                                  [&](ptxw::clc::exhausted<decltype(clc)>& done) {
                                    (void) done;
                                    out[0] = 0u;
                                  });
    if (!more)
    {
      break;
    }
  }

#if defined(CASE_EXHAUSTED_REQUEST)
  // A typed failure callback: the error is reported at the request.
  (void) clc.wait().decode([&](auto block) { out[block.x()] = 2u; },
                    [&](ptxw::clc::exhausted<decltype(clc)>& done) {
                      if (ptxw::elected e = ptxw::elect_one())
                      {
                        // EXHAUSTED_REQUEST: clc_r1_exhausted.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R1 failed request: this CTA observed a failed cancellation response; another try_cancel is undefined behaviour"
                        // EXHAUSTED_REQUEST: 1 error detected in the compilation of
                        done.request(e);
                      }
                    });
#endif

#if defined(CASE_EXHAUSTED_REQUEST_GENERIC)
  // A generic failure callback (auto&) is instantiated inside decode(); the error is still at the
  // line of the request.
  // EXHAUSTED_REQUEST_GENERIC: clc_r1_exhausted.cu([[#@LINE+4]]): error: {{.*}} was declared unavailable ("ptxw: R1 failed request: this CTA observed a failed cancellation response; another try_cancel is undefined behaviour"
  // EXHAUSTED_REQUEST_GENERIC: 1 error detected in the compilation of
  (void) clc.wait().decode([&](auto block) { out[block.x()] = 3u; },
                    [&](auto& done) {
                      done.request(clc.elect());
                    });
#endif
}
