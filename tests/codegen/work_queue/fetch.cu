// ptxw::open_queue<1>(slot, q).fetch(): per item, the first warp's predicated atom.relaxed.gpu on
// the cursor (only the leader's lane adds, so ptxas does not aggregate it over the warp), the range
// published into one of two alternating shared buffers, one barrier, every thread reads the range
// and loads the item itself. One barrier per item, where a hand-written queue with one shared
// buffer needs two (or has a race). SASS as the hand-written double-buffered queue.
// REQUIRES: target-sm_90a || target-sm_100a || target-sm_120a
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/inter_block.h>

// A claimed range [first, end), and what a work_queue<unsigned> is, in plain types.
struct alignas(16) ref_range
{
  unsigned long long first, end;
};

struct raw_queue
{
  const unsigned* items;
  unsigned long long size;
  unsigned long long* cursor; // the state's first word
  const void* sink;
};

extern "C" __global__ void ptxw_fetch(unsigned* hits, ptxw::work_queue<unsigned> q)
{
  __shared__ ptxw::queue_slot slot;
  auto c = ptxw::open_queue<1>(slot, q);
  while (auto it = c.fetch())
  {
    if (threadIdx.x == 0)
    {
      atomicAdd(&hits[*it], 1u);
    }
  }
}

// The same steps in plain code: a block's position (the batch in hand, the buffer to publish in,
// whether the queue ran out) and one fetch that returns the item or none.
struct ref_position
{
  unsigned long long next, end;
  unsigned buffer;
  bool done;
};

struct ref_item
{
  unsigned value;
  unsigned long long index;
  bool present;
};

__device__ bool ref_leads()
{
  return threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
}

__device__ bool ref_first_warp()
{
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z) < 32u;
}

__device__ ref_item ref_next(ref_position& p, const raw_queue& q, ref_range* range)
{
  if (p.done)
  {
    return {};
  }
  if (p.next == p.end)
  {
    const bool leader = ref_leads();
    if (ref_first_warp())
    {
      const unsigned long long count = leader ? 1 : 0;
      unsigned long long first       = 0;
      asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %3, 0;\n\t@p atom.relaxed.gpu.global.add.u64 %0, [%1], %2;\n\t}"
                   : "=l"(first)
                   : "l"(q.cursor), "l"(count), "r"(leader ? 1u : 0u)
                   : "memory");
      if (leader)
      {
        const unsigned long long size = q.size;
        range[p.buffer] = {first < size ? first : size, first < size ? (count <= size - first ? first + count : size) : size};
      }
    }
    __syncthreads();
    p.next = range[p.buffer].first;
    p.end  = range[p.buffer].end;
    p.buffer ^= 1u;
    p.done = p.next == p.end;
    if (p.done)
    {
      return {};
    }
  }
  else
  {
    __syncthreads();
  }
  const unsigned long long i = p.next++;
  return {q.items[i], i, true};
}

extern "C" __global__ void ref_fetch(unsigned* hits, raw_queue q)
{
  __shared__ ref_range range[2];
  ref_position p{0, 0, 0, false};
  while (true)
  {
    const ref_item it = ref_next(p, q, range);
    if (!it.present)
    {
      break;
    }
    if (threadIdx.x == 0)
    {
      atomicAdd(&hits[it.value], 1u);
    }
  }
}

// The cursor's only atomic, relaxed (items are read-only during the launch: nothing to order).
// PTX-LABEL: .entry ptxw_fetch(
// PTX-NOT:   {{fence|membar|atom.*u64}}
// PTX:       @p atom.relaxed.gpu.global.add.u64 %rd{{[0-9]+}}, [%rd{{[0-9]+}}], %rd{{[0-9]+}};
// PTX-NOT:   {{fence|membar|atom.*u64}}
// PTX-LABEL: .entry ref_fetch(

// One claim (not aggregated over the warp: no VOTEU, no SHFL of its result), the range stored into
// shared memory, a barrier, the range loaded (16 bytes); a second barrier on the path that walks a
// batch. No fence.
// SASS-LABEL: Function : ptxw_fetch
// SASS-NOT:   {{SHFL|VOTEU|MEMBAR|ATOMG|FENCE}}
// SASS:       ATOMG.E.ADD.64.STRONG.GPU PT, R{{[0-9]+}}, desc[UR{{[0-9]+}}][R{{[0-9]+}}.64], R{{[0-9]+}} ;
// SASS-NOT:   {{SHFL|VOTEU|MEMBAR|ATOMG|FENCE|LDS}}
// SASS:       STS
// SASS-NOT:   {{SHFL|VOTEU|MEMBAR|ATOMG|FENCE|LDS}}
// SASS:       BAR.SYNC.DEFER_BLOCKING 0x0 ;
// SASS:       LDS.128
// SASS-NOT:   {{SHFL|VOTEU|MEMBAR|ATOMG|FENCE}}
// SASS-LABEL: Function : ref_fetch
