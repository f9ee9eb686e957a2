// ptxw/tasks/join.h: the last-block guard at task scope. n tasks each do a part of one job and the
// last of them to arrive goes on with the whole -- a node split into n chunk tasks whose last one
// plans the node's children. Tasks arrive, not blocks: one block may run several of the n.
//
//   // in the task that makes the n (one thread opens, then pushes them; or a barrier between):
//   auto kids = w.fork(t, n);
//   kids.open(joins[k], n);
//   for (unsigned i = 0; i < n; ++i) (void) kids.push(chunk{k, i});
//   // in each chunk task, every thread together:
//   ... write this chunk's part ...
//   if (w.last_at(joins[t->k], t))             // true in the block whose arrival was the n-th
//     ... read every part: the n tasks' writes before their arrival are visible ...
//   w.retire(std::move(t), ...);                // arriving does not end the task
//
// Memory order, last_block's, in the steps both use (inter_block/last_arrival.h): bar.sync (every
// thread's part before the leader's arrival), the leader's atom.release.gpu on the count,
// fence.acq_rel.gpu in the block that read n - 1 (the acquire), bar.red.or to tell its threads.
// open() writes plain stores: the push that publishes an arriving task (its release, R25) orders
// them before the arrival.
//
// R26 (one arrival), in checked builds: an arrival at a join that was not opened (or opened for 0),
// a task's second arrival in a row at one join, an arrival without a task, and an arrival beyond
// the n opened for are reported (the join's address, the count seen) and return false. Fewer
// arrivals than n leave the join incomplete and its continuation not run: the pool counts the
// arrivals its open joins are owed (open adds n, an arrival takes one) and whoever ends the pool
// reports what is still owed (checks.h, owed_at_end). Only joins forked::open opened are counted,
// marked in the top bit of `expected`; a join the host wrote is not.
#pragma once

#include <ptxw/inter_block/last_arrival.h>
#include <ptxw/tasks/checks.h>

PTXW_NAMESPACE_BEGIN
namespace tasks {
// A join in global memory, anywhere the tasks can reach (the pool does not own it).
struct join_point
{
  ::cuda::std::uint32_t arrived; // arrivals so far
  ::cuda::std::uint32_t expected; // the n it was opened for (below 2^31); 0: not open (R26)
};
} // namespace tasks

namespace detail::tasks {
// Checked builds: the top bit of `expected` marks a join whose arrivals the pool counts as owed.
inline constexpr ::cuda::std::uint32_t owed_mark = checked::on ? 0x8000'0000u : 0u;

// One thread (forked::open): j is to be arrived at by n tasks about to be pushed. Reopening a
// join whose arrivals are all done reuses it.
__device__ inline void open(::ptxw::tasks::join_point& j, ::cuda::std::uint32_t n,
                            [[maybe_unused]] ::ptxw::tasks::pool_state* s)
{
  j.arrived  = 0;
  j.expected = n | owed_mark;
  if constexpr (checked::on)
  {
    isa::add_relaxed(&s->arrivals_owed, n);
  }
}

// R26's address field: the join's address, low bits.
__device__ inline ::cuda::std::uint32_t join_address(const ::ptxw::tasks::join_point& j)
{
  return static_cast<::cuda::std::uint32_t>(reinterpret_cast<::cuda::std::uintptr_t>(&j));
}

// The leader's arrival at j for a task (present: the ticket holds one); `last_joined` is the join
// the block's current task arrived at last (checked builds). True where it was the n-th.
__device__ inline bool arrive(::ptxw::tasks::join_point& j, [[maybe_unused]] bool present,
                             [[maybe_unused]] const ::ptxw::tasks::join_point*& last_joined,
                             [[maybe_unused]] ::ptxw::tasks::pool_state* s,
                             [[maybe_unused]] const checked::sink* sink)
{
  const ::cuda::std::uint32_t expected = j.expected; // written before the push that published this task
  const ::cuda::std::uint32_t n        = expected & ~owed_mark;
#if PTXW_CHECKED
  const char* refused = !present        ? " (an arrival without a task: after retire, or an empty ticket; "
                                          "barrier/slot: the join)"
                      : n == 0          ? " (an arrival at a join that was not opened; barrier/slot: the join)"
                      : last_joined == &j ? " (a task's second arrival at one join; barrier/slot: the join)"
                                        : nullptr;
  if (refused != nullptr)
  {
    checked::report(sink, rule::one_arrival, join_address(j), 0, n, refused);
    return false;
  }
  last_joined = &j;
#endif
  const ::cuda::std::uint32_t before = arrive_release(&j.arrived);
#if PTXW_CHECKED
  if (before >= n)
  {
    checked::report(sink, rule::one_arrival, join_address(j), before + 1, n,
                    " (more arrivals than the join was opened for; barrier/slot: the join, phase: this "
                    "arrival's number, detail: the n opened for)");
    return false;
  }
  if (expected & owed_mark)
  {
    isa::add_relaxed(&s->arrivals_owed, ~0ull); // one fewer owed
  }
#endif
  return acquired_if_last(before, n - 1);
}

// Every thread of the block: the task's arrival (owner_end::last_at), true in every thread where
// it was the n-th.
__device__ inline bool last_at(::ptxw::tasks::join_point& j, bool present,
                               const ::ptxw::tasks::join_point*& last_joined, ::ptxw::tasks::pool_state* s,
                               const checked::sink* sink)
{
  return block_arrival([&] { return arrive(j, present, last_joined, s, sink); });
}
} // namespace detail::tasks
PTXW_NAMESPACE_END
