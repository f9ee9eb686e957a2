// ptxw::device::for_each_canceled's kernel (default policy: 256 threads, tiles of 16 rounds) built
// for sm_100a, where the automatic scheduler is the hardware's: one try_cancel per tile
// (one UGETNEXTWORKID, from the lane elect.sync picks: no BRA.U.ANY waterfall), and the warps'
// chunk claims from shared memory (ATOMS.ADD) inside the tile.
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

template __global__ void ptxw::device::detail::for_each_kernel<256, 16, 1, ptxw::device::scheduler::automatic,
                                                                unsigned, 1, mark>(
  ptxw::device::shape<1>, unsigned long long, mark, ptxw::clc::context<ptxw::clc::automatic_t>);

// PTX-LABEL: .entry {{.*}}for_each_kernel
// PTX-COUNT-1: clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128
// PTX-NOT:   clusterlaunchcontrol.try_cancel
// PTX:       atom.shared.add.u32

// SASS-LABEL: Function : {{.*}}for_each_kernel
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY}}
// SASS:       ELECT P[[E:[0-9]]], URZ, PT ;
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY}}
// SASS-COUNT-1: UGETNEXTWORKID.SELFCAST
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY}}
// SASS:       ATOMS.ADD
// SASS-NOT:   {{UGETNEXTWORKID|BRA.U.ANY}}
// SASS:       EXIT
