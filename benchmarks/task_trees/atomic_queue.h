// benchmarks/task_trees/atomic_queue.h: the hand-written peer -- one global queue of nodes in plain
// atomics, worked by persistent blocks, as a CUDA programmer writes one for a tree that grows on the
// device (the global work queues of the persistent-threads literature: Aila and Laine, HPG 2009;
// Tzeng, Patney and Owens, HPG 2010). The queue is one array in which every node of the tree gets a
// slot, in the order its parent's block allocated it:
//   claim    a block's thread 0 takes a batch of up to Threads x Items published nodes: ready -= the
//            batch (what it overdrew given back), then head += got: slots of whichever parents made them;
//   read     each thread waits for its slot's flag (the height word holds height + 1, stored after the
//            digest behind a fence), with an acquire load;
//   expand   the block's children (expand.h) get slots with one tail += total, are written, fenced,
//            flagged; then ready += total, and pending += total - got (pending: nodes not yet
//            expanded; 0 ends the search, and no node can appear after it).
// A claim never waits for a node that does not exist: every published ticket stands for a slot its
// producer allocated before publishing, so a slot's flag is only awaited while its writer writes.
// The four words sit 1 KiB apart: atomics on words close together are served one at a time
// (docs/task-queues.md, Measured), so each gets its own rate, as in ptxw's shared queues.
#pragma once

#include <cuda/atomic>

#include <cstdint>

#include "expand.h"

namespace task_trees {

struct queue_words
{
  alignas(1024) unsigned long long head; // the next slot to claim
  alignas(1024) unsigned long long tail; // the next slot to allocate
  alignas(1024) long long ready; // published nodes no block has claimed
  alignas(1024) long long pending; // nodes not yet expanded
  alignas(1024) std::uint32_t overflow; // a block found the array full (its children were dropped)
};

template <class W>
using device_word = cuda::atomic_ref<W, cuda::thread_scope_device>;

// Thread 0: a claim of up to Batch published nodes, the first slot into `first`; 0 once the search
// is done (or the array overflowed: a slot may then never be written).
template <int Batch>
__device__ std::uint32_t claim(queue_words& q, unsigned long long& first)
{
  device_word<long long> ready(q.ready), pending(q.pending);
  for (unsigned sleep = 32;; sleep = sleep < 2048 ? 2 * sleep : sleep)
  {
    // Poll with loads, not with atomics others queue behind; ask for no more than was seen, so that
    // a few published nodes are not hidden from the others by large overdrafts.
    const long long seen = ready.load(cuda::memory_order_relaxed);
    if (seen > 0)
    {
      const long long ask    = seen < Batch ? seen : Batch;
      const long long before = ready.fetch_sub(ask, cuda::memory_order_relaxed);
      const long long got    = before <= 0 ? 0 : before < ask ? before : ask;
      if (got < ask)
      {
        ready.fetch_add(ask - got, cuda::memory_order_relaxed);
      }
      if (got > 0)
      {
        first = device_word<unsigned long long>(q.head).fetch_add(got, cuda::memory_order_relaxed);
        return static_cast<std::uint32_t>(got);
      }
    }
    if (pending.load(cuda::memory_order_relaxed) == 0 || device_word<std::uint32_t>(q.overflow).load(cuda::memory_order_relaxed) != 0)
    {
      return 0;
    }
    __nanosleep(sleep);
  }
}

template <int Threads, int Items>
__global__ void __launch_bounds__(Threads, resident_threads / Threads)
  queue_search(queue_words* q, uts::node* slots, unsigned long long capacity, uts::shape s, uts::counts* out)
{
  using expand = block_expand<Threads, Items>;
  __shared__ typename expand::storage st;
  __shared__ unsigned long long claimed_at, base;
  __shared__ std::uint32_t claimed;
  tally t;
  for (;;)
  {
    if (threadIdx.x == 0)
    {
      claimed = claim<expand::batch>(*q, claimed_at);
    }
    __syncthreads();
    const std::uint32_t got = claimed;
    if (got == 0)
    {
      break;
    }
    std::uint32_t total = expand::plan(
      st, got,
      [&](std::uint32_t i) {
        uts::node* slot = slots + claimed_at + i;
        device_word<std::uint32_t> flag(slot->height);
        std::uint32_t h;
        while ((h = flag.load(cuda::memory_order_acquire)) == 0
               && device_word<std::uint32_t>(q->overflow).load(cuda::memory_order_relaxed) == 0)
        {
          __nanosleep(32);
        }
        uts::node n = *slot; // (h == 0: the array overflowed, the search is cut short and fails its check)
        n.height    = h - 1;
        return n;
      },
      s, t);
    if (threadIdx.x == 0 && total != 0)
    {
      base = device_word<unsigned long long>(q->tail).fetch_add(total, cuda::memory_order_relaxed);
      if (base + total > capacity)
      {
        device_word<std::uint32_t>(q->overflow).store(1, cuda::memory_order_relaxed);
      }
    }
    __syncthreads();
    const unsigned long long at = base;
    total                       = at + total > capacity ? 0 : total;
    expand::each_child(st, total, [&](std::uint32_t j, const uts::node& c) {
      uts::node& d = slots[at + j];
      for (int w = 0; w < 5; ++w)
      {
        d.digest[w] = c.digest[w];
      }
    });
    __threadfence(); // the digests before their flags
    for (std::uint32_t j = threadIdx.x; j < total; j += Threads)
    {
      device_word<std::uint32_t>(slots[at + j].height)
        .store(st.parents[expand::parent_of(st, j)].height + 2, cuda::memory_order_relaxed);
    }
    __syncthreads();
    if (threadIdx.x == 0)
    {
      if (total != 0)
      {
        device_word<long long>(q->ready).fetch_add(total, cuda::memory_order_relaxed);
      }
      device_word<long long>(q->pending).fetch_add(static_cast<long long>(total) - got, cuda::memory_order_relaxed);
    }
  }
  t.add_to<Threads>(out);
}

} // namespace task_trees
