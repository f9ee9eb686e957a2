// ptxw/tasks/checks.h: checked mode's half of the task-pool rules, as hooks the worker
// (tasks/worker.h) and the methods call at each step. With PTXW_CHECKED=0 each hook is nothing but
// the waits' bound, where a sink is attached (outlived).
//
//   lost_ticket       R20: a ticket ended without retire (a lost task; detail: its id)
//   mark_taken        R20: a task taken twice (per-entry taken mark; detail: its id)
//   beyond_reservation R21: a push beyond the fork's reservation (it is refused: full)
//   second_owner      R22: a second owner_end of one deque in one launch
//   may_wait          R24: a wait for work that outlived the sink's bound (the block stops)
//   may_wait_on       R24: a wait on a word of the pool (slot, lock, round) that outlived it (it gives up)
//   wait_until        R24: an acquire spin on a word until it holds a value, bounded by may_wait_on
//   owed_at_end       R26: the pool ended with arrivals its open joins were owed (fewer than opened for)
#pragma once

#include <ptxw/claim/engine.h>
#include <ptxw/core/checked.h>
#include <ptxw/isa/global.h>
#include <ptxw/tasks/pool.h>

#if PTXW_CCCL_FAMILY_HEADERS
#  include <cuda/__ptx/instructions/get_sreg.h>
#endif

PTXW_NAMESPACE_BEGIN
namespace detail::tasks {
// An id too wide for a report's 32-bit fields is reported as its low word (phase) and high word (detail).
__device__ inline void report_id([[maybe_unused]] const checked::sink* sink, [[maybe_unused]] rule r,
                                 [[maybe_unused]] unsigned long long id, [[maybe_unused]] const char* what)
{
#if PTXW_CHECKED
  checked::report(sink, r, 0, static_cast<::cuda::std::uint32_t>(id), static_cast<::cuda::std::uint32_t>(id >> 32),
                  what);
#endif
}

// R20, where a ticket ends: by the leader only (every thread holds a copy of the ticket).
__device__ inline void lost_ticket([[maybe_unused]] bool present, [[maybe_unused]] unsigned long long id,
                                   [[maybe_unused]] const checked::sink* sink)
{
#if PTXW_CHECKED
  if (present && claim::leads())
  {
    report_id(sink, rule::exactly_once, id, " (a task's ticket ended without retire: the task is lost; phase: its id)");
  }
#endif
}

// R20, by the taker of an entry: its taken mark goes 0 -> 1; a 1 found is a second taker.
template <class T>
__device__ void mark_taken([[maybe_unused]] entry<T>& e, [[maybe_unused]] const checked::sink* sink)
{
#if PTXW_CHECKED
  if (atomicExch(&e.taken, 1u) != 0)
  {
    report_id(sink, rule::exactly_once, e.id, " (a task taken twice; phase: its id)");
  }
#endif
}

// Checked builds: a pushed entry gets the next id and an unset taken mark.
template <class T>
__device__ void mark_pushed([[maybe_unused]] entry<T>& e, [[maybe_unused]] ::ptxw::tasks::pool_state* s)
{
#if PTXW_CHECKED
  e.id    = atomicAdd(&s->next_id, 1ull);
  e.taken = 0;
#endif
}

template <class T>
__device__ unsigned long long id_of([[maybe_unused]] const entry<T>& e)
{
#if PTXW_CHECKED
  return e.id;
#else
  return 0;
#endif
}

// R21: the k-th push of a fork that reserved n. False (reported) beyond the reservation: the push
// is refused, as if the queue were full, so that the child is not published uncounted.
__device__ inline bool within_reservation(unsigned k, unsigned n, [[maybe_unused]] const checked::sink* sink)
{
  if (k < n)
  {
    return true;
  }
#if PTXW_CHECKED
  checked::report(sink, rule::exact_termination, 0, k + 1, n,
                  " (more pushes than the fork reserved; phase: the push's number, detail: the reservation)");
#endif
  return false;
}

// R22, by the leader at join: the deque's owner word takes this launch's id; finding it already
// there is a second owner_end of the deque (a second join in the block).
__device__ inline void second_owner([[maybe_unused]] unsigned long long* owner, [[maybe_unused]] unsigned queue,
                                    [[maybe_unused]] const checked::sink* sink)
{
#if PTXW_CHECKED
  const unsigned long long me = ptx::get_sreg_gridid() + 1;
  if (atomicExch(owner, me) == me)
  {
    checked::report(sink, rule::owner_and_thief, 0, queue, 0,
                    " (a second join: two owner ends of one deque; phase: the deque)");
  }
#endif
}

// R24: true once a wait that began at `start` (0 until the first failed try sets it) has outlived
// the sink's bound (checked builds without a sink: the default bound). Unchecked builds bound their
// waits only where the pool has a sink (pool_host::attach): a task may legitimately run longer than
// any bound the library would choose, so there the bound is the user's; without one a lost task
// keeps every worker waiting and the kernel never returns.
__device__ inline bool outlived(unsigned long long& start, const checked::sink* sink)
{
  if (!checked::on && sink == nullptr)
  {
    return false;
  }
  const unsigned long long now = checked::now_ns();
  if (start == 0)
  {
    start = now;
    return false;
  }
  return now - start > checked::timeout_ns(sink);
}

// R24, the leader's wait for work: true while it may go on waiting. A wait longer than the bound
// (outlived) stops; checked builds report it (detail: the live count seen, low word).
__device__ inline bool may_wait(unsigned long long& start, [[maybe_unused]] unsigned long long live,
                                [[maybe_unused]] const checked::sink* sink)
{
  if (!outlived(start, sink))
  {
    return true;
  }
#if PTXW_CHECKED
  checked::report(sink, rule::resident_workers, 0, 0, static_cast<::cuda::std::uint32_t>(live),
                  " (a wait for work outlived its bound: a worker not resident, or a task never retired; "
                  "detail: live tasks)");
#endif
  return false;
}

// R24, a wait on one word of a pool for `awaited` (a ring slot's turn, the lock, the round's
// barrier): true while it may go on. Such a wait ends when other workers finish a step they began
// (a push that drew its position, a take that is reading, the lock's holder, the round's tasks);
// one that does not stops at the bound (outlived); checked builds report it (address: the word's,
// low bits; phase: the value awaited, low word; detail: the value seen).
__device__ inline bool may_wait_on(unsigned long long& start, [[maybe_unused]] const void* word,
                                   [[maybe_unused]] unsigned long long awaited,
                                   [[maybe_unused]] unsigned long long seen, [[maybe_unused]] const checked::sink* sink)
{
  if (!outlived(start, sink))
  {
    return true;
  }
#if PTXW_CHECKED
  checked::report(sink, rule::resident_workers, static_cast<::cuda::std::uint32_t>(reinterpret_cast<::cuda::std::uintptr_t>(word)),
                  static_cast<::cuda::std::uint32_t>(awaited), static_cast<::cuda::std::uint32_t>(seen),
                  " (a wait on a pool's word (slot, lock, round) outlived its bound: a worker stopped inside a step, "
                  "or held a task; barrier/slot: the word, phase: the value awaited, detail: the value seen)");
#endif
  return false;
}

// Until an ld.acquire of *word reads `value`, sleeping sleep_ns between reads; false where the
// wait gave up at its bound (may_wait_on).
template <class W>
__device__ bool wait_until(const W* word, W value, unsigned sleep_ns, const checked::sink* sink)
{
  unsigned long long since = 0;
  for (W seen; (seen = isa::ld_acquire(word)) != value;)
  {
    if (!may_wait_on(since, word, value, seen, sink))
    {
      return false;
    }
    __nanosleep(sleep_ns);
  }
  return true;
}

// R26, by the one thread that ends the pool, after an acquire of every task's retire (the retire
// that brought live to 0, the static list's last round end): arrivals still owed mean a join
// opened for more tasks than arrived, whose continuation never ran.
__device__ inline void owed_at_end([[maybe_unused]] const ::ptxw::tasks::pool_state* s,
                                   [[maybe_unused]] const checked::sink* sink)
{
#if PTXW_CHECKED
  const unsigned long long owed = isa::ld_relaxed(&s->arrivals_owed);
  if (owed != 0)
  {
    checked::report(sink, rule::one_arrival, 0, 0, static_cast<::cuda::std::uint32_t>(owed),
                    " (the pool ended with arrivals owed: a join got fewer arrivals than it was opened for, and "
                    "its continuation did not run; detail: the arrivals missing)");
  }
#endif
}
} // namespace detail::tasks
PTXW_NAMESPACE_END
