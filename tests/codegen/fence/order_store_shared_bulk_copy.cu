// Ordering: st.shared, fence_before_async_read(space_shared), then cp.async.bulk shared->global
// reading what was stored. The fence must stay between the store and the copy.
// REQUIRES: fence-proxy-async
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <cuda/ptx> // the other instructions of the sequence (ptxw headers include only their own)
#include <ptxw/fence.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_store_shared_bulk_copy(int* out, int v)
{
  __shared__ alignas(16) int buf[4];
  buf[threadIdx.x % 4] = v;
  ptxw::fence_before_async_read(ptx::space_shared);
  ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out, buf, sizeof(buf));
}

extern "C" __global__ void ref_store_shared_bulk_copy(int* out, int v)
{
  __shared__ alignas(16) int buf[4];
  buf[threadIdx.x % 4] = v;
  ptx::fence_proxy_async(ptx::space_shared);
  ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out, buf, sizeof(buf));
}

// PTX-LABEL: .entry ptxw_store_shared_bulk_copy(
// PTX-NOT:   fence
// PTX:       st.shared.u32 [
// PTX-NOT:   {{[[:space:]](ld|st|cp)\.}}
// PTX:       fence.proxy.async.shared::cta;
// PTX-NOT:   {{[[:space:]](ld|st)\.}}
// PTX-NOT:   fence
// PTX:       cp.async.bulk.global.shared::cta.bulk_group [
// PTX-NOT:   fence
// PTX-LABEL: .entry ref_store_shared_bulk_copy(

// SASS-LABEL: Function : ptxw_store_shared_bulk_copy{{$}}
// SASS-NOT:   {{MEMBAR|FENCE|UBLKCP}}
// SASS:       STS [{{.+}}], R{{[0-9]+}} ;
// SASS-NOT:   {{MEMBAR|FENCE|UBLKCP|STS}}
// SASS:       MEMBAR.ALL.CTA ;
// SASS-NEXT:  FENCE.VIEW.ASYNC.S ;
// SASS-NOT:   {{MEMBAR|FENCE|STS}}
// SASS:       UBLKCP.G.S [UR{{[0-9]+}}], [UR{{[0-9]+}}], UR{{[0-9]+}} ;
// SASS-NOT:   {{MEMBAR|FENCE|STS|UBLKCP}}
// SASS:       EXIT ;
// SASS-LABEL: Function : ref_store_shared_bulk_copy{{$}}
