// A bulk copy global->shared issued by one elected lane after arrive_expect_tx on the barrier it completes (UBLKCP.S.G).
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <cuda/ptx> // cp_async_bulk: ptxw/mbarrier.h brings in only the mbarrier families of cuda::ptx
#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

// elect.sync (cuda::ptx in CCCL 3.0.1 has no binding for it): true in exactly one lane of the warp.
__device__ inline bool elect_one_lane()
{
  uint32_t elected;
  asm volatile("{\n\t.reg .pred P;\n\telect.sync _|P, 0xffffffff;\n\tselp.b32 %0, 1, 0, P;\n}" : "=r"(elected));
  return elected != 0;
}

extern "C" __global__ void ptxw_bulk_copy(const int4* src)
{
  __shared__ alignas(128) int4 buf[64];
  __shared__ ptxw::cta_barrier bar;
  if (elect_one_lane())
  {
    bar.arrive_expect_tx(ptxw::tx_bytes{sizeof(buf)});
    ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, buf, src, sizeof(buf), bar.native_handle());
  }
}

extern "C" __global__ void ref_bulk_copy(const int4* src)
{
  __shared__ alignas(128) int4 buf[64];
  __shared__ uint64_t bar;
  if (elect_one_lane())
  {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(buf));
    ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, buf, src, sizeof(buf), &bar);
  }
}

// PTX-LABEL: .entry ptxw_bulk_copy(
// PTX:       elect.sync
// PTX:       mov.{{[bu]}}32 [[TX:%r[0-9]+]], 1024;
// PTX:       mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %rd{{[0-9]+}}, {{\[}}[[BAR:%r[0-9]+]]], [[TX]];
// PTX:       cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%r{{[0-9]+}}], [%rd{{[0-9]+}}], [[TX]], {{\[}}[[BAR]]];
// PTX-LABEL: .entry ref_bulk_copy(

// One elected lane: a single SYNCS.ARRIVE and UBLKCP, no ELECT/BRA.U.ANY waterfall around the copy
// (ptxas adds one when the same code sits under threadIdx.x == 0 instead).
// SASS-LABEL: Function : ptxw_bulk_copy
// SASS:       ELECT P[[E:[0-9]]], URZ, PT ;
// SASS-NEXT:  @!P[[E]] EXIT ;
// SASS-NOT:   {{ELECT|BRA|MEMBAR|SYNCS}}
// SASS:       SYNCS.ARRIVE.TRANS64 RZ, [UR{{[0-9]+}}], R{{[0-9]+}} ;
// SASS-NEXT:  UBLKCP.S.G [UR{{[0-9]+}}], [UR{{[0-9]+}}], UR{{[0-9]+}} ;
// SASS-NEXT:  EXIT ;
// SASS-LABEL: Function : ref_bulk_copy
