// fence.mbarrier_init.release.cluster, spelled with cuda::ptx tags.
// fence.mbarrier_init has no probe of its own; it has the same gate (sm_90, PTX ISA 8.0) as
// fence.proxy.async.
// REQUIRES: fence-mbarrier-init
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/fence.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_mbarrier_init_release_cluster()
{
  ptxw::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
}

extern "C" __global__ void ref_mbarrier_init_release_cluster()
{
  ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
}

// PTX-LABEL: .entry ptxw_mbarrier_init_release_cluster(
// PTX-NOT:   fence
// PTX:       fence.mbarrier_init.release.cluster;
// PTX-NOT:   fence
// PTX-LABEL: .entry ref_mbarrier_init_release_cluster(

// ptxas 13.0 emits no fence for it: no MEMBAR, no FENCE.VIEW, only a NOP where it stood (an empty
// kernel is LDC + EXIT). The PTX above is what shows the fence is there.
// SASS-LABEL: Function : ptxw_mbarrier_init_release_cluster{{$}}
// SASS-NOT:   {{MEMBAR|FENCE}}
// SASS:       NOP ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_mbarrier_init_release_cluster{{$}}
