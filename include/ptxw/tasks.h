// ptxw/tasks.h: dynamic task pools -- tasks that create tasks, run block by block (a whole block
// runs one task), one kernel for every method (sm_70 and newer). The host side: ptxw/tasks/host/pool_host.h.
//
//   template <class Method>
//   __global__ void kernel(ptxw::tasks::pool<node, Method> p, node* spill, unsigned* spilled)
//   {
//     __shared__ ptxw::tasks::worker_slot<node, Method> slot;
//     auto w = p.join(slot);                    // every thread, once per block
//     while (auto t = w.next())                 // every thread together; empty <=> the pool is finished
//     {                                         // (ends_each_round_v: also at each round's end)
//       const node n = *t;                      // by value, the same in every thread
//       ... whole-block work on n, writing what its children read ...
//       auto kids = w.fork(t, 8);               // up to 8 children; they see the block's writes above
//       if (child_needed)                       // any thread(s)
//         if (kids.push(child) == ptxw::tasks::push_result::full
//             && kids.keep(child) == ptxw::tasks::push_result::full)  // kept: this block runs it next
//           spill[atomicAdd(spilled, 1u)] = child;  // neither: the host seeds it into the next launch
//       w.retire(std::move(t), std::move(kids));  // publishes the pushes, ends t exactly once
//     }
//   }
//
// Methods: the library's are listed in tasks/methods.h, a file each; what each is -- its memory,
// capacity unit, launch and whether it steals -- is its row of the method table
// (tasks/method_table.h), which the device side and the host both read. A method is added as its
// own file and row (docs/task-queues.md, "Adding a method"); a pool of a Method without a row does
// not compile (R10). Rules R20-R26 (ptxw/core/rules.h, docs/rules.md; the memory order of each
// operation: docs/task-queues.md):
//   R20 exactly once: the ticket is move-only and ends in retire; checked mode reports a ticket
//       that ends otherwise (a lost task) and a task taken twice, with the task's id.
//   R21 exact termination: a pool counts its live tasks (queued + running); children are counted
//       before their parent stops counting, so next() is empty only when none is live.
//   R22 owner and thief: a block owns one deque (checked: a second join); a thief end only steals.
//   R23 no overwrite: push returns a [[nodiscard]] push_result; full is never an overwrite.
//   R24 resident workers: the host launches at most the resident grid; checked mode reports a wait
//       (for work, a ring slot, the lock, the round's barrier) that outlives the sink's bound
//       instead of hanging (static_list_graph: nothing waits, any grid).
//   R25 published before read: a pushed task is read only after a release that follows its write;
//       its runner sees what the block wrote before fork() and the pusher before its push (with
//       push_synced: the block before that call); when it may start: publication_v<Method>.
//   R26 one arrival: a join (tasks/join.h: n tasks, the last to arrive goes on) is arrived at once
//       by each of the n tasks it was opened for; checked mode reports the others.
#pragma once

#include <ptxw/tasks/join.h>
#include <ptxw/tasks/methods.h> // every method's file, one line each (tasks/method_table.h: a method's row)
#include <ptxw/tasks/worker.h>
