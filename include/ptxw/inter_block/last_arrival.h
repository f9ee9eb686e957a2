// ptxw/inter_block/last_arrival.h: the arrival that last_block's ticket (inter_block/last_block.h, where
// the order is argued) and the task pools' joins (tasks/join.h) share -- n arrivals on one count,
// the n-th of which sees every earlier one's writes:
//   bar.sync                every thread's part before its leader's arrival
//   atom.release.gpu.add    the leader's arrival (the count before it returned)
//   fence.acq_rel.gpu       by the arrival that read n - 1 only: with the atom's read, an acquire of
//                           every earlier arrival's release
//   bar.red.or              its verdict to every thread of the block
#pragma once

#include <ptxw/claim/engine.h>
#include <ptxw/isa/atom.h>

PTXW_NAMESPACE_BEGIN
namespace detail {
// The leader's arrival: the count before it.
template <class Count>
__device__ Count arrive_release(Count* count)
{
  return isa::atom_add_release_gpu(count, Count(1));
}

// The leader whose arrival read `before`: true, after the acquire, where that was `last` (n - 1:
// it was the n-th).
template <class Count>
__device__ bool acquired_if_last(Count before, Count last)
{
  if (before != last)
  {
    return false;
  }
  isa::fence_acq_rel_gpu();
  return true;
}

// Every thread of the block: the barrier, the leader's `arrival()` (true: it was the last), and
// its verdict in every thread.
template <class Arrival>
__device__ bool block_arrival(Arrival&& arrival)
{
  __syncthreads();
  bool last = false;
  if (claim::leads())
  {
    last = arrival();
  }
  return __syncthreads_or(last) != 0;
}
} // namespace detail
PTXW_NAMESPACE_END
