// clc.wait().decode(f) (CTA form, hardware): a try_wait.parity.acquire loop on the slot's barrier,
// one 16-byte read of the response (LDS.128), the release fence right after that read, then
// query_cancel on the value read. A decode that uses only x touches words 2 (is_canceled) and 0 (x):
// nothing of word 1, where y and z are.
// REQUIRES: clc
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/clc.h>

#include "Inputs/reference.h"

namespace ptx = cuda::ptx;

// open(), wait(), decode(f): what both ptxw_ kernels do, each with its own f.
template <class F>
__device__ __forceinline__ void wait_decode(ptxw::clc::context<ptxw::clc::hardware_t> ctx, F&& f)
{
  __shared__ ptxw::clc::slot<ptxw::clc::cta_t> slot;
  auto clc = ptxw::clc::open(slot, ctx);
  (void) clc.wait().decode(f);
}

// Their twin. open(): thread (0,0,0) initialises the barrier. wait(): acquire try_wait loop on
// parity 0, one 16-byte read, release fence (reference.h). decode(): is_canceled, then f's
// get_first_ctaid queries.
template <class F>
__device__ __forceinline__ void ref_wait_decode(F&& f)
{
  __shared__ clc_storage slot;
  ref_init(slot);
  int phase       = 0;
  const uint4 raw = ref_wait(slot, phase, ptx::scope_cta);
  if (ptx::clusterlaunchcontrol_query_cancel_is_canceled(raw))
  {
    f(raw);
  }
}

extern "C" __global__ void ptxw_wait_decode_x(unsigned* out, ptxw::clc::context<ptxw::clc::hardware_t> ctx)
{
  wait_decode(ctx, [&](auto block) { *out = block.x(); });
}

extern "C" __global__ void ref_wait_decode_x(unsigned* out, ptxw::clc::context<ptxw::clc::hardware_t> ctx)
{
  (void) ctx;
  ref_wait_decode([&](uint4 raw) { *out = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x<uint32_t>(raw); });
}

// The whole block index, for contrast: y is word 1 & 0xffff, z is word 1 >> 16.
extern "C" __global__ void ptxw_wait_decode_xyz(uint3* out, ptxw::clc::context<ptxw::clc::hardware_t> ctx)
{
  wait_decode(ctx, [&](auto block) { *out = block.ctaid(); });
}

extern "C" __global__ void ref_wait_decode_xyz(uint3* out, ptxw::clc::context<ptxw::clc::hardware_t> ctx)
{
  (void) ctx;
  ref_wait_decode([&](uint4 raw) {
    *out = {ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x<uint32_t>(raw),
            ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_y<uint32_t>(raw),
            ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_z<uint32_t>(raw)};
  });
}

// The retry branch goes back (its label is not after it): a loop around the try_wait.
// PTX-LABEL: .entry ptxw_wait_decode_x(
// PTX:       mbarrier.init.shared.b64
// PTX-NOT:   {{ld.shared|fence}}
// PTX:       mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 P_OUT, [%r{{[0-9]+}}], %r{{[0-9]+}};
// PTX-NOT:   {{ld.shared|fence}}
// PTX:       bra [[RETRY:\$L__BB[0-9_]+]];
// PTX-NOT:   {{ld.shared|fence|mbarrier}}
// PTX-COUNT-1: ld.shared.v2.u64 {[[LO:%rd[0-9]+]], [[HI:%rd[0-9]+]]}, [{{.*}}slot];
// PTX-NOT:   {{ld.shared|fence|mbarrier|clusterlaunchcontrol|st.global}}
// PTX:       fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;
// PTX-NOT:   {{ld.shared|fence|mbarrier|st.global}}
// PTX:       mov.b128 B128_try_cancel_response, {[[LO]], [[HI]]};
// PTX-NEXT:  {
// PTX-NEXT:  .reg .pred P_OUT;
// PTX-NEXT:  clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 P_OUT, B128_try_cancel_response;
// PTX-NOT:   {{ld.shared|fence|mbarrier|get_first_ctaid::[yz]}}
// PTX:       mov.b128 B128_try_cancel_response, {[[LO]], [[HI]]};
// PTX-NEXT:  clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128 [[X:%r[0-9]+]], B128_try_cancel_response;
// PTX-NOT:   {{ld.shared|fence|mbarrier|get_first_ctaid::[yz]}}
// PTX:       st.global.u32 [%rd{{[0-9]+}}], [[X]];
// PTX-NOT:   {{ld.shared|fence|mbarrier|get_first_ctaid::[yz]}}
// PTX-NOT:   [[RETRY]]:
// PTX-LABEL: .entry ref_wait_decode_x(
// PTX-LABEL: .entry ptxw_wait_decode_xyz(
// PTX-COUNT-1: ld.shared.v2.u64
// PTX-NOT:   ld.shared
// PTX:       clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128
// PTX:       clusterlaunchcontrol.query_cancel.get_first_ctaid::y.b32.b128
// PTX:       clusterlaunchcontrol.query_cancel.get_first_ctaid::z.b32.b128
// PTX-LABEL: .entry ref_wait_decode_xyz(

// The wait is a try_wait loop (the retry out of line), then one LDS.128 of the slot and the
// release fence (MEMBAR.ALL.CTA; FENCE.VIEW.ASYNC.S). query_cancel has no SASS of its own:
// is_canceled tests bit 0 of word 2 and x is word 0. With x alone, word 1 is not touched: no
// "& 0xffff" for y, no ">> 16" for z.
// SASS-LABEL: Function : ptxw_wait_decode_x{{$}}
// SASS:       SYNCS.EXCH.64 URZ, [UR[[S:[0-9]+]]+0x10], UR{{[0-9]+}} ;
// SASS-NOT:   LDS
// SASS:       SYNCS.PHASECHK.TRANS64.TRYWAIT P[[P:[0-9]]], [UR[[S]]+0x10], R[[PAR:[0-9]+]] ;
// SASS-NEXT:  @!P[[P]] BRA 0x{{[0-9a-f]+}} ;
// SASS-NEXT:  LDS.128 R[[#W:]], [UR[[S]]] ;
// SASS-NEXT:  MEMBAR.ALL.CTA ;
// SASS-NEXT:  FENCE.VIEW.ASYNC.S ;
// SASS-NEXT:  LOP3.LUT P[[C:[0-9]]], RZ, R[[#W+2]], 0x1, RZ, 0xc0, !PT ;
// SASS-NEXT:  @!P[[C]] EXIT ;
// SASS-NOT:   {{LDS|SHF.R.U32.HI|0xffff}}
// SASS:       MOV R[[X:[0-9]+]], R[[#W]] ;
// SASS-NEXT:  STG.E desc[UR{{[0-9]+}}][R{{[0-9]+}}.64], R[[X]] ;
// SASS-NEXT:  EXIT ;
// SASS-NEXT:  SYNCS.PHASECHK.TRANS64.TRYWAIT P[[P2:[0-9]]], [UR[[S]]+0x10], R[[PAR]] ;
// SASS-NEXT:  @!P[[P2]] BRA 0x{{[0-9a-f]+}} ;
// SASS-NEXT:  BRA 0x{{[0-9a-f]+}} ;
// SASS-NEXT:  Function : ref_wait_decode_x{{$}}

// The whole index: y = word 1 & 0xffff, z = word 1 >> 16 (the form the checks above exclude).
// SASS-LABEL: Function : ptxw_wait_decode_xyz{{$}}
// SASS-COUNT-1: LDS.128 R[[#W:]], [UR{{[0-9]+}}] ;
// SASS-NOT:   LDS
// SASS:       LOP3.LUT P{{[0-9]}}, RZ, R[[#W+2]], 0x1, RZ, 0xc0, !PT ;
// SASS-NOT:   LDS
// SASS-DAG:   MOV R{{[0-9]+}}, R[[#W]] ;
// SASS-DAG:   LOP3.LUT R{{[0-9]+}}, R[[#W+1]], 0xffff, RZ, 0xc0, !PT ;
// SASS-DAG:   SHF.R.U32.HI R{{[0-9]+}}, RZ, 0x10, R[[#W+1]] ;
// SASS-NOT:   LDS
// SASS-LABEL: Function : ref_wait_decode_xyz{{$}}
