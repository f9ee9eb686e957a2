// Checked mode (PTXW_CHECKED=1): clc.wait() bounds its try_wait loop with %globaltimer and turns a
// wait that never completes into an R5/R6 report; the release build (NDEBUG, no PTXW_CHECKED) has
// neither the timer nor the bookkeeping atomics. No twin: checked mode is meant to cost.
// (The source goes after "--": "ptxw compile SRC -o OUT -- FLAGS" is rejected by its argument parser.)
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile -o %t.checked -- %s -DPTXW_CHECKED=1
// RUN: FileCheck %s --check-prefix=CHECKED --input-file=%t.checked.ptx
// RUN: FileCheck %s --check-prefix=CHECKED-SASS --input-file=%t.checked.sass
// RUN: %ptxw-compile -o %t.unchecked -- %s
// RUN: FileCheck %s --check-prefix=UNCHECKED --input-file=%t.unchecked.ptx
// RUN: FileCheck %s --check-prefix=UNCHECKED-SASS --input-file=%t.unchecked.sass

#include <ptxw/clc.h>

extern "C" __global__ void checked_wait(unsigned* out, ptxw::clc::context<> ctx)
{
  __shared__ ptxw::clc::slot<ptxw::clc::cta_t> slot;
  auto clc = ptxw::clc::open(slot, ctx);
  if (!clc.started())
  {
    return;
  }
  __syncthreads();
  clc.wait().decode([&](auto block) { *out = block.x(); });
}
