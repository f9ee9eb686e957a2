// Checked mode (PTXW_CHECKED=1): clc.wait() bounds its try_wait loop with %globaltimer and turns a
// wait that never completes into an R5/R6 report; the release build (NDEBUG, no PTXW_CHECKED) has
// neither the timer nor the bookkeeping atomics. No twin: checked mode is meant to cost.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t.checked -- -DPTXW_CHECKED=1
// RUN: FileCheck %s --check-prefix=CHECKED --input-file=%t.checked.ptx
// RUN: FileCheck %s --check-prefix=CHECKED-SASS --input-file=%t.checked.sass
// RUN: %ptxw-compile %s -o %t.unchecked
// RUN: FileCheck %s --check-prefix=UNCHECKED --input-file=%t.unchecked.ptx
// RUN: FileCheck %s --check-prefix=UNCHECKED-SASS --input-file=%t.unchecked.sass

#include <ptxw/clc.h>

extern "C" __global__ void checked_wait(unsigned* out, ptxw::clc::context<ptxw::clc::emulated_t> ctx)
{
  __shared__ ptxw::clc::slot<ptxw::clc::cta_t> slot;
  auto clc = ptxw::clc::open(slot, ctx);
  if (!clc.started())
  {
    return;
  }
  __syncthreads();
  (void) clc.wait().decode([&](auto block) { *out = block.x(); });
}

// Checked: a first try_wait, then a loop that reads %globaltimer against the sink's timeout; the
// response is still one 16-byte read in PTX, released at once; the bookkeeping counts the release.
// (In SASS the read is not always LDS.128: with the emulation on sm_90a ptxas narrows it to 32-bit
// loads of the words decoded -- generic LD.E in checked mode -- so the SASS checks stop at the timer
// and the release fence.)
// CHECKED-LABEL: .entry checked_wait(
// CHECKED:       mbarrier.try_wait.parity.acquire.cta.shared::cta.b64
// CHECKED-NOT:   ld.shared.v
// CHECKED:       mov.u64 %rd{{[0-9]+}}, %globaltimer;
// CHECKED-NOT:   ld.shared.v
// CHECKED:       mbarrier.try_wait.parity.acquire.cta.shared::cta.b64
// CHECKED-NOT:   ld.shared.v
// CHECKED:       mov.u64 %rd{{[0-9]+}}, %globaltimer;
// CHECKED-NOT:   ld.shared.v
// CHECKED-COUNT-1: {{ld(.shared)?.v(4.u32|2.u64)}}
// CHECKED-NOT:   {{ld.shared.v|atom|mbarrier}}
// CHECKED:       fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;
// CHECKED-NOT:   ld.shared.v
// CHECKED:       {{atom(.shared)?.add.u32}}
// CHECKED-NOT:   ld.shared.v

// CHECKED-SASS-LABEL: Function : checked_wait
// CHECKED-SASS:       SYNCS.PHASECHK.TRANS64.TRYWAIT
// CHECKED-SASS:       {{CS2U?R}} {{U?}}R{{[0-9]+}}, SR_GLOBALTIMERLO ;
// CHECKED-SASS:       SYNCS.PHASECHK.TRANS64.TRYWAIT
// CHECKED-SASS:       {{CS2U?R}} {{U?}}R{{[0-9]+}}, SR_GLOBALTIMERLO ;
// CHECKED-SASS:       SYNCS.PHASECHK.TRANS64.TRYWAIT
// CHECKED-SASS:       MEMBAR.ALL.CTA ;
// CHECKED-SASS-NEXT:  FENCE.VIEW.ASYNC.S ;

// Unchecked: the plain try_wait loop, no timer, no bookkeeping in shared memory.
// UNCHECKED-LABEL: .entry checked_wait(
// UNCHECKED-NOT:   {{globaltimer|atom.shared}}
// UNCHECKED:       mbarrier.try_wait.parity.acquire.cta.shared::cta.b64
// UNCHECKED-NOT:   {{globaltimer|atom.shared|mbarrier.try_wait}}
// UNCHECKED-COUNT-1: {{ld.shared.v(4.u32|2.u64)}}
// UNCHECKED-NOT:   {{globaltimer|atom.shared|ld.shared.v}}
// UNCHECKED:       fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;
// UNCHECKED-NOT:   {{globaltimer|atom.shared|ld.shared.v}}

// UNCHECKED-SASS-LABEL: Function : checked_wait
// UNCHECKED-SASS-NOT:   {{GLOBALTIMER|ATOMS}}
// UNCHECKED-SASS:       SYNCS.PHASECHK.TRANS64.TRYWAIT
// UNCHECKED-SASS-NOT:   {{GLOBALTIMER|ATOMS}}
// UNCHECKED-SASS:       MEMBAR.ALL.CTA ;
// UNCHECKED-SASS-NEXT:  FENCE.VIEW.ASYNC.S ;
// UNCHECKED-SASS-NOT:   {{GLOBALTIMER|ATOMS}}
