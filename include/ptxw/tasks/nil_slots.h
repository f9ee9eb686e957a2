// ptxw/tasks/nil_slots.h: lockfree_queue<nil_slots> -- the seed's lock-free queue (Cederman and
// Tsigas, after Tsigas and Zhang): slots hold NIL or a task; a take scans from `head` for a task and
// CASes it out, a push scans from `tail` for a NIL and CASes its task in; head and tail are only
// hints, advanced every `lazy` positions. A task is wider than a CAS here, so a slot's word has two
// more states than NIL and a task: NIL -> WRITING (a push's CAS) -> TASK (its release: published,
// R25) -> READING (a take's CAS) -> NIL (its release: the reader is done with the entry).
// Memory order: every state change is a CAS acq_rel (it both follows the previous owner's release
// and orders this owner's entry access after it) or a st.release; scans read the word relaxed.
// Full is a push's scan that found no NIL in a whole lap (never an overwrite, R23). A take scans
// the window the hints give, and a whole lap every 8th failed try, so that a task placed behind a
// stale hint is still found.
#pragma once

#include <ptxw/tasks/shared_queue.h>

PTXW_NAMESPACE_BEGIN
namespace detail::tasks {
enum nil_state : ::cuda::std::uint32_t
{
  nil,
  writing,
  holds_task,
  reading
};

template <class T>
struct nil_cell
{
  ::cuda::std::uint32_t state;
  entry<T> e;
};

template <class T>
struct backend<T, ::ptxw::tasks::lockfree_queue<::ptxw::tasks::nil_slots>>
    : shared_queue_steps<::ptxw::tasks::pool<T, ::ptxw::tasks::lockfree_queue<::ptxw::tasks::nil_slots>>>
{
  using pool_t = ::ptxw::tasks::pool<T, ::ptxw::tasks::lockfree_queue<::ptxw::tasks::nil_slots>>;
  using steps  = shared_queue_steps<pool_t>;
  using room   = typename steps::room;
  using cell   = nil_cell<T>;
  using memory = shared_queue_memory<cell>;
  struct local : steps::local
  {
    ::cuda::std::uint32_t misses; // failed takes in a row
  };

  static constexpr unsigned long long lazy = 32; // the seed's "x": hints move every 32 positions

  __device__ static cell& at(const pool_t& p, unsigned long long i)
  {
    return p.mem_.cells[i & (p.mem_.capacity - 1)];
  }

  // A hint moves forward to i + 1 where i + 1 is a multiple of `lazy`.
  __device__ static void advance(unsigned long long* hint, unsigned long long i)
  {
    if ((i + 1) % lazy == 0)
    {
      atomicMax(hint, i + 1);
    }
  }

  __device__ static taken take(const pool_t& p, local& l, entry<T>& out, ::ptxw::tasks::counters& c)
  {
    const unsigned long long head = isa::ld_relaxed(&p.mem_.ends->head);
    const unsigned long long tail = isa::ld_relaxed(&p.mem_.ends->tail);
    const unsigned long long hinted = (tail > head ? tail - head : 0) + 2 * lazy;
    const unsigned long long window =
      ++l.misses % 8 == 0 || hinted > p.mem_.capacity ? p.mem_.capacity : hinted;
    for (unsigned long long i = head; i < head + window; ++i)
    {
      cell& x = at(p, i);
      if (isa::ld_relaxed(&x.state) != holds_task)
      {
        continue;
      }
      if (injected(p.faults_.spurious_cas, l.rng) || !isa::cas_acq_rel(&x.state, +holds_task, +reading))
      {
        ++c.failed_cas; // another taker was first
        continue;
      }
      out = x.e;
      mark_taken(x.e, p.sink_);
      isa::st_release(&x.state, +nil);
      advance(&p.mem_.ends->head, i);
      l.misses = 0;
      return taken::got;
    }
    return taken::none;
  }

  // Any thread: false where a whole lap has no NIL slot.
  __device__ static bool push(const pool_t& p, const room&, ::cuda::std::uint32_t, const T& child)
  {
    const unsigned long long tail = isa::ld_relaxed(&p.mem_.ends->tail);
    for (unsigned long long i = tail; i < tail + p.mem_.capacity; ++i)
    {
      cell& x = at(p, i);
      if (isa::ld_relaxed(&x.state) != nil || !isa::cas_acq_rel(&x.state, +nil, +writing))
      {
        continue;
      }
      x.e.value = child;
      mark_pushed(x.e, p.state_);
      steps::delay(p);
      isa::st_release(&x.state, +holds_task); // R25: the entry, then the state
      advance(&p.mem_.ends->tail, i);
      steps::sample_occupancy(p, i);
      return true;
    }
    return false;
  }
};
} // namespace detail::tasks
PTXW_NAMESPACE_END
