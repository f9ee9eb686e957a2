// R17, R20, R21, R22, R23, R26 for ptxw/tasks.h: a pool exists only as the view of a pool_host (a
// default-made one does not compile); a task's ticket and a fork's reservation are not copied; a
// thief end does not pop, and only the deques have thief ends; a push's result and a join
// arrival's are not discarded.
// REQUIRES: target-sm_90a
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_DEFAULT_POOL -DCASE_TICKET_COPY -DCASE_TICKET_ASSIGN \
// RUN:  -DCASE_FORK_COPY -DCASE_THIEF_POP -DCASE_PUSH_DISCARDED -DCASE_KEEP_DISCARDED -DCASE_QUEUE_VICTIM \
// RUN:  -DCASE_ARRIVAL_DISCARDED %s 2>&1 \
// RUN:   | FileCheck %s \
// RUN:  --check-prefixes=DEFAULT_POOL,TICKET_COPY,TICKET_ASSIGN,FORK_COPY,THIEF_POP,PUSH_DISCARDED \
// RUN:  --check-prefixes=KEEP_DISCARDED,QUEUE_VICTIM,ARRIVAL_DISCARDED,CASES
// The cases compile together, once: each is one error at its line (-DAG checks: nvcc reports
// template instantiation errors at the end of the translation unit, out of source order), and
// the total is the number of cases (the last line).
//
// Without a CASE the file compiles: the contract's loop, a join's arrival, a steal through a thief
// end (both kinds of deque).

#include <ptxw/tasks.h>

struct node
{
  unsigned id;
};

__global__ void tasks_rules(ptxw::tasks::pool<node, ptxw::tasks::stealing> p, ptxw::tasks::join_point* joins,
                            unsigned* out)
{
  __shared__ ptxw::tasks::worker_slot<node, ptxw::tasks::stealing> slot;
  auto w = p.join(slot);
  while (auto t = w.next())
  {
    auto kids = w.fork(t, 2);
    if (threadIdx.x < 2 && kids.push(node{2 * t->id + threadIdx.x}) == ptxw::tasks::push_result::full)
    {
      out[0] = kids.keep(node{2 * t->id + threadIdx.x}) == ptxw::tasks::push_result::full;
    }
    if (w.last_at(joins[t->id], t))
    {
      out[1] = t->id;
    }
    w.retire(std::move(t), std::move(kids));
  }
  if (auto stolen = w.victim(0).steal())
  {
    w.retire(std::move(stolen));
  }

#if defined(CASE_DEFAULT_POOL)
  // DEFAULT_POOL-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R17 initialised: a task pool comes only from its pool_host (launch() or prepare())
  // DEFAULT_POOL-DAG: at line [[#@LINE+1]] of
  ptxw::tasks::pool<node, ptxw::tasks::stealing> uninitialised;
  (void) uninitialised;
#endif

#if defined(CASE_TICKET_COPY)
  if (auto t = w.next())
  {
    // TICKET_COPY-DAG: tasks_rules.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R20 exactly once: a task's ticket is not copied
    auto copy = t;
    w.retire(std::move(copy));
  }
#endif

#if defined(CASE_TICKET_ASSIGN)
  auto a = w.next();
  auto b = w.next();
  // TICKET_ASSIGN-DAG: tasks_rules.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R20 exactly once: a task's ticket is not assigned
  a = b;
#endif

#if defined(CASE_FORK_COPY)
  if (auto t = w.next())
  {
    auto kids = w.fork(t, 1);
    // FORK_COPY-DAG: tasks_rules.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R21 exact termination: a fork's reservation is not copied
    auto twice = kids;
    w.retire(std::move(t), std::move(twice));
  }
#endif

#if defined(CASE_THIEF_POP)
  // THIEF_POP-DAG: tasks_rules.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R22 owner and thief: a thief end only steals, at the top
  auto popped = w.victim(1).pop();
#endif

#if defined(CASE_PUSH_DISCARDED)
  if (auto t = w.next())
  {
    auto kids = w.fork(t, 1);
    // PUSH_DISCARDED-DAG: tasks_rules.cu([[#@LINE+1]]): error #3001-D: ignoring return value type with "nodiscard" attribute ("ptxw: R23 no overwrite: a push's result says whether the child was pushed
    kids.push(node{1});
    w.retire(std::move(t), std::move(kids));
  }
#endif

#if defined(CASE_ARRIVAL_DISCARDED)
  if (auto t = w.next())
  {
    // ARRIVAL_DISCARDED-DAG: tasks_rules.cu([[#@LINE+1]]): error #3000-D: ignoring return value from routine declared with "nodiscard" attribute ("ptxw: R26 one arrival: last_at says whether this arrival was the last
    w.last_at(joins[0], t);
    w.retire(std::move(t));
  }
#endif

#if defined(CASE_KEEP_DISCARDED)
  if (auto t = w.next())
  {
    auto kids = w.fork(t, 1);
    // KEEP_DISCARDED-DAG: tasks_rules.cu([[#@LINE+1]]): error #3001-D: ignoring return value type with "nodiscard" attribute ("ptxw: R23 no overwrite:
    kids.keep(node{1});
    w.retire(std::move(t), std::move(kids));
  }
#endif
}

// The thief end on the other kind of deque.
__global__ void one_word_steals(ptxw::tasks::pool<node, ptxw::tasks::stealing_deques<ptxw::tasks::one_word>> p)
{
  __shared__ ptxw::tasks::worker_slot<node, ptxw::tasks::stealing_deques<ptxw::tasks::one_word>> slot;
  auto w = p.join(slot);
  if (auto stolen = w.victim(0).steal())
  {
    w.retire(std::move(stolen));
  }
  while (auto t = w.next())
  {
    w.retire(std::move(t));
  }
}

#if defined(CASE_QUEUE_VICTIM)
__global__ void queue_victim(ptxw::tasks::pool<node, ptxw::tasks::lockfree_queue<ptxw::tasks::ticket_ring>> p)
{
  __shared__ ptxw::tasks::worker_slot<node, ptxw::tasks::lockfree_queue<ptxw::tasks::ticket_ring>> slot;
  auto w = p.join(slot);
  // QUEUE_VICTIM-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R22 owner and thief: only the stealing methods (stealing_deques<...>) have thief ends"
  // QUEUE_VICTIM-DAG: at line [[#@LINE+1]] of
  (void) w.victim(0);
}
#endif

// CASES: 9 errors detected in the compilation of
