// ptxw/tasks/block_deques.h: what the two kinds of stealing_deques share -- one deque per block in
// global memory, `capacity` slots each (a power of two; position i in slot i mod capacity), the
// owner's registers, the pushes beyond bottom where no thief looks (published by the kind's
// publish at retire), a take (the own deque's pop, then a few random victims' steals) and the
// occupancy's record. The kind (tasks/deque.h: chase_lev, tasks/one_word_deque.h: one_word) is
// `Kind`, the backend that derives from this: its ends (`Ends`, with `owner` and `max_occupancy`
// words), how the owner reads them at open, and its pop, steal and publish -- where the memory
// order lives.
#pragma once

#include <ptxw/isa/global.h>
#include <ptxw/tasks/checks.h>

PTXW_NAMESPACE_BEGIN
namespace tasks {
// The methods of per-block deques with stealing, by kind of deque (tasks/deque.h: chase_lev, its
// default, `stealing`; tasks/one_word_deque.h: one_word): in global memory, the owner block pushes
// and pops at the bottom, idle blocks steal at the top. Capacity: tasks per block's deque.
template <class Deque>
struct stealing_deques
{};
} // namespace tasks

namespace detail::tasks {
template <class T, class Method, class Ends, class Kind>
struct block_deques
{
  using Pool   = ::ptxw::tasks::pool<T, Method>;
  using pool_t = Pool;
  using ends_t = Ends;
  using value  = T;

  struct memory
  {
    Ends* ends; // per block
    entry<value>* slots; // per block, `capacity` each
    ::cuda::std::uint32_t capacity; // a power of two
  };
  // The owner's leader's registers.
  struct local
  {
    long long bottom; // the owner's bottom (it alone moves it)
    long long top_seen; // a top read since, with an acquire (top only grows)
    long long max_occupancy;
    ::cuda::std::uint32_t queue, queues, rng;
    ::cuda::std::uint32_t pops; // one_word: the pop count its word holds (only the owner changes it)
  };
  // Where one task's pushes go: positions base, base + 1, ... beyond bottom, `free` of them.
  struct room
  {
    long long base;
    ::cuda::std::uint32_t free;
  };
  static constexpr bool counts_at_fork = false; // retire counts the children, then publishes them
  static constexpr bool counts_live    = true;

  __device__ static entry<value>& slot(const Pool& p, ::cuda::std::uint32_t queue, long long i)
  {
    return p.mem_.slots[static_cast<unsigned long long>(queue) * p.mem_.capacity
                        + (static_cast<::cuda::std::uint32_t>(i) & (p.mem_.capacity - 1))];
  }

  // The calling block's deque: its worker index.
  __device__ static ::cuda::std::uint32_t own_queue()
  {
    return block_rank();
  }

  __device__ static void open(const Pool& p, local& l)
  {
    l.queue  = own_queue();
    l.queues = p.state_->queues;
    l.rng    = (p.faults_.seed ^ (l.queue * 0x9E37'79B9u)) | 1u;
    Ends& d  = p.mem_.ends[l.queue];
    second_owner(&d.owner, l.queue, p.sink_);
    Kind::read_ends(d, l); // the seeds the host placed
    l.max_occupancy = l.bottom - l.top_seen;
  }

  // One try: the own deque, then a few random victims (the own deque among them when every task
  // must be stolen).
  __device__ static taken take(const Pool& p, local& l, entry<value>& out, ::ptxw::tasks::counters& c)
  {
    if (p.faults_.steal_only == 0 && Kind::pop(p, l, out, c))
    {
      return taken::got;
    }
    if (p.faults_.steal_only != 0) // pop reads top otherwise: the room of the next pushes
    {
      Kind::read_top(p.mem_.ends[l.queue], l);
    }
    const ::cuda::std::uint32_t others = p.faults_.steal_only != 0 ? l.queues : l.queues - 1;
    for (::cuda::std::uint32_t i = 0; i < (others < 4u ? others : 4u); ++i)
    {
      ::cuda::std::uint32_t v = next_random(l.rng) % others;
      v                       = p.faults_.steal_only == 0 && v >= l.queue ? v + 1 : v;
      if (Kind::steal(p, l, v, out, c))
      {
        return taken::got;
      }
    }
    return taken::none;
  }

  __device__ static room reserve(const Pool& p, const local& l)
  {
    return {l.bottom, static_cast<::cuda::std::uint32_t>(p.mem_.capacity - (l.bottom - l.top_seen))};
  }

  // Any thread: the k-th push of the task, beyond bottom (invisible to thieves until published).
  __device__ static bool push(const Pool& p, const room& r, ::cuda::std::uint32_t k, const value& child)
  {
    if (k >= r.free)
    {
      return full_push(p.state_, p.mem_.capacity - r.free + k + 1);
    }
    entry<value>& e = slot(p, own_queue(), r.base + k);
    e.value         = child;
    mark_pushed(e, p.state_);
    return true;
  }

  // The leader, after a publication moved bottom: the occupancy's upper bound (a top read earlier).
  __device__ static void record(local& l)
  {
    l.max_occupancy = l.bottom - l.top_seen > l.max_occupancy ? l.bottom - l.top_seen : l.max_occupancy;
  }

  __device__ static void close(const Pool& p, const local& l)
  {
    p.mem_.ends[l.queue].max_occupancy = static_cast<unsigned long long>(l.max_occupancy);
    atomicMax(&p.state_->max_occupancy, static_cast<unsigned long long>(l.max_occupancy));
  }
};
} // namespace detail::tasks
PTXW_NAMESPACE_END
