// ptxw::device::for_each_canceled's default kernel: a plain launch (steal false), one CTA per tile
// placed by the GPU's block scheduler. The kernel holds the walk and nothing of a scheduler: no
// request, no claim on a global or shared counter, no barrier -- the default's 16-26 registers fewer
// than the stealing kernel's come from there (docs/device.md). With shared rounds the claims come
// back, behind the one barrier that publishes the CTA's counter.
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

// The default policy's kernel: 256 threads, no shared rounds.
template __global__ void ptxw::device::detail::for_each_kernel<256, 1, 0 /* automatic */, 0, false, false, int, 1, mark>(
  ptxw::device::shape<1>, unsigned long long, int, int, bool, mark, ptxw::clc::context<ptxw::clc::automatic_t>);
// SASS-LABEL: Function : {{.*}}for_each_kernelILi256ELi1ELi0ELi0ELb0ELb0EiLi1E4mark
// SASS-NOT:   {{UGETNEXTWORKID|ATOMG|ATOMS|RED|BAR.SYNC|SYNCS}}
// SASS:       STG.E
// SASS-NOT:   {{UGETNEXTWORKID|ATOMG|ATOMS|RED|BAR.SYNC|SYNCS}}

// Shared rounds: one barrier before the walk, then the claims on the CTA's counter.
template __global__ void ptxw::device::detail::for_each_kernel<128, 1, 0 /* automatic */, 0, false, true, int, 1, mark>(
  ptxw::device::shape<1>, unsigned long long, int, int, bool, mark, ptxw::clc::context<ptxw::clc::automatic_t>);
// SASS-LABEL: Function : {{.*}}for_each_kernelILi128ELi1ELi0ELi0ELb0ELb1EiLi1E4mark
// SASS-NOT:   {{UGETNEXTWORKID|ATOMG|RED|SYNCS}}
// SASS:       BAR.SYNC
// SASS-NOT:   {{UGETNEXTWORKID|ATOMG|RED|SYNCS|BAR.SYNC}}
// SASS:       ATOMS.ADD
// SASS-NOT:   {{UGETNEXTWORKID|ATOMG|RED|SYNCS|BAR.SYNC}}
