// The work every scheduling strategy runs, and what it records about itself.
//
// Synthetic items are fair: one warp of the block spins on clock64 for the item's cost while the
// other warps wait at a barrier, all of them resident (docs/scheduling.md: with every warp
// spinning, the warp scheduler starves some and a block that does no scheduling at all takes up to
// 1.9x its nominal time). Memory-bound items sum a chunk of a large array with every thread.
#pragma once

#include <cuda_runtime.h>

namespace sched {

// What a run tells about itself beyond its time.
struct Counts
{
  unsigned entered; // CTAs that started (canceled ones included)
  unsigned prologues; // CTAs that ran the prologue
  unsigned ran; // CTAs that ran at least one item
};

// Timeline records (only when Work::cta_events is set). Times are %globaltimer ns.
struct CtaEvent
{
  unsigned sm;
  unsigned prologue_ns; // prologue duration, 0 if none
  unsigned long long enter;
  unsigned long long leave;
};

struct ItemEvent
{
  unsigned cta; // index into the CtaEvent array
  unsigned pad;
  unsigned long long start;
  unsigned long long end;
};

struct Work
{
  const long long* cost; // cycles per item (synthetic work)
  const float4* data; // memory-bound work: `chunk` float4 per item; null for synthetic
  unsigned chunk;
  float* out; // memory-bound results, one per item
  long long prologue; // cycles per CTA that runs
  unsigned n; // items
  unsigned* hits; // per item: how often it ran (exactly once is checked)
  Counts* counts;
  CtaEvent* cta_events; // null: no timeline
  ItemEvent* item_events;
  unsigned* cta_ids;
};

__device__ inline unsigned long long now_ns()
{
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ inline unsigned sm_id()
{
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

__device__ inline bool leader()
{
  return threadIdx.x == 0;
}

// One warp spins, the others wait at the barrier (still resident).
__device__ inline void spin(long long cycles)
{
  if (threadIdx.x < 32)
  {
    const long long start = clock64();
    while (clock64() - start < cycles)
    {
    }
  }
  __syncthreads();
}

// One CTA's view: counts its start, its prologue and its first item, and records the timeline.
class Cta
{
  const Work& w_;
  unsigned id_ = 0;
  bool ran_    = false;

public:
  __device__ explicit Cta(const Work& w)
      : w_(w)
  {
    if (leader())
    {
      atomicAdd(&w.counts->entered, 1u);
      if (w.cta_events)
      {
        id_                      = atomicAdd(w.cta_ids, 1u);
        w.cta_events[id_].sm     = sm_id();
        w.cta_events[id_].enter  = now_ns();
        w.cta_events[id_].prologue_ns = 0;
      }
    }
  }

  __device__ ~Cta()
  {
    if (leader() && w_.cta_events)
    {
      w_.cta_events[id_].leave = now_ns();
    }
  }

  __device__ void prologue()
  {
    if (w_.prologue == 0)
    {
      return;
    }
    const unsigned long long start = w_.cta_events ? now_ns() : 0;
    spin(w_.prologue);
    if (leader())
    {
      atomicAdd(&w_.counts->prologues, 1u);
      if (w_.cta_events)
      {
        w_.cta_events[id_].prologue_ns = static_cast<unsigned>(now_ns() - start);
      }
    }
  }

  __device__ void item(unsigned i)
  {
    const unsigned long long start = w_.cta_events ? now_ns() : 0;
    if (w_.data != nullptr)
    {
      float sum          = 0.0f;
      const float4* base = w_.data + static_cast<unsigned long long>(i) * w_.chunk;
      for (unsigned k = threadIdx.x; k < w_.chunk; k += blockDim.x)
      {
        const float4 v = base[k];
        sum += v.x + v.y + v.z + v.w;
      }
      if (sum == -1.0f) // never: keeps the loads
      {
        w_.out[i] = sum;
      }
    }
    else
    {
      spin(w_.cost[i]);
    }
    if (leader())
    {
      atomicAdd(&w_.hits[i], 1u);
      if (!ran_)
      {
        ran_ = true;
        atomicAdd(&w_.counts->ran, 1u);
      }
      if (w_.item_events)
      {
        w_.item_events[i] = ItemEvent{id_, 0u, start, now_ns()};
      }
    }
  }
};

} // namespace sched
