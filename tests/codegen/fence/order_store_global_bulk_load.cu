// Ordering: st.global, fence_before_async_read(space_global), then cp.async.bulk global->shared::cta
// reading what was stored. Only the global view fence, between the store and the copy.
// REQUIRES: fence-proxy-async
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <cuda/ptx> // the other instructions of the sequence (ptxw headers include only their own)
#include <ptxw/fence.h>
#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_store_global_bulk_load(int4* buf, int v)
{
  __shared__ alignas(16) int4 dst;
  __shared__ ptxw::cta_barrier bar;
  buf[0] = make_int4(v, v, v, v);
  ptxw::fence_before_async_read(ptx::space_global);
  ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, &dst, buf, sizeof(dst), bar.native_handle());
}

extern "C" __global__ void ref_store_global_bulk_load(int4* buf, int v)
{
  __shared__ alignas(16) int4 dst;
  __shared__ uint64_t bar;
  buf[0] = make_int4(v, v, v, v);
  ptx::fence_proxy_async(ptx::space_global);
  ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, &dst, buf, sizeof(dst), &bar);
}

// PTX-LABEL: .entry ptxw_store_global_bulk_load(
// PTX-NOT:   fence
// PTX:       st.global.v4.u32 [
// PTX-NOT:   {{[[:space:]](ld|st|cp)\.}}
// PTX:       fence.proxy.async.global;
// PTX-NOT:   {{[[:space:]](ld|st)\.}}
// PTX-NOT:   fence
// PTX:       cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [
// PTX-NOT:   fence
// PTX-LABEL: .entry ref_store_global_bulk_load(

// The copy with an mbarrier, issued by every thread, is an ELECT ... BRA.U.ANY loop around UBLKCP.
// (A .shared::cluster destination would add, on sm_12x, a run-time check for a remote CTA and a
// CALL; the .shared::cta form keeps that out of the listing.)
// SASS-LABEL: Function : ptxw_store_global_bulk_load{{$}}
// SASS-NOT:   {{MEMBAR|FENCE|UBLKCP}}
// SASS:       STG.E.128 desc[UR{{[0-9]+}}][R{{[0-9]+}}.64], R{{[0-9]+}} ;
// SASS-NOT:   {{MEMBAR|FENCE|UBLKCP|STG}}
// SASS:       FENCE.VIEW.ASYNC.G ;
// SASS-NOT:   {{MEMBAR|FENCE|STG}}
// SASS:       UBLKCP.S.G [UR{{[0-9]+}}], [UR{{[0-9]+}}], UR{{[0-9]+}} ;
// SASS-NOT:   {{MEMBAR|FENCE|STG|UBLKCP}}
// SASS:       EXIT ;
// SASS-LABEL: Function : ref_store_global_bulk_load{{$}}
