// ptxw::device::for_each_canceled's kernel (default policy: 512 threads, tiles of up to 32 rounds) built
// for sm_100a, where the automatic scheduler is the hardware's: one try_cancel per tile
// (one UGETNEXTWORKID, from the lane elect.sync picks: no BRA.U.ANY waterfall), and inside the
// tile a walk per thread that nothing synchronises across the warp (no shared-memory claims, no
// shuffles, no vote): op's stores are the loop's only memory accesses.
// REQUIRES: target-sm_100a
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass

#include <ptxw/device/for_each_canceled.h>

struct mark
{
  unsigned* p;
  __device__ void operator()(unsigned i) const
  {
    p[i] = 1;
  }
};

template __global__ void ptxw::device::detail::for_each_kernel<512, 1, ptxw::device::scheduler::automatic, unsigned, 1,
                                                                mark>(
  ptxw::device::shape<1>, unsigned long long, int, bool, mark, ptxw::clc::context<ptxw::clc::automatic_t>);

// PTX-LABEL: .entry {{.*}}for_each_kernel
// PTX-COUNT-1: clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128
// PTX-NOT:   {{clusterlaunchcontrol.try_cancel|atom.shared|shfl.sync|vote.sync}}
// PTX:       st.global.u32
// PTX-NOT:   {{clusterlaunchcontrol.try_cancel|atom.shared|shfl.sync|vote.sync}}
// PTX:       mbarrier.try_wait.parity

// SASS-LABEL: Function : {{.*}}for_each_kernel
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY}}
// SASS:       ELECT P[[E:[0-9]]], URZ, PT ;
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY}}
// SASS-COUNT-1: UGETNEXTWORKID.SELFCAST
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY|ATOMS|SHFL|VOTE|WARPSYNC|MATCH}}
// SASS:       STG.E
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY|ATOMS|SHFL|VOTE|WARPSYNC|MATCH}}
// SASS:       SYNCS.PHASECHK.TRANS64.TRYWAIT
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY}}
// SASS:       EXIT
