// ptxw/tasks/shared_queue.h: what the methods with one queue for the whole grid have in common
// (lockfree_queue<ticket_ring>, lockfree_queue<nil_slots>, locked_queue): the queue's ends, a
// worker's steps that do not touch the queue, and the pieces of the host's seeding of their cells
// (the one_queue layout of tasks/method_table.h). Their pushes publish at once, from the pushing
// thread, so fork() counts a task's children live before any push (counts_at_fork).
#pragma once

#include <ptxw/isa/global.h>
#include <ptxw/tasks/checks.h>

PTXW_NAMESPACE_BEGIN
namespace tasks {
// The lock-free methods with one queue, by kind (tasks/ticket_ring.h, tasks/nil_slots.h).
// Capacity: tasks in the one queue.
template <class Kind>
struct lockfree_queue
{};
} // namespace tasks

namespace detail::tasks {
// The queue's ends and counts, 1 KiB apart: every block's leader hits them, and atomics on words
// close together are served one at a time, so words a line apart share one contended counter's rate
// (benchmarks/task_queues.cu measures it, docs/task-queues.md).
struct alignas(1024) queue_ends
{
  alignas(1024) unsigned long long head; // next position to take (nil_slots: a hint, advanced lazily)
  alignas(1024) unsigned long long tail; // next position to fill (nil_slots: a hint)
  alignas(1024) long long count; // ticket_ring: published tasks no take has reserved yet
  alignas(1024) long long size; // ticket_ring: slots reserved by pushes and not yet freed by takes
  alignas(1024) ::cuda::std::uint32_t lock; // locked_queue: 1 while held
};

// The host's seeding of a queue (tasks/host/method_memory.h): position i (0 <= i < capacity) in
// slot `slots`(i, capacity) -- here slot i --, filled by the backend's `fill`(cell, i, seed i or
// nullptr). A cell that is a plain entry<T> is filled by entry_fill.
struct same_slot
{
  __host__ __device__ ::cuda::std::size_t operator()(::cuda::std::size_t position, ::cuda::std::uint32_t) const
  {
    return position;
  }
};

struct entry_fill
{
  template <class T>
  __host__ __device__ void operator()(entry<T>& c, ::cuda::std::size_t i, const T* seed) const
  {
    c = seed_entry(seed ? *seed : T{}, i);
  }
};

template <class Cell>
struct shared_queue_memory
{
  queue_ends* ends;
  Cell* cells;
  ::cuda::std::uint32_t capacity; // a power of two
};

template <class Pool>
struct shared_queue_steps
{
  struct local
  {
    ::cuda::std::uint32_t rng;
    bool polling; // the last take found nothing: look with loads before an atomic (ticket_ring)
  };
  struct room
  {};
  using slots                          = same_slot; // position i in slot i (the host's seeding)
  static constexpr bool counts_at_fork = true;
  static constexpr bool counts_live    = true;

  __device__ static void open(const Pool& p, local& l)
  {
    l.rng     = (p.faults_.seed ^ ((blockIdx.x + 1) * 0x9E37'79B9u)) | 1u;
    l.polling = false;
  }
  __device__ static room reserve(const Pool&, const local&)
  {
    return {};
  }
  __device__ static void publish(const Pool&, local&, ::cuda::std::uint32_t) {}
  __device__ static void close(const Pool&, const local&) {}

  // Occupancy, sampled by every 64th push (an exact maximum would cost a load of head per push).
  __device__ static void sample_occupancy(const Pool& p, unsigned long long tail)
  {
    if ((tail & 63u) == 0)
    {
      const unsigned long long head = isa::ld_relaxed(&p.mem_.ends->head);
      atomicMax(&p.state_->max_occupancy, tail + 1 > head ? tail + 1 - head : 0ull);
    }
  }
};
} // namespace detail::tasks
PTXW_NAMESPACE_END
