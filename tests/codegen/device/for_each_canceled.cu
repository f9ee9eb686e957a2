// ptxw::device::for_each_canceled's stealing kernel (512 threads) built for sm_100a,
// where the automatic scheduler is the hardware's: one try_cancel per tile (one UGETNEXTWORKID,
// from the lane elect.sync picks: no BRA.U.ANY waterfall). Inside the tile, first a walk per
// thread with no shared-memory claim, shuffle or vote: op's store is its only memory access. Then
// the shared rounds, claimed on a shared-memory counter (ATOMS.ADD; ptxas aggregates the active
// lanes of a warp with VOTEU.ANY and SHFL.IDX) with nothing that gathers the warp or the CTA (no
// WARPSYNC, MATCH or BAR.SYNC) before the response's wait.
// REQUIRES: target-sm_100a
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass

#include <ptxw/algorithms/for_each_canceled.h>

struct mark
{
  unsigned* p;
  __device__ void operator()(unsigned i) const
  {
    p[i] = 1;
  }
};

template __global__ void ptxw::device::detail::for_each_kernel<512, 0, 1, 0 /* automatic */, 0, true, true, unsigned,
                                                                1, mark>(
  ptxw::device::shape<1>, unsigned long long, int, int, bool, mark, ptxw::clc::context<ptxw::clc::automatic_t>);

// PTX-LABEL: .entry {{.*}}for_each_kernel
// PTX-COUNT-1: clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128
// PTX-NOT:   {{clusterlaunchcontrol.try_cancel|atom.shared|shfl.sync|vote.sync|bar.sync}}
// PTX:       st.global.u32
// PTX-NOT:   {{clusterlaunchcontrol.try_cancel|shfl.sync|vote.sync|bar.sync}}
// PTX:       atom.shared.add.u32
// PTX-NOT:   {{clusterlaunchcontrol.try_cancel|shfl.sync|vote.sync|bar.sync}}
// PTX:       st.global.u32
// PTX-NOT:   {{clusterlaunchcontrol.try_cancel|shfl.sync|vote.sync|bar.sync}}
// PTX:       mbarrier.try_wait.parity

// SASS-LABEL: Function : {{.*}}for_each_kernel
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY}}
// SASS:       ELECT P[[E:[0-9]]], URZ, PT ;
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY}}
// SASS-COUNT-1: UGETNEXTWORKID.SELFCAST
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY|ATOMS|SHFL|VOTE|WARPSYNC|MATCH|BAR.SYNC}}
// SASS:       STG.E
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY|WARPSYNC|MATCH|BAR.SYNC}}
// SASS:       ATOMS.ADD
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY|WARPSYNC|MATCH|BAR.SYNC}}
// SASS:       STG.E
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY|WARPSYNC|MATCH|BAR.SYNC}}
// SASS:       SYNCS.PHASECHK.TRANS64.TRYWAIT
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY}}
// SASS:       EXIT
