// benchmarks/state/tally.cuh: what every op of the per-CTA-state benchmark (device_state.cu) keeps in
// its state besides its own work: the indices it ran and their sum (a slot per lane: no two lanes of
// a warp on one address), flushed into tally[0] and tally[1]: the exactly-once check of every call.
#pragma once

namespace state_work {

struct tally_part
{
  unsigned long long sum[32];
  unsigned count[32];
};

__device__ inline void count_index(tally_part& t, unsigned long long i)
{
  const unsigned lane = threadIdx.x % 32;
  atomicAdd(&t.count[lane], 1u);
  atomicAdd(&t.sum[lane], i);
}

// Called by every thread (flush): warp 0 sums the slots and adds them to tally.
__device__ inline void flush_tally(const tally_part& t, unsigned long long* tally)
{
  if (threadIdx.x < 32)
  {
    unsigned long long c = t.count[threadIdx.x], s = t.sum[threadIdx.x];
    for (int o = 16; o > 0; o /= 2)
    {
      c += __shfl_down_sync(~0u, c, o);
      s += __shfl_down_sync(~0u, s, o);
    }
    if (threadIdx.x == 0)
    {
      atomicAdd(tally, c);
      atomicAdd(tally + 1, s);
    }
  }
}

// Zero `bytes` (a multiple of 16) of shared memory at p (16-aligned), by every thread.
__device__ inline void zero_shared(void* p, unsigned bytes)
{
  uint4* w = static_cast<uint4*>(p);
  for (unsigned k = threadIdx.x; k < bytes / 16; k += blockDim.x)
  {
    w[k] = make_uint4(0, 0, 0, 0);
  }
}

} // namespace state_work
