// ptxw::device::for_each_canceled's default kernel: a plain launch (steal false), one CTA per tile
// placed by the GPU's block scheduler. The kernel holds the walk and nothing of a scheduler: no
// request, no claim on a global or shared counter, no barrier -- the registers the stealing kernel
// spends on them (docs/device.md). The walk is CUB's tile of two rows: each thread's second index
// is 256 past its first, so both stores share one address (the second at +0x400); a tile below n
// stores both with no test, the last tile tests each. With shared rounds the claims come back,
// behind the one barrier that publishes the CTA's counter.
// REQUIRES: target-sm_90a || target-sm_100a
// RUN: %ptxw-compile %s -o %t
// RUN: %sass-check %s --input-file=%t.sass

#include <ptxw/algorithms/for_each_canceled.h>

struct mark
{
  int* p;
  __device__ void operator()(int i) const
  {
    p[i] = 1;
  }
};

// The default policy's kernel: 256 threads, two rounds, no shared rounds. Two stores for each path
// (the full tile's and the tested one's, in either order), the second at the first's address + 0x400.
template __global__ void ptxw::device::detail::for_each_kernel<256, 2, 1, 0 /* automatic */, 0, false, false, int, 1,
                                                                mark>(
  ptxw::device::shape<1>, unsigned long long, int, int, bool, mark, ptxw::clc::context<ptxw::clc::automatic_t>);
// SASS-LABEL: Function : {{.*}}for_each_kernelILi256ELi2ELi1ELi0ELi0ELb0ELb0EiLi1E4mark
// SASS-NOT:   {{UGETNEXTWORKID|ATOMG|ATOMS|RED|BAR.SYNC|SYNCS|STG}}
// SASS:       STG.E desc[{{UR[0-9]+}}][R[[A:[0-9]+]].64],
// SASS-NOT:   {{UGETNEXTWORKID|ATOMG|ATOMS|RED|BAR.SYNC|SYNCS|STG}}
// SASS:       STG.E desc[{{UR[0-9]+}}][R[[A]].64+0x400],
// SASS-NOT:   {{UGETNEXTWORKID|ATOMG|ATOMS|RED|BAR.SYNC|SYNCS|STG}}
// SASS:       STG.E desc[{{UR[0-9]+}}][R[[A]].64],
// SASS-NOT:   {{UGETNEXTWORKID|ATOMG|ATOMS|RED|BAR.SYNC|SYNCS|STG}}
// SASS:       STG.E desc[{{UR[0-9]+}}][R[[A]].64+0x400],
// SASS-NOT:   {{UGETNEXTWORKID|ATOMG|ATOMS|RED|BAR.SYNC|SYNCS|STG}}
// SASS:       EXIT

// Shared rounds: one barrier before the walk, then the claims on the CTA's counter.
template __global__ void ptxw::device::detail::for_each_kernel<128, 0, 1, 0 /* automatic */, 0, false, true, int, 1,
                                                                mark>(
  ptxw::device::shape<1>, unsigned long long, int, int, bool, mark, ptxw::clc::context<ptxw::clc::automatic_t>);
// SASS-LABEL: Function : {{.*}}for_each_kernelILi128ELi0ELi1ELi0ELi0ELb0ELb1EiLi1E4mark
// SASS-NOT:   {{UGETNEXTWORKID|ATOMG|RED|SYNCS}}
// SASS:       BAR.SYNC
// SASS-NOT:   {{UGETNEXTWORKID|ATOMG|RED|SYNCS|BAR.SYNC}}
// SASS:       ATOMS.ADD
// SASS-NOT:   {{UGETNEXTWORKID|ATOMG|RED|SYNCS|BAR.SYNC}}
