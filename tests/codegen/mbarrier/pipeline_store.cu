// R29 in ptxw::pipeline: generic writes into a stage that the async proxy reads are fenced before
// the hand-over, by the type -- a store producer whose consumers read through the async proxy
// (wgmma operands) fences each thread's stores before its arrival, and a TMA store out of a stage
// fences every consumer thread's writes, meets at a named barrier, copies from one thread and
// waits for the copy's reads before the release.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass

#include <ptxw/mbarrier.h>

#include <utility>

extern "C" __global__ void ptxw_store_producer(const int* values, int* out, int rounds)
{
  using pipe = ptxw::pipeline<2, ptxw::store_producer<32>, ptxw::consumer_warps<1, ptxw::reads_async>>;
  __shared__ pipe::storage st;
  __shared__ int tile[2][32];
  auto p = pipe::init(st);
  if (threadIdx.x < 32)
  {
    auto prod = p.producer();
    for (int r = 0; r < rounds; ++r)
    {
      auto s                       = prod.acquire();
      tile[s.index()][threadIdx.x] = values[r * 32 + threadIdx.x];
      prod.commit(std::move(s));
    }
  }
  else
  {
    auto cons = p.consumer();
    for (int r = 0; r < rounds; ++r)
    {
      auto s                               = cons.wait();
      out[r * 32 + threadIdx.x - 32] = tile[s.index()][threadIdx.x - 32];
      cons.release(std::move(s));
    }
  }
}

extern "C" __global__ void ptxw_tma_store(const int4* src, int4* dst, int rounds)
{
  using pipe = ptxw::pipeline<2, ptxw::bulk_producer, ptxw::consumer_warps<4>>;
  __shared__ pipe::storage st;
  __shared__ alignas(128) int4 tile[2][128];
  auto p = pipe::init(st);
  if (threadIdx.x >= 32)
  {
    auto cons = p.consumer();
    for (int r = 0; r < rounds; ++r)
    {
      auto s                             = cons.wait();
      tile[s.index()][threadIdx.x - 32].x += 1;
      cons.store(s, dst + r * 128, tile[s.index()], ptxw::tx_bytes{sizeof(tile[0])});
      cons.release(std::move(s));
    }
  }
}

// The store producer: each thread's st.shared, then the proxy fence, then its arrival.
// PTX-LABEL: .entry ptxw_store_producer(
// PTX:       mbarrier.try_wait.parity.acquire.cta.shared::cta.b64
// PTX:       st.shared.u32
// PTX:       fence.proxy.async.shared::cta;
// PTX-NOT:   st.shared
// PTX:       mbarrier.arrive.release.cta.shared::cta.b64
// SASS-LABEL: Function : ptxw_store_producer
// SASS:       STS [
// SASS-NEXT:  MEMBAR.ALL.CTA ;
// SASS-NEXT:  FENCE.VIEW.ASYNC.S ;
// SASS-NOT:   {{STS|LDS}}
// SASS:       SYNCS.ARRIVE.TRANS64.A1T0 RZ,

// The TMA store: st.shared, fence, named barrier 1 over the 128 consumer threads, the bulk copy
// from one thread, its commit and wait for the reads, then the warp's release.
// PTX-LABEL: .entry ptxw_tma_store(
// PTX:       st.shared.u32
// PTX:       fence.proxy.async.shared::cta;
// PTX-NOT:   st.shared
// PTX:       bar.sync {{%r[0-9]+|1}}, {{%r[0-9]+|128}};
// PTX:       cp.async.bulk.global.shared::cta.bulk_group
// PTX:       cp.async.bulk.commit_group;
// PTX:       cp.async.bulk.wait_group.read 0;
// PTX:       mbarrier.arrive.release.cta.shared::cta.b64
// SASS-LABEL: Function : ptxw_tma_store
// SASS:       STS [
// SASS-NEXT:  MEMBAR.ALL.CTA ;
// SASS-NEXT:  FENCE.VIEW.ASYNC.S ;
// SASS:       BAR.SYNC.DEFER_BLOCKING 0x1, 0x80 ;
// SASS:       UBLKCP.G.S
// SASS:       SYNCS.ARRIVE.TRANS64.A1T0 RZ,
