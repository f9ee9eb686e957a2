// ptxw/tasks/methods.h: the methods a task pool runs on, as tag types -- the second template
// argument of ptxw::tasks::pool, worker_slot and pool_host. A kernel is written once; the method
// picks the protocol (one file each) and the unit of the host's capacity.
#pragma once

#include <ptxw/core/config.h>

PTXW_NAMESPACE_BEGIN
namespace tasks {
// The kinds of stealing_deques: per-block deques in global memory, the owner block pushes and pops
// at the bottom, idle blocks steal at the top. Capacity: tasks per block's deque (one_word: at
// most 2^23, its positions being mod 2^24).
struct chase_lev // top and bottom in two words, pop and steal each behind a fence.sc (tasks/deque.h)
{};
struct one_word // top, bottom and a pop count in one 64-bit word, every change a CAS (tasks/one_word_deque.h)
{};
template <class Deque>
struct stealing_deques
{};
// The Chase-Lev kind: the default stealing method.
using stealing = stealing_deques<chase_lev>;

// The kinds of lockfree_queue. Capacity: tasks in the one queue.
struct ticket_ring // a bounded MPMC ring, published by each slot's sequence word (tasks/ticket_ring.h)
{};
// Cederman and Tsigas's: NIL-or-task slots, CAS in and out, head and tail advanced lazily
// (tasks/nil_slots.h).
struct nil_slots
{};
template <class Kind>
struct lockfree_queue
{};

// Cederman and Tsigas's blocking queue: one spin lock around both ends (tasks/locked_queue.h).
// Capacity: tasks in the one queue.
struct locked_queue
{};

// Rounds of one co-resident launch: tasks are taken from an `in` list and pushed to an `out` list,
// which a grid barrier swaps (tasks/static_list.h). Capacity: tasks per list (one round's).
struct static_list
{};

// The same rounds, one launch each, in a CUDA graph: a conditional WHILE node runs the kernel and
// a one-thread advance kernel that swaps the lists, until a round is empty (tasks/static_list.h).
// No grid barrier, so the grid may be any size. Capacity: tasks per list (one round's).
struct static_list_graph
{};

// Whether next() is empty at the end of every round, not only once the pool is finished:
// static_list_graph runs one launch a round, so a kernel's code after its next() loop runs once a
// round in every block; the pool is finished when the graph is (pool_host::launch's stream).
// Every other method: next() is empty only once the pool is finished, once per block and launch.
template <class Method>
inline constexpr bool ends_each_round_v = false;
template <>
inline constexpr bool ends_each_round_v<static_list_graph> = true;

// Whether a method is per-block deques with stealing: thief ends (owner_end::victim), a capacity
// per block's deque, and a LIFO owner -- what a kernel may size its forks by.
template <class Method>
inline constexpr bool is_stealing_v = false;
template <class Deque>
inline constexpr bool is_stealing_v<stealing_deques<Deque>> = true;
} // namespace tasks
PTXW_NAMESPACE_END
