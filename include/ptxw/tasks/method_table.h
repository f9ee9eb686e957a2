// ptxw/tasks/method_table.h: the method table -- what each task-pool method is, as one row that
// every layer reads and nothing else restates: the pool and the worker (tasks/pool.h,
// tasks/worker.h), the public traits below, and the host's memory, seeding and launch
// (tasks/host/method_memory.h, tasks/host/pool_host.h). As the CLC backends are
// (ptxw/clc/backend_table.h), a method is its own file: its tag, its device protocol (a
// detail::tasks::backend<T, Method> specialisation, tasks/pool.h), what the host's memory for its
// layout needs from that protocol (memory_layout below says what) and one PTXW_TASK_METHOD row.
// ptxw/tasks/methods.h includes the library's method files, one line each, and is what the front
// door (ptxw/tasks.h) includes; tests/runtime/tasks_method_table_test.cu adds a method in the test
// file, its file and row alone, and runs it through pool_host, join/next/fork/retire and checked
// mode. A pool or pool_host of a type without a row is refused (R10, as a CLC backend without a
// row: tests/codegen/diagnostics/tasks_method_row.cu).
#pragma once

#include <ptxw/core/config.h>
#include <ptxw/core/rules.h>

PTXW_NAMESPACE_BEGIN
namespace detail::tasks {
// Where a method's memory is, and so how the host allocates and seeds it (tasks/host/method_memory.h)
// and what it reads from the method's backend<T, Method>:
//   deque_per_block  one deque per block: `ends_t` ends and `capacity` entry<T> each; the backend's
//                    seeded(n) (a deque's ends holding n seeds) and max_capacity; seed i goes to
//                    deque i % blocks;
//   one_queue        one queue for the pool: queue_ends (tasks/shared_queue.h) and `capacity`
//                    cells of the backend's `cell`, each filled on the device by its `fill`
//                    (position i: seed i, or empty) in the slot its `slots` maps position i to;
//   round_lists      two lists of `capacity` entry<T> and their static_list_state
//                    (tasks/static_list.h): the seeds are round 0's `in` list.
enum class memory_layout : int
{
  deque_per_block,
  one_queue,
  round_lists
};

// How the host launches a method's kernel (R24, pool_host::launch):
//   cooperative  one launch on at most the resident grid: its workers wait for each other's tasks;
//   round_graph  one launch a round in a CUDA graph's WHILE node (tasks/host/round_graph.h): no block
//                waits for another, so any grid; next() ends at each round's end (ends_each_round_v),
//                and the backend's round_kernel() ends the round between two launches.
enum class launch_form : int
{
  cooperative,
  round_graph
};

// One row of the table.
struct method_row
{
  memory_layout memory; // where its memory is (per block or per pool), and how it is seeded
  const char* unit; // what a capacity counts, as R23's messages say it
  launch_form launch; // how its kernel is launched: the grid it takes (R24) and whether rounds end
  bool stealing; // thief ends (owner_end::victim), a capacity per block's deque and a LIFO owner
};

template <class Method>
struct row_of; // a method has a row; anything else is not one

template <class Method, class = void>
inline constexpr bool has_row = false;
template <class Method>
inline constexpr bool has_row<Method, decltype(void(row_of<Method>::value()))> = true;

// The row of a method, or a default row (cooperative, not stealing) for a type without one: what
// the public traits below read, so that they are a plain false for any other type.
template <class Method>
__host__ __device__ constexpr method_row row_or_default()
{
  if constexpr (has_row<Method>)
  {
    return row_of<Method>::value();
  }
  else
  {
    return {memory_layout::one_queue, nullptr, launch_form::cooperative, false};
  }
}
} // namespace detail::tasks

// What pool and pool_host say of a Method without a row (R10, as a CLC backend
// without one: a template argument outside the table).
#define PTXW_TASK_METHOD_REFUSAL                                                                                   \
  PTXW_RULE(R10) "a task pool's method is a tag with a PTXW_TASK_METHOD row (ptxw/tasks/method_table.h; "          \
                 "the library's methods: ptxw/tasks/methods.h)"

// One row: the method's tag and the columns of detail::tasks::method_row. Used in namespace
// ptxw::detail::tasks (PTXW_NAMESPACE_BEGIN namespace detail::tasks { ... } PTXW_NAMESPACE_END), in
// the method's own file, after its backend.
#define PTXW_TASK_METHOD(Tag, Memory, Unit, Launch, Stealing)                                                      \
  template <>                                                                                                       \
  struct row_of<Tag>                                                                                                \
  {                                                                                                                 \
    __host__ __device__ static constexpr method_row value()                                                       \
    {                                                                                                               \
      return {memory_layout::Memory, Unit, launch_form::Launch, Stealing};                                          \
    }                                                                                                               \
  }

namespace tasks {
// Whether next() is empty at the end of every round, not only once the pool is finished: a method
// launched as a round graph (static_list_graph) runs one launch a round, so a kernel's code after
// its next() loop runs once a round in every block; the pool is finished when the graph is
// (pool_host::launch's stream). Every other method: next() is empty only once the pool is
// finished, once per block and launch. False for a type without a row.
template <class Method>
inline constexpr bool ends_each_round_v =
  detail::tasks::row_or_default<Method>().launch == detail::tasks::launch_form::round_graph;

// When a pushed child may start in another block (R25), by where the method's memory is:
//   at_push      the shared queues (one_queue): each push publishes its child;
//   at_publish   the deques (deque_per_block): owner_end::publish, or retire, publishes the children
//                pushed before it, with one release by the block's leader after a barrier;
//   at_round_end the static lists (round_lists): the round's end publishes the round's pushes.
// A type without a row: at_push.
enum class publication : int
{
  at_push,
  at_publish,
  at_round_end
};
template <class Method>
inline constexpr publication publication_v =
  detail::tasks::row_or_default<Method>().memory == detail::tasks::memory_layout::deque_per_block ? publication::at_publish
  : detail::tasks::row_or_default<Method>().memory == detail::tasks::memory_layout::round_lists ? publication::at_round_end
                                                                                               : publication::at_push;

// Whether a method is per-block deques with stealing: thief ends (owner_end::victim), a capacity
// per block's deque, and a LIFO owner -- what a kernel may size its forks by. False for a type
// without a row.
template <class Method>
inline constexpr bool is_stealing_v = detail::tasks::row_or_default<Method>().stealing;
} // namespace tasks
PTXW_NAMESPACE_END
