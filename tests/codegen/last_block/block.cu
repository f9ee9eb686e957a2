// ptxw::last_block(ticket): a CTA barrier (every thread's partial before the ticket), the leader's
// atom.release.gpu on the ticket, in the block that drew the last ticket fence.acq_rel.gpu (the
// acquire) and a plain store that sets the ticket back to 0, then bar.red.or to tell the block. No
// MEMBAR.SC (what __threadfence() costs) and no relaxed atomic. A grid of one block takes no ticket.
// SASS as the hand-written guard: the types cost nothing.
// REQUIRES: target-sm_90a || target-sm_100a || target-sm_120a
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/inter_block.h>

// What a ticket is, in plain types: the state's first word is the count.
struct raw_ticket
{
  unsigned* arrived;
  const void* sink;
};

extern "C" __global__ void ptxw_last_block_sum(const int* in, long long* partials, long long* out,
                                               ptxw::last_block_ticket<> ticket)
{
  const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  if (threadIdx.x == 0)
  {
    partials[block] = in[block];
  }
  if (ptxw::last_block(ticket) && threadIdx.x == 0)
  {
    long long sum = 0;
    for (unsigned i = 0; i < gridDim.x * gridDim.y * gridDim.z; ++i)
    {
      sum += partials[i];
    }
    *out = sum;
  }
}

__device__ bool ref_last_block(raw_ticket t)
{
  const unsigned long long blocks = static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z;
  if (blocks == 1)
  {
    __syncthreads();
    return true;
  }
  __syncthreads();
  bool last = false;
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
  {
    unsigned ticket;
    asm volatile("atom.release.gpu.global.add.u32 %0, [%1], %2;" : "=r"(ticket) : "l"(t.arrived), "r"(1u) : "memory");
    last = ticket == static_cast<unsigned>(blocks - 1);
    if (last)
    {
      asm volatile("fence.acq_rel.gpu;" ::: "memory");
      *t.arrived = 0;
    }
  }
  return __syncthreads_or(last) != 0;
}

extern "C" __global__ void ref_last_block_sum(const int* in, long long* partials, long long* out, raw_ticket ticket)
{
  const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  if (threadIdx.x == 0)
  {
    partials[block] = in[block];
  }
  if (ref_last_block(ticket) && threadIdx.x == 0)
  {
    long long sum = 0;
    for (unsigned i = 0; i < gridDim.x * gridDim.y * gridDim.z; ++i)
    {
      sum += partials[i];
    }
    *out = sum;
  }
}

// A 64-bit ticket: the same with atom...add.u64.
extern "C" __global__ void ptxw_last_block_u64(long long* partials, ptxw::last_block_ticket<unsigned long long> ticket)
{
  if (threadIdx.x == 0)
  {
    partials[blockIdx.x] = blockIdx.x;
  }
  if (ptxw::last_block(ticket) && threadIdx.x == 0)
  {
    partials[gridDim.x] = partials[0];
  }
}

extern "C" __global__ void ref_last_block_u64(long long* partials, raw_ticket ticket)
{
  if (threadIdx.x == 0)
  {
    partials[blockIdx.x] = blockIdx.x;
  }
  const unsigned long long blocks = static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z;
  bool last                       = false;
  if (blocks == 1)
  {
    __syncthreads();
    last = true;
  }
  else
  {
    __syncthreads();
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
    {
      auto* count = reinterpret_cast<unsigned long long*>(ticket.arrived);
      unsigned long long t;
      asm volatile("atom.release.gpu.global.add.u64 %0, [%1], %2;" : "=l"(t) : "l"(count), "l"(1ull) : "memory");
      last = t == blocks - 1;
      if (last)
      {
        asm volatile("fence.acq_rel.gpu;" ::: "memory");
        *count = 0;
      }
    }
    last = __syncthreads_or(last) != 0;
  }
  if (last && threadIdx.x == 0)
  {
    partials[gridDim.x] = partials[0];
  }
}

// The partial's store, the block's barrier, then the ticket: release, gpu scope, u32; the last one
// acquires with fence.acq_rel.gpu and stores 0 into the ticket; bar.red.or tells the block.
// PTX-LABEL: .entry ptxw_last_block_sum(
// PTX:       st.global.u64
// PTX-NOT:   {{atom|fence|membar|bar\.}}
// PTX:       bar.sync 0;
// PTX-NOT:   {{atom|fence|membar|st.global}}
// PTX:       atom.release.gpu.global.add.u32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// PTX-NOT:   {{atom|membar|bar\.|st.global}}
// PTX:       fence.acq_rel.gpu;
// PTX-NEXT:  // end inline asm
// PTX-NOT:   {{atom|fence|membar|bar\.}}
// PTX:       st.global.u32 [%rd{{[0-9]+}}], %r{{[0-9]+}};
// PTX-NOT:   {{atom|fence|membar}}
// PTX:       bar.red.or.pred
// PTX-NOT:   {{atom|fence|membar|bar\.}}
// PTX-LABEL: .entry ref_last_block_sum(

// PTX-LABEL: .entry ptxw_last_block_u64(
// PTX:       atom.release.gpu.global.add.u64 %rd{{[0-9]+}}, [%rd{{[0-9]+}}], %rd{{[0-9]+}};
// PTX:       fence.acq_rel.gpu;
// PTX:       st.global.u64 [%rd{{[0-9]+}}], %rd{{[0-9]+}};
// PTX-LABEL: .entry ref_last_block_u64(

// In the SASS, MEMBAR.ALL.GPU (the release; never MEMBAR.SC, what __threadfence() costs) right before the
// ATOMG, and in the last block MEMBAR.ALL.GPU + CCTL.IVALL (the acquire: L1 lines dropped) before
// the reset. One ATOMG per block, one barrier before it, one BAR.RED after it.
// SASS-LABEL: Function : ptxw_last_block_sum
// SASS-NOT:   {{MEMBAR|ATOMG|CCTL}}
// SASS:       STG.E.64
// SASS-NOT:   {{MEMBAR|ATOMG|CCTL}}
// SASS:       BAR.SYNC.DEFER_BLOCKING 0x0 ;
// SASS-NOT:   {{MEMBAR|ATOMG|CCTL|BAR.RED}}
// SASS:       {{(@P[0-9] )?}}MEMBAR.ALL.GPU ;
// SASS-NEXT:  {{(@P[0-9] )?}}ERRBAR ;
// SASS-NEXT:  {{(@P[0-9] )?}}CGAERRBAR ;
// SASS-NEXT:  {{(@P[0-9] )?}}ATOMG.E.ADD.STRONG.GPU PT, R{{[0-9]+}}, desc[UR{{[0-9]+}}][R[[TICKET:[0-9]+]].64], R{{[0-9]+}} ;
// SASS-NOT:   {{ATOMG|BAR|CCTL}}
// SASS:       MEMBAR.ALL.GPU ;
// SASS-NEXT:  ERRBAR ;
// SASS-NEXT:  CGAERRBAR ;
// SASS-NEXT:  CCTL.IVALL ;
// SASS-NEXT:  STG.E desc[UR{{[0-9]+}}][R[[TICKET]].64], RZ ;
// SASS-NOT:   {{MEMBAR|ATOMG|CCTL}}
// SASS:       BAR.RED.OR.DEFER_BLOCKING 0x0, P{{[0-9]}} ;
// SASS-NOT:   {{MEMBAR|ATOMG|CCTL|BAR.RED}}
// SASS-LABEL: Function : ref_last_block_sum
// SASS-NOT:   MEMBAR.SC

// SASS-LABEL: Function : ptxw_last_block_u64
// SASS-NOT:   MEMBAR.SC
// SASS:       MEMBAR.ALL.GPU ;
// SASS:       ATOMG.E.ADD.64.STRONG.GPU
// SASS:       CCTL.IVALL ;
// SASS-NEXT:  STG.E.64 desc[UR{{[0-9]+}}][R{{[0-9]+}}.64], RZ ;
// SASS-LABEL: Function : ref_last_block_u64
