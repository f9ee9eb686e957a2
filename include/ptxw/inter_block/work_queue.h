// ptxw/inter_block/work_queue.h: a block-level work queue -- items in global memory, each block taking the
// next ones from one global cursor when it is done with the last, so that items of very different
// costs balance over the blocks (sm_70 and newer).
//
//   __global__ void run(ptxw::work_queue<job> q)                 // from work_queue_host<job>::view()
//   {
//     __shared__ ptxw::queue_slot slot;
//     auto c = ptxw::open_queue<4>(slot, q);                     // up to 4 items per atomic
//     while (auto it = c.fetch())                                // every thread of the block (R15)
//       process(*it);                                            // the item, by value (R19)
//   }
//   // or, claiming the next items while working on these (the latency of the atomic hidden):
//   ptxw::for_each_item<4>(q, [&](const job& j) { process(j); });
//
// fetch() hands every thread of the block the same item, or "no item" once the queue is exhausted
// (an explicit state, not a sentinel). The item is a copy in registers, never a reference into
// shared memory, so the hand-written queue's race (a second fetch overwrites the shared item a slow
// thread still reads) cannot be written (R19). The leader hands ranges of indices over through two
// alternating shared buffers: one barrier per fetch, which also separates consecutive items.
//
// Batches of up to K items per atomic (K in [1, 32]) amortise the atomic and the hand-over, which
// one item per atomic pays between every two items (docs/scheduling.md measures the gap).
// Long items must not pile up on few blocks (a hot spot): the leader sizes each batch to about 4 us
// at the pace it measured between its claims -- one item while items take 2 us or more -- and to at
// most a quarter of what is left per block, so that the end of the queue stays balanced.
//
// Checked mode (PTXW_CHECKED) reports a fetch not every thread of the block made (R15; the block
// stops), a queue whose memory was not initialised (R17; no items), the read of no item (R19; T{}).
#pragma once

#include <ptxw/inter_block/cursor.h>

PTXW_NAMESPACE_BEGIN

// A block's cursor into q, handing out up to K items per atomic (K in [1, 32]).
template <unsigned K = 1, class T>
__device__ detail::queue_cursor<T, K> open_queue(queue_slot& slot, const work_queue<T>& q)
{
  return detail::queue_cursor<T, K>(slot, q);
}

// f(const T& item) for every item this block takes, claiming the next up to K items while working
// on these. Every thread of the block calls it (R15); consecutive items are separated by a barrier.
template <unsigned K = 1, class T, class F>
__device__ void for_each_item(const work_queue<T>& q, F&& f)
{
  __shared__ queue_slot slot;
  detail::queue_cursor<T, K> c(slot, q);
  c.for_each(f);
}

PTXW_NAMESPACE_END
