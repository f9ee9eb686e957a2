// ptxw/claim/engine.h: the one claim engine -- how a block takes the next indices from a global
// cursor, for every scheduler of ptxw: counter_t's loop and typed requests (clc/counter.h), the
// work queue (inter_block/cursor.h), and through counter_t the device-scope for_each; the task
// pools' workers hand their tasks over the same way (tasks/worker.h). Not an API (ptxw::detail):
// a folder of its own because every scheduling family builds on it.
//
// A claim is one predicated atom.relaxed.gpu.add of the claiming lane's warp, issued before the
// work it overlaps, its result first read after that work (use_after_work), so that the atomic's
// latency hides behind the work. The number of indices a claim takes follows the pace the
// claimer measured between its claims (pace::size). A claimed range reaches the block's threads
// through two alternating shared-memory buffers (handover): one barrier per range.
#pragma once

#include <ptxw/isa/atom.h>

PTXW_NAMESPACE_BEGIN
namespace detail::claim {
// The claimed indices [first, end); 16-byte aligned, so that a hand-over is one 128-bit load.
struct alignas(16) range
{
  unsigned long long first;
  unsigned long long end;
};

// The latency trick. `x` holds the result of an atomic issued before the work; its first use is
// here, after the work, so the compiler keeps it in the register the atomic writes until then: no
// copy of it and no use that would make the warp wait for the atomic before the work.
__device__ inline void use_after_work(unsigned long long& x)
{
  asm volatile("" : "+l"(x)::"memory");
}

// How many indices the next claim takes. Indices of a few microseconds or more take one each: the
// finest schedule, and a hot spot of long indices is shared out one by one. Shorter ones take a
// range that lasts about `cycles` at the pace measured between the claimer's claims (so that the
// contended atomic on one address and the hand-over are amortised; docs/scheduling.md measures
// both), but never more than a quarter of what is left per claimer, so that the last
// claims are single indices again and the end stays balanced. The range is short (about 4 us):
// one block walks it whatever its indices turn out to cost, and on real work the costs of
// neighbouring indices jump (a fractal's interior tiles behind its exterior ones), so a longer
// range piles the expensive run onto the few blocks that claimed it (docs/clc.md measures such work;
// uniform 1 us blocks pay for the shorter range in hand-overs: docs/scheduling.md). The pace is a running average over
// the last few claims (cycles per index), so that one short index does not coarsen the schedule:
// the first short measurement starts it, later ones move it by a quarter.
struct pace
{
  static constexpr ::cuda::std::uint32_t cycles = 8000; // what a range of short indices should last (~4 us)

  ::cuda::std::uint32_t last_claim; // clock() at the last claim, | 1; 0: none yet
  ::cuda::std::uint32_t per_index; // running average of cycles per index; 0: no short index yet

  // The size of the claim made now, `walked` indices after the last one: in [1, most]. Count: the
  // type of the indices left (32 bits where they fit: a 64-bit division is a long routine).
  template <class Count>
  __device__ ::cuda::std::uint32_t size(::cuda::std::uint32_t walked, Count left, Count claimers,
                                        ::cuda::std::uint32_t most)
  {
    const ::cuda::std::uint32_t now      = static_cast<::cuda::std::uint32_t>(clock());
    const ::cuda::std::uint32_t interval = now - last_claim;
    const bool measured                  = last_claim != 0 && walked != 0;
    last_claim                           = now | 1u;
    if (!measured || (per_index == 0 && interval >= walked * (cycles / 2u)))
    {
      return 1u; // no history yet, or long indices as before: one per claim
    }
    const ::cuda::std::uint32_t now_per_index = walked > 1u ? interval / walked : interval;
    per_index = per_index == 0 ? now_per_index : per_index - (per_index >> 2) + (now_per_index >> 2);
    if (per_index >= cycles / 2u)
    {
      return 1u;
    }
    const Count by_pace = cycles / per_index;
    const Count by_left = left / (4u * claimers + 1u);
    const Count k       = by_pace < by_left ? by_pace : by_left;
    return k < 1u ? 1u : k < most ? static_cast<::cuda::std::uint32_t>(k) : most;
  }
};

// The claim: `count` indices from *cursor by one atom.relaxed.gpu.add of the claimer's warp, the
// other lanes predicated off (so that ptxas does not aggregate it over the warp and shuffle its
// result at once). `first` is written only where `claimer`; read it after the work, through
// use_after_work().
__device__ inline void issue(bool claimer, unsigned long long* cursor, unsigned long long count,
                             unsigned long long& first)
{
  isa::atom_add_relaxed_gpu_if(claimer, cursor, count, first);
}

// The claimed range [first, first + count), clipped to [0, size).
__device__ inline range clipped(unsigned long long first, unsigned long long count, unsigned long long size)
{
  return {first < size ? first : size, first < size ? (count <= size - first ? first + count : size) : size};
}

// Two alternating hand-over buffers: the claimer writes one while the threads may still read the
// other, and a buffer is written again only after the barrier that follows every read of it.
template <class T>
struct handover
{
  T buffer[2];
};

// The claimer of a block: its thread 0. The claim's warp: the block's first.
__device__ inline bool leads()
{
  return threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
}
__device__ inline bool in_first_warp()
{
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z) < 32u;
}
} // namespace detail::claim
PTXW_NAMESPACE_END
