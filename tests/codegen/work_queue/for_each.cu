// ptxw::for_each_item<K>(q, f), the prefetching form: the claim of the next batch -- one predicated
// atom.relaxed.gpu of the first warp, only the leader's lane active -- is issued before this batch's
// items run and its result is first read after them, at the hand-over (16 bytes through shared
// memory, two alternating buffers, one barrier). Between two items of a batch one barrier, and the
// next item is loaded before the current one runs. SASS for K = 1 as the hand-written loop.
// REQUIRES: target-sm_90a || target-sm_100a || target-sm_120a
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/inter_block.h>

// A claimed range [first, end), and a work_queue<unsigned> in plain types.
struct alignas(16) ref_range
{
  unsigned long long first, end;
};

struct raw_queue
{
  const unsigned* items;
  unsigned long long size;
  unsigned long long* cursor;
  const void* sink;
};

extern "C" __global__ void ptxw_for_each(float* out, ptxw::work_queue<unsigned> q)
{
  ptxw::for_each_item<1>(q, [&](unsigned i) {
    out[i] = 2.0f * out[i];
  });
}

__device__ bool ref_leads()
{
  return threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
}

__device__ bool ref_first_warp()
{
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z) < 32u;
}

// The batch in hand and where it is handed over, as ptxw's cursor keeps them.
struct ref_position
{
  raw_queue q;
  ref_range* range;
  unsigned long long end, next; // (in this order NVVM numbers their registers as for ptxw's cursor)
  unsigned buffer;
  bool done;
};

// The hand-over: every thread takes the published range; false when it is empty.
__device__ bool ref_take(ref_position& p)
{
  p.next = p.range[p.buffer].first;
  p.end  = p.range[p.buffer].end;
  p.buffer ^= 1u;
  p.done = p.next == p.end;
  return !p.done;
}

__device__ void ref_walk(ref_position& p, float* out)
{
  const raw_queue& q = p.q;
  const bool leader        = ref_leads();
  const bool warp0         = ref_first_warp();
  unsigned long long claim = 0;
  while (true)
  {
    const unsigned long long count = leader ? 1 : 0;
    if (warp0)
    {
      asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %3, 0;\n\t@p atom.relaxed.gpu.global.add.u64 %0, [%1], %2;\n\t}"
                   : "=l"(claim)
                   : "l"(q.cursor), "l"(count), "r"(leader ? 1u : 0u)
                   : "memory");
    }
    if (p.next != p.end)
    {
      unsigned current = q.items[p.next];
      for (unsigned long long i = p.next; i < p.end; ++i)
      {
        if (i != p.next)
        {
          __syncthreads();
        }
        const unsigned following = i + 1 < p.end ? q.items[i + 1] : 0u;
        out[current]             = 2.0f * out[current];
        current                  = following;
      }
    }
    if (leader)
    {
      asm volatile("" : "+l"(claim)::"memory"); // first use of the claim: after the work
      const unsigned long long size = q.size;
      p.range[p.buffer] = {claim < size ? claim : size, claim < size ? (count <= size - claim ? claim + count : size) : size};
    }
    claim = 0;
    __syncthreads();
    if (!ref_take(p))
    {
      return;
    }
  }
}

extern "C" __global__ void ref_for_each(float* out, raw_queue q)
{
  __shared__ ref_range range[2];
  ref_position p{q, range, 0, 0, 0, false}; // an empty batch: the first claim comes at once
  ref_walk(p, out);
}

// Batches of up to 8: the same loop; the batch size comes from the grid and the queue (no twin).
extern "C" __global__ void batched_for_each(float* out, ptxw::work_queue<unsigned> q)
{
  ptxw::for_each_item<8>(q, [&](unsigned i) {
    out[i] = 2.0f * out[i];
  });
}

// PTX-LABEL: .entry ptxw_for_each(
// PTX-NOT:   {{fence|membar|atom}}
// PTX:       @p atom.relaxed.gpu.global.add.u64 %rd{{[0-9]+}}, [%rd{{[0-9]+}}], %rd{{[0-9]+}};
// PTX-NOT:   {{fence|membar|atom}}
// PTX-LABEL: .entry ref_for_each(

// The atomic's result register is not read before the item's store (no copy of it, no shuffle,
// no use that would make the warp wait for the atomic before the work); it is first read at the
// hand-over, after the last store of the batch.
// SASS-LABEL: Function : ptxw_for_each
// SASS-NOT:   {{SHFL|VOTEU|MEMBAR|FENCE|ATOMG}}
// SASS:       ATOMG.E.ADD.64.STRONG.GPU PT, R[[CLAIM:[0-9]+]], desc[UR{{[0-9]+}}][R{{[0-9]+}}.64], R{{[0-9]+}} ;
// SASS-NOT:   {{[ ,[]}}R[[CLAIM]]{{[],. ;]}}
// SASS:       STG.E
// SASS-NOT:   {{SHFL|VOTEU|MEMBAR|FENCE|ATOMG}}
// SASS:       STS
// SASS-NOT:   {{SHFL|VOTEU|MEMBAR|FENCE|ATOMG|LDS}}
// SASS:       BAR.SYNC.DEFER_BLOCKING 0x0 ;
// SASS-NEXT:  {{(ULOP3|LOP3).*}}
// SASS-NEXT:  LDS.128
// SASS-NOT:   {{SHFL|VOTEU|MEMBAR|FENCE|ATOMG}}
// SASS-LABEL: Function : ref_for_each

// SASS-LABEL: Function : batched_for_each
// SASS-NOT:   {{SHFL|VOTEU|MEMBAR|FENCE|ATOMG}}
// SASS:       ATOMG.E.ADD.64.STRONG.GPU PT, R[[CLAIM8:[0-9]+]], desc[UR{{[0-9]+}}][R{{[0-9]+}}.64], R{{[0-9]+}} ;
// SASS-NOT:   {{[ ,[]}}R[[CLAIM8]]{{[],. ;]}}
// SASS:       STG.E
// SASS-NOT:   {{SHFL|VOTEU|MEMBAR|FENCE|ATOMG}}
