// mbarrier.expect_tx with a byte count from a kernel parameter (a register operand).
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_expect_tx_runtime(unsigned bytes)
{
  __shared__ ptxw::cta_barrier bar;
  bar.expect_tx(ptxw::tx_bytes{bytes});
}

extern "C" __global__ void ref_expect_tx_runtime(unsigned bytes)
{
  __shared__ uint64_t bar;
  ptx::mbarrier_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar, bytes);
}

// PTX-LABEL: .entry ptxw_expect_tx_runtime(
// PTX:       ld.param.u32 [[TX:%r[0-9]+]], [ptxw_expect_tx_runtime_param_0];
// PTX:       mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r{{[0-9]+}}], [[TX]];
// PTX-LABEL: .entry ref_expect_tx_runtime(

// SASS-LABEL: Function : ptxw_expect_tx_runtime
// SASS-NOT:   {{MEMBAR|SYNCS}}
// SASS:       LDC R[[TX:[0-9]+]], c[0x0][{{0x210|0x380}}] ;
// SASS-NOT:   {{MEMBAR|ERRBAR|SYNCS}}
// SASS:       SYNCS.ARRIVE.TRANS64.RED.A0TR RZ, [UR{{[0-9]+}}], R[[TX]] ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_expect_tx_runtime
