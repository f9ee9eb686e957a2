// ptxw/tasks/locked_queue.h: locked_queue -- Cederman and Tsigas's blocking queue, one spin lock
// around both ends of a ring. Fair warning: it is kept for their comparison of blocking and
// lock-free methods (docs/task-queues.md); every push and take of the grid waits for
// the one lock, and a holder that is descheduled stalls everyone. Prefer stealing or
// lockfree_queue<ticket_ring>.
// Memory order: the lock is taken with atom.acq_rel.cas 0 -> 1 and given back with
// st.release 0; inside it the ends and the entries are plain accesses, ordered by the lock (R25).
#pragma once

#include <ptxw/tasks/shared_queue.h>

PTXW_NAMESPACE_BEGIN
namespace tasks {
// Cederman and Tsigas's blocking queue: one spin lock around both ends. Capacity: tasks in the one queue.
struct locked_queue
{};
} // namespace tasks

namespace detail::tasks {
// Which end of the array a take works at: the head (first in, first out) or the tail (a stack).
enum class take_end
{
  head,
  tail
};

// The steps of a method whose one array of entries sits under the ends' spin lock
// (queue_ends::lock): the lock, the push at the tail and a take at either end; the lock orders the
// ends' and the entries' plain accesses (R25). The locked queue takes at the head; a method built
// from these steps may take at the tail instead.
template <class T, class Method>
struct locked_steps : shared_queue_steps<::ptxw::tasks::pool<T, Method>>
{
  using pool_t = ::ptxw::tasks::pool<T, Method>;
  using steps  = shared_queue_steps<pool_t>;
  using room   = typename steps::room;

  // `while (atomicCAS(&lock, 0, 1) == 1);` -- the paper's, with a short sleep between tries, and
  // (checked mode) a bound: false where the holder kept it too long (R24). Counts the failed tries.
  __device__ static bool lock(const pool_t& p, unsigned long long& failed)
  {
    unsigned long long since = 0;
    while (!isa::cas_acq_rel(&p.mem_.ends->lock, 0u, 1u))
    {
      ++failed;
      if (!may_wait_on(since, &p.mem_.ends->lock, 0, 1, p.sink_))
      {
        return false;
      }
      __nanosleep(32);
    }
    return true;
  }
  __device__ static void unlock(const pool_t& p)
  {
    isa::st_release(&p.mem_.ends->lock, 0u);
  }

  // The entry at position i (positions run on past the capacity; the array is a ring).
  __device__ static entry<T>& at(const pool_t& p, unsigned long long i)
  {
    return p.mem_.cells[i & (p.mem_.capacity - 1)];
  }

  // Under the lock: the entry at End -- the head's, or the one below the tail -- into `out`, and
  // the end moved past it.
  template <take_end End>
  __device__ static taken take_at(const pool_t& p, entry<T>& out, ::ptxw::tasks::counters& c)
  {
    if (!lock(p, c.failed_cas))
    {
      return taken::finished; // reported: the worker stops
    }
    queue_ends& q  = *p.mem_.ends;
    const bool got = q.head != q.tail;
    if (got)
    {
      entry<T>& e = at(p, End == take_end::head ? q.head : q.tail - 1);
      out         = e;
      mark_taken(e, p.sink_);
      if constexpr (End == take_end::head)
      {
        ++q.head;
      }
      else
      {
        --q.tail;
      }
    }
    unlock(p);
    return got ? taken::got : taken::none;
  }

  // Any thread: false where the ring is full.
  __device__ static bool push(const pool_t& p, const room&, ::cuda::std::uint32_t, const T& child)
  {
    unsigned long long failed = 0;
    if (!lock(p, failed))
    {
      return false; // reported: full, the child runs where it was made
    }
    queue_ends& q   = *p.mem_.ends;
    const bool room_left = q.tail - q.head < p.mem_.capacity;
    const unsigned long long position = q.tail, held = q.tail - q.head;
    if (room_left)
    {
      entry<T>& e = at(p, q.tail);
      e.value     = child;
      mark_pushed(e, p.state_);
      injected_sleep(p.faults_.publish_delay_ns);
      ++q.tail;
    }
    unlock(p);
    if (!room_left)
    {
      return full_push(p.state_, held + 1);
    }
    steps::sample_occupancy(p, position);
    return true;
  }
};

template <class T>
struct backend<T, ::ptxw::tasks::locked_queue> : locked_steps<T, ::ptxw::tasks::locked_queue>
{
  using pool_t = ::ptxw::tasks::pool<T, ::ptxw::tasks::locked_queue>;
  using steps  = locked_steps<T, ::ptxw::tasks::locked_queue>;
  using local  = typename steps::local;
  using room   = typename steps::room;
  using cell   = entry<T>;
  using memory = shared_queue_memory<cell>;
  using fill   = entry_fill;

  __device__ static taken take(const pool_t& p, local&, entry<T>& out, ::ptxw::tasks::counters& c)
  {
    return steps::template take_at<take_end::head>(p, out, c);
  }
};

// Its row (tasks/method_table.h): tag, memory, capacity unit, launch, stealing.
PTXW_TASK_METHOD(::ptxw::tasks::locked_queue, one_queue, "tasks in the queue", cooperative, false);
} // namespace detail::tasks
PTXW_NAMESPACE_END
