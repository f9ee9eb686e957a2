// fence_after_mbarrier_init(): the protocol step after initialising cluster barriers (R7), which is
// fence.mbarrier_init.release.cluster.
// fence.mbarrier_init has no probe of its own; it has the same gate (sm_90, PTX ISA 8.0) as
// fence.proxy.async.
// REQUIRES: fence-mbarrier-init
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/fence.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_after_mbarrier_init()
{
  ptxw::fence_after_mbarrier_init();
}

extern "C" __global__ void ref_after_mbarrier_init()
{
  ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
}

// PTX-LABEL: .entry ptxw_after_mbarrier_init(
// PTX-NOT:   fence
// PTX:       fence.mbarrier_init.release.cluster;
// PTX-NOT:   fence
// PTX-LABEL: .entry ref_after_mbarrier_init(

// No fence in SASS (see mbarrier_init.cu): only the NOP it leaves, which the sync_restrict acquire
// fence leaves too; the PTX check is what pins the instruction.
// SASS-LABEL: Function : ptxw_after_mbarrier_init{{$}}
// SASS-NOT:   {{MEMBAR|FENCE}}
// SASS:       NOP ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_after_mbarrier_init{{$}}
