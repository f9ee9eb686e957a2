// ptxw/tasks/nil_slots.h: lockfree_queue<nil_slots> -- Cederman and Tsigas's lock-free queue
// (after Tsigas and Zhang): slots hold NIL or a task; a take scans from `head` for a task
// and CASes it out, a push scans from `tail` for a NIL and CASes its task in; head and tail are
// only hints, advanced lazily. Two changes make it sound for tasks wider than a CAS and for slots
// reused lap after lap:
// - a slot's state word holds a kind and the lap of the position it serves (position q is slot
//   q mod capacity in lap q / capacity): NIL -> WRITING (a push's CAS) -> TASK (its release:
//   published, R25) -> READING (a take's CAS) -> NIL of the next lap (its release: the reader is
//   done with the entry). A slot still in the previous lap is not free: the queue is full there
//   (never an overwrite, R23) -- so claimed positions are always a prefix, and a scan that meets
//   an unclaimed position has seen every task;
// - head moves only over positions already taken (and tail over claimed ones), when such a run is
//   at least `lazy` (the paper's x) long, so no task is ever left behind a hint.
// Memory order: state changes are atom.acq_rel.cas (each follows the previous owner's release and
// orders this owner's entry access after it) or st.release; scans read the word with ld.acquire.
#pragma once

#include <ptxw/tasks/shared_queue.h>

PTXW_NAMESPACE_BEGIN
namespace tasks {
// The kind of lockfree_queue that is Cederman and Tsigas's: NIL-or-task slots, CAS in and out, head
// and tail advanced lazily.
struct nil_slots
{};
} // namespace tasks

namespace detail::tasks {
// A slot's state word: the lap of the position it serves, and a kind.
namespace nil_kind {
inline constexpr ::cuda::std::uint32_t nil = 0, writing = 1, task = 2, reading = 3;
}
__host__ __device__ constexpr ::cuda::std::uint32_t nil_state(::cuda::std::uint32_t lap, ::cuda::std::uint32_t kind)
{
  return lap << 2 | kind;
}

template <class T>
struct nil_cell
{
  ::cuda::std::uint32_t state;
  entry<T> e;
};

// The host's seeding: slot i serves position i (lap 0): seed i, or NIL.
struct nil_fill
{
  template <class T>
  __host__ __device__ void operator()(nil_cell<T>& c, ::cuda::std::size_t i, const T* seed) const
  {
    c.state = nil_state(0, seed ? nil_kind::task : nil_kind::nil);
    c.e     = seed_entry(seed ? *seed : T{}, i);
  }
};

template <class T>
struct backend<T, ::ptxw::tasks::lockfree_queue<::ptxw::tasks::nil_slots>>
    : shared_queue_steps<::ptxw::tasks::pool<T, ::ptxw::tasks::lockfree_queue<::ptxw::tasks::nil_slots>>>
{
  using pool_t = ::ptxw::tasks::pool<T, ::ptxw::tasks::lockfree_queue<::ptxw::tasks::nil_slots>>;
  using steps  = shared_queue_steps<pool_t>;
  using local  = typename steps::local;
  using room   = typename steps::room;
  using cell   = nil_cell<T>;
  using memory = shared_queue_memory<cell>;
  using fill   = nil_fill;

  static constexpr unsigned long long lazy = 32; // the paper's "x": hints move in runs of 32 or more

  __device__ static cell& at(const pool_t& p, unsigned long long q)
  {
    return p.mem_.cells[q & (p.mem_.capacity - 1)];
  }
  __device__ static ::cuda::std::uint32_t lap(const pool_t& p, unsigned long long q)
  {
    return static_cast<::cuda::std::uint32_t>(q >> (__ffs(static_cast<int>(p.mem_.capacity)) - 1)) & 0x3fff'ffffu;
  }
  __device__ static ::cuda::std::uint32_t next(::cuda::std::uint32_t lap)
  {
    return (lap + 1) & 0x3fff'ffffu;
  }
  // Whether a slot's lap is ahead of (> 0: position q is taken) or behind (< 0: q is not claimed
  // yet) the lap of q; laps count modulo 2^30. A hint may lag by more than a lap where the
  // capacity is below `lazy`.
  __device__ static int relative(::cuda::std::uint32_t slot_lap, ::cuda::std::uint32_t now)
  {
    const ::cuda::std::uint32_t ahead = (slot_lap - now) & 0x3fff'ffffu;
    return ahead == 0 ? 0 : ahead < (1u << 29) ? 1 : -1;
  }
  // Moves a hint from `from` to `to` where that passes at least `lazy` positions.
  __device__ static void advance(unsigned long long* hint, unsigned long long from, unsigned long long to)
  {
    if (to >= from + lazy)
    {
      atomicMax(hint, to);
    }
  }

  __device__ static taken take(const pool_t& p, local& l, entry<T>& out, ::ptxw::tasks::counters& c)
  {
    const unsigned long long head = isa::ld_relaxed(&p.mem_.ends->head);
    unsigned long long taken_run  = head; // positions before it are all taken
    for (unsigned long long q = head;; ++q) // ends at the first unclaimed position
    {
      cell& x                           = at(p, q);
      const ::cuda::std::uint32_t now   = lap(p, q);
      const ::cuda::std::uint32_t state = isa::ld_acquire(&x.state);
      const ::cuda::std::uint32_t kind  = state & 3u;
      const int age                     = relative(state >> 2, now);
      if (age > 0 || (age == 0 && kind == nil_kind::reading))
      {
        taken_run += taken_run == q; // taken: a run from head grows
        continue;
      }
      if (age < 0 || kind == nil_kind::nil)
      {
        break; // unclaimed: no task beyond it
      }
      if (kind == nil_kind::writing)
      {
        continue; // claimed, not yet published
      }
      if (injected(p.faults_.spurious_cas, l.rng)
          || !isa::cas_acq_rel(&x.state, nil_state(now, nil_kind::task), nil_state(now, nil_kind::reading)))
      {
        ++c.failed_cas; // another taker was first
        continue;
      }
      out = x.e;
      mark_taken(x.e, p.sink_);
      isa::st_release(&x.state, nil_state(next(now), nil_kind::nil));
      advance(&p.mem_.ends->head, head, taken_run == q ? q + 1 : taken_run);
      return taken::got;
    }
    advance(&p.mem_.ends->head, head, taken_run);
    return taken::none;
  }

  // Any thread: false where the next unclaimed position's slot still serves the previous lap.
  __device__ static bool push(const pool_t& p, const room&, ::cuda::std::uint32_t, const T& child)
  {
    const unsigned long long tail = isa::ld_relaxed(&p.mem_.ends->tail);
    for (unsigned long long q = tail;; ++q)
    {
      cell& x                           = at(p, q);
      const ::cuda::std::uint32_t now   = lap(p, q);
      const ::cuda::std::uint32_t state = isa::ld_acquire(&x.state);
      if (state == nil_state(now, nil_kind::nil))
      {
        if (!isa::cas_acq_rel(&x.state, state, nil_state(now, nil_kind::writing)))
        {
          continue; // another push claimed it
        }
        x.e.value = child;
        mark_pushed(x.e, p.state_);
        injected_sleep(p.faults_.publish_delay_ns);
        isa::st_release(&x.state, nil_state(now, nil_kind::task)); // R25: the entry, then the state
        advance(&p.mem_.ends->tail, tail, q + 1);
        steps::sample_occupancy(p, q);
        return true;
      }
      if (relative(state >> 2, now) < 0)
      {
        // The slot still serves an earlier lap: full (head is a hint that lags: an upper bound).
        return full_push(p.state_, q + 1 - isa::ld_relaxed(&p.mem_.ends->head));
      }
    }
  }
};

// Its row (tasks/method_table.h): tag, memory, capacity unit, launch, stealing.
PTXW_TASK_METHOD(::ptxw::tasks::lockfree_queue<::ptxw::tasks::nil_slots>, one_queue, "tasks in the queue", cooperative,
                 false);
} // namespace detail::tasks
PTXW_NAMESPACE_END
