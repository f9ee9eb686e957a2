// ptxw/tasks/pool.h: a task pool as a kernel sees it -- pool<T, Method>, a kernel parameter made
// only by pool_host::view() (ptxw/tasks/host/pool_host.h) -- its global state, the entries its queues hold,
// and the fault-injection knobs the tests turn.
#pragma once

#include <ptxw/core/checked.h>
#include <ptxw/core/rules.h>
#include <ptxw/tasks/method_table.h>

#include <cuda/std/cstddef>
#include <cuda/std/cstdint>

PTXW_NAMESPACE_BEGIN
namespace tasks {
template <class T, class Method>
class pool_host;

// What a pool counted in a launch, summed over its blocks (pool_host::stats()).
struct counters
{
  unsigned long long tasks_run; // tickets handed out by next()
  unsigned long long steals_tried; // steal attempts on a victim that had a task (stealing_deques)
  unsigned long long steals_won;
  unsigned long long failed_cas; // takes that lost a race: a CAS (or an injected failure; the deques, nil_slots),
                                 // a lock try (locked_queue), a reservation undone on an empty ring (ticket_ring)
  unsigned long long kept; // children run by their own block: keep() after a full push
  unsigned long long full; // pushes that found the queue full
};

// Fault injection, for tests (pool_host::inject): every run must still end with each task run
// exactly once, or with a named report. Rates are thresholds of a 32-bit hash (p * 2^32).
struct faults
{
  ::cuda::std::uint32_t spurious_cas; // a CAS fails without trying, at this rate
  ::cuda::std::uint32_t publish_delay_ns; // a sleep before each publication of pushed tasks
  ::cuda::std::uint32_t owner_stall_ns; // chase_lev: a sleep in pop between the bottom store and its fence
  ::cuda::std::uint32_t late_store_ns; // chase_lev: pop's bottom store held as in a store buffer (tasks/deque.h)
  ::cuda::std::uint32_t steal_only; // the deques: no block pops; every task is stolen (its own deque too)
  ::cuda::std::uint32_t thief_stall_ns; // the deques: a sleep in steal between the entry's read and the CAS
  ::cuda::std::uint32_t capacity; // host side: each queue's capacity forced to this (0: as asked)
  ::cuda::std::uint32_t seed;
};

// The pool's global state, one per pool.
struct alignas(128) pool_state
{
  unsigned long long live; // queued + running tasks (R21): 0 <=> the pool is finished
  ::cuda::std::uint32_t tag; // detail::tasks::pool_tag once initialised (R17)
  ::cuda::std::uint32_t queues; // deques (stealing_deques: the grid's blocks); 1 for the shared queues
  unsigned long long next_id; // checked mode: the id of the next pushed task (seeds: 0..n-1)
  unsigned long long max_occupancy; // the largest occupancy any queue reached (pool_stats says how measured)
  unsigned long long wanted; // the largest occupancy a full push asked for (R23's report); 0: none was full
  unsigned long long arrivals_owed; // checked mode: arrivals the joins forked::open opened still wait for (R26)
  counters sum;
};
} // namespace tasks

namespace detail::tasks {
// "tttt", as the work queue's tag.
inline constexpr ::cuda::std::uint32_t pool_tag = 0x7474'7474u;

// A push found its queue full where it would have made it hold `occupancy` tasks (R23: the
// host's report names the capacity that would have held them). Returns false, the push's result.
__device__ inline bool full_push(::ptxw::tasks::pool_state* s, unsigned long long occupancy)
{
  atomicMax(&s->wanted, occupancy);
  return false;
}

// Checked builds mark each entry with its task's id and a taken flag (R20's reports); unchecked
// builds keep the task alone (an empty base).
#if PTXW_CHECKED
struct entry_marks
{
  unsigned long long id;
  ::cuda::std::uint32_t taken;
};
#else
struct entry_marks
{};
#endif

// What a queue slot holds.
template <class T>
struct entry : entry_marks
{
  T value;
};

// Seed `id`'s entry, as the host places it (tasks/host/method_memory.h): an unset taken mark.
template <class T>
__host__ __device__ entry<T> seed_entry(const T& v, [[maybe_unused]] ::cuda::std::size_t id)
{
  entry<T> e{};
#if PTXW_CHECKED
  e.id    = id;
  e.taken = 0;
#endif
  e.value = v;
  return e;
}

// Tasks are copied by cudaMemcpy and handed to the block by value.
template <class T>
inline constexpr bool task_ok = __is_trivially_copyable(T) && __is_constructible(T);

// The calling block's worker index (owner_end::worker): its rank in the grid, x fastest.
__device__ inline ::cuda::std::uint32_t block_rank()
{
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

// One try of a method's leader for a task.
enum class taken : unsigned
{
  got, // a task
  none, // none now; more may come while tasks are live
  finished // none will come (static_list: an empty round; static_list_graph: this round's list is exhausted)
};

// A leader's pseudo-random numbers (victims, injected faults): xorshift32, never 0.
__device__ inline ::cuda::std::uint32_t next_random(::cuda::std::uint32_t& x)
{
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return x;
}

// An injected fault that fires at `rate` (of 2^32).
__device__ inline bool injected(::cuda::std::uint32_t rate, ::cuda::std::uint32_t& rng)
{
  return rate != 0 && next_random(rng) < rate;
}

// An injected stall of `ns` (0: none) -- a publication delayed, an owner or a thief held up.
__device__ inline void injected_sleep(::cuda::std::uint32_t ns)
{
  if (ns != 0)
  {
    __nanosleep(ns);
  }
}

// The protocol of each method, in the method's file with its row (tasks/method_table.h; the
// library's: tasks/methods.h): its device memory (`memory`, inside the pool), the leader's
// registers (`local`), a task's room for its pushes (`room`) and its operations (open, take,
// reserve, push, publish, close; counts_at_fork and counts_live say how the live count is kept,
// tasks/worker.h). It is the pool's friend; so are the shared pieces below that methods derive from.
template <class T, class Method>
struct backend;
template <class T, class Method, class Ends, class Kind>
struct block_deques; // tasks/block_deques.h
template <class Pool>
struct shared_queue_steps; // tasks/shared_queue.h
template <class T, class Method>
struct locked_steps; // tasks/locked_queue.h
template <class Pool>
struct static_list_rounds; // tasks/static_list.h
template <class T, class Method>
struct static_list_backend;
} // namespace detail::tasks

namespace tasks {
// A block's children kept to run itself when a queue is full (worker_slot's third argument).
inline constexpr unsigned default_keep = 8;
template <class T, class Method, unsigned Keep = default_keep>
class worker_slot;
template <class T, class Method, unsigned Keep>
class owner_end;
template <class T, class Method>
class forked;

// The pool as a kernel sees it.
template <class T, class Method>
class pool
{
  static_assert(detail::tasks::task_ok<T>, PTXW_RULE(R20) "a task is copied by cudaMemcpy and handed out by "
                                           "value: T must be trivially copyable and default-constructible");
  static_assert(detail::tasks::has_row<Method>, PTXW_TASK_METHOD_REFUSAL);
  using memory = typename detail::tasks::backend<T, Method>::memory;

  pool_state* state_ = nullptr;
  memory mem_{};
  faults faults_{};
  const checked::sink* sink_ = nullptr;

  struct from_host
  {};
  __host__ __device__ pool(from_host, pool_state* s, const memory& m, const faults& f, const checked::sink* sink)
      : state_(s)
      , mem_(m)
      , faults_(f)
      , sink_(sink)
  {}
  friend class pool_host<T, Method>;
  template <class U, class M, unsigned K>
  friend class owner_end;
  template <class U, class M>
  friend class forked;
  friend struct detail::tasks::backend<T, Method>;
  template <class U, class M, class E, class K>
  friend struct detail::tasks::block_deques;
  friend struct detail::tasks::shared_queue_steps<pool>;
  friend struct detail::tasks::locked_steps<T, Method>;
  friend struct detail::tasks::static_list_rounds<pool>;
  friend struct detail::tasks::static_list_backend<T, Method>;

public:
  template <class Deferred = void>
  __host__ __device__ pool()
  {
    static_assert(detail::dependent_false<Deferred>, PTXW_RULE(R17) "a task pool comes only from its pool_host "
                                                "(launch() or prepare()), which owns and initialises its memory");
  }

  // Every thread of the block, once: this block's owner end (ptxw/tasks/worker.h).
  template <unsigned Keep>
  __device__ owner_end<T, Method, Keep> join(worker_slot<T, Method, Keep>& slot) const;
};
} // namespace tasks
PTXW_NAMESPACE_END
