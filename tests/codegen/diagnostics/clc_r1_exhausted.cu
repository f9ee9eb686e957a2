// R1: after a CTA observed a failed cancellation response it must not request again. decode()'s
// failure callback receives a ptxw::clc::exhausted<handle>, whose request() does not compile.
// Runs wherever the cluster launch control API compiles (the emulation from sm_90, the hardware
// from sm_100).
// REQUIRES: mbarrier-tx
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_EXHAUSTED_REQUEST -DCASE_EXHAUSTED_REQUEST_GENERIC %s 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=EXHAUSTED_REQUEST,EXHAUSTED_REQUEST_GENERIC,CASES
// The cases compile together, once: each is one error at its line (-DAG checks: nvcc reports
// template instantiation errors at the end of the translation unit, out of source order), and
// the total is the number of cases (the last line).
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
                        // EXHAUSTED_REQUEST-DAG: clc_r1_exhausted.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R1 failed request: this CTA observed a failed cancellation response; another try_cancel is undefined behaviour"
                        done.request(e);
                      }
                    });
#endif

#if defined(CASE_EXHAUSTED_REQUEST_GENERIC)
  // A generic failure callback (auto&) is instantiated inside decode(); the error is still at the
  // line of the request.
  // EXHAUSTED_REQUEST_GENERIC-DAG: clc_r1_exhausted.cu([[#@LINE+3]]): error: {{.*}} was declared unavailable ("ptxw: R1 failed request: this CTA observed a failed cancellation response; another try_cancel is undefined behaviour"
  (void) clc.wait().decode([&](auto block) { out[block.x()] = 3u; },
                    [&](auto& done) {
                      done.request(clc.elect());
                    });
#endif
}

// CASES: 2 errors detected in the compilation of
