// A user's checks written where the kernel is: the default arrive is one SYNCS arrive, no fence.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
#include "consumer_scope.h"

extern "C" __global__ void signal_ready()
{
  __shared__ ptxw::cta_barrier bar;
  consumer_signal(bar);
}

// PTX-LABEL: .entry signal_ready(
// PTX:       mbarrier.arrive.release.cta.shared::cta.b64
// SASS-LABEL: Function : signal_ready
// SASS-NOT:   MEMBAR
// SASS:       SYNCS.ARRIVE.TRANS64.A1T0
