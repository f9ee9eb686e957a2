// R2: a block index exists only inside decode()'s success callback. Asking the failure callback's
// ptxw::clc::exhausted for one fails with ptxw's R2 message; a ptxw::clc::canceled_block cannot be
// made by hand (its constructor is private: the compiler's own error).
// REQUIRES: mbarrier-tx
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_EXHAUSTED_INDEX -DCASE_EXHAUSTED_INDEX_GENERIC \
// RUN:  -DCASE_CANCELED_BLOCK %s 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=EXHAUSTED_INDEX,EXHAUSTED_INDEX_GENERIC,CANCELED_BLOCK,CASES
// The cases compile together, once: each is one error at its line (-DAG checks: nvcc reports
// template instantiation errors at the end of the translation unit, out of source order), and
// the total is the number of cases (the last line).
//
// Without a CASE the file compiles: the index is read in the success callback.

#include <ptxw/clc.h>

__global__ void clc_r2_decode(unsigned* out, ptxw::clc::context<> ctx)
{
  __shared__ ptxw::clc::slot<ptxw::clc::cta_t> slot;
  auto clc = ptxw::clc::open(slot, ctx);
  if (!clc.started())
  {
    return;
  }
  (void) clc.wait().decode([&](auto block) { out[0] = block.ctaid().x + block.first_ctaid().y; });

#if defined(CASE_EXHAUSTED_INDEX)
  (void) clc.wait().decode([&](auto block) { out[1] = block.x(); },
                    [&](ptxw::clc::exhausted<decltype(clc)>& done) {
                      // EXHAUSTED_INDEX-DAG: clc_r2_decode.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R2 no decode of failure:
                      out[2] = done.ctaid().x;
                    });
#endif

#if defined(CASE_EXHAUSTED_INDEX_GENERIC)
  // With a generic callback, instantiated inside decode(), the error is still at the user's line.
  // EXHAUSTED_INDEX_GENERIC-DAG: clc_r2_decode.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R2 no decode of failure:
  (void) clc.wait().decode([&](auto block) { out[1] = block.x(); },
                    [&](auto& done) { out[2] = done.first_ctaid().x; });
#endif

#if defined(CASE_CANCELED_BLOCK)
  // CANCELED_BLOCK-DAG: clc_r2_decode.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R2 no decode of failure: a ptxw::clc::canceled_block comes only from response.decode(), inside its success callback")
  ptxw::clc::canceled_block<ptxw::clc::cta_t> made_up(uint3{0u, 0u, 0u});
  out[3] = made_up.x();
#endif
}

// CASES: 3 errors detected in the compilation of
