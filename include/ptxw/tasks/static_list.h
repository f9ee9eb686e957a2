// ptxw/tasks/static_list.h: Cederman and Tsigas's static task list, in two forms that share
// everything but the end of a round. A round's tasks are an `in` list, read-only, handed out by one cursor (as
// the work queue does); their children are appended to an `out` list (atom.add on its size). When
// `in` is exhausted, the round ends: its `in` list, emptied, becomes the next round's `out`. A
// round of no tasks ends the pool (R21: every task of the last round has retired by then, so none
// can appear).
//   static_list        one co-resident launch; a round ends at a grid barrier, whose last arrival
//                      ends it for all. Memory order: pushes write their entry and count it with
//                      relaxed atomics; the barrier's arrival (atom.acq_rel.add, after the block's
//                      barrier that follows its pushes) and its release (st.release of the
//                      generation, ld.acquire by the waiters) publish them (R25). The barrier needs
//                      every block resident: pool_host launches cooperatively (R24); checked mode
//                      bounds the wait.
//   static_list_graph  one launch a round, in a CUDA graph's conditional WHILE node: a block's
//                      next() is empty once the round's `in` list is exhausted (its kept children
//                      run first), so the kernel returns; the one-thread advance kernel after it
//                      ends the round and sets the loop's condition. Nothing waits, so any grid
//                      size is right (R24 does not apply). Memory order: the kernel boundary
//                      orders every push of a round before the advance and the next round (R25).
#pragma once

#include <ptxw/isa/global.h>
#include <ptxw/tasks/checks.h>

PTXW_NAMESPACE_BEGIN
namespace tasks {
// Rounds of one co-resident launch, at a grid barrier. Capacity: tasks per list (one round's).
struct static_list
{};
// The same rounds, one launch each, in a CUDA graph's WHILE node; any grid. Capacity: tasks per list.
struct static_list_graph
{};
} // namespace tasks

namespace detail::tasks {
struct alignas(128) static_list_state
{
  unsigned long long size[2]; // tasks appended to each list (may pass the capacity: pushes beyond are full)
  unsigned long long cursor[2]; // tasks handed out of each list
  ::cuda::std::uint32_t arrived; // blocks at the barrier (static_list)
  ::cuda::std::uint32_t generation; // rounds completed
};

template <class T>
struct static_list_memory
{
  static_list_state* lists;
  entry<T>* entries; // list k at entries + k * capacity
  ::cuda::std::uint32_t capacity;
};

// The end of a round, by one thread once every task of the round has retired: the barrier's last
// arrival (static_list) or the advance kernel (static_list_graph).
template <class Pool>
struct static_list_rounds
{
  // Ends round `round`: its `in` list, emptied, is the next round's `out`. True where the next
  // round has tasks; false: the pool is finished.
  __device__ static bool end(const Pool& p, ::cuda::std::uint32_t round)
  {
    static_list_state& s               = *p.mem_.lists;
    const ::cuda::std::uint32_t in     = round & 1u;
    s.size[in]                         = 0;
    s.cursor[in]                       = 0;
    const bool more                    = s.size[in ^ 1u] != 0;
    if (!more)
    {
      p.state_->live = 0;
      owed_at_end(p.state_, p.sink_); // the pool ends here (R26)
    }
    return more;
  }

  // static_list: every block's leader once its `in` list is exhausted; false where the wait
  // outlived checked mode's bound (R24). The last arrival ends the round for all.
  __device__ static bool arrive(const Pool& p, ::cuda::std::uint32_t round)
  {
    static_list_state& s               = *p.mem_.lists;
    const ::cuda::std::uint32_t blocks = gridDim.x * gridDim.y * gridDim.z;
    if (isa::add_acq_rel(&s.arrived, 1u) == blocks - 1)
    {
      s.arrived = 0;
      (void) end(p, round);
      isa::st_release(&s.generation, round + 1);
      return true;
    }
    return wait_until(&s.generation, round + 1, 64, p.sink_); // only the last arrival moves it
  }

  // static_list_graph: the advance kernel's one thread, after a round's launch has returned.
  __device__ static void advance(const Pool& p, cudaGraphConditionalHandle loop)
  {
    static_list_state& s               = *p.mem_.lists;
    const ::cuda::std::uint32_t round  = s.generation;
    const bool more                    = end(p, round);
    s.generation                       = round + 1;
    cudaGraphSetConditional(loop, more ? 1u : 0u);
  }
};

// Both forms' protocol; Method picks how a block meets the end of a round.
template <class T, class Method>
struct static_list_backend
{
  using pool_t = ::ptxw::tasks::pool<T, Method>;
  using memory = static_list_memory<T>;
  struct local
  {
    ::cuda::std::uint32_t round; // rounds done
    unsigned long long size; // the current round's tasks
  };
  struct room
  {
    ::cuda::std::uint32_t out; // the list this round appends to
  };
  static constexpr bool counts_at_fork = false;
  static constexpr bool counts_live    = false; // a round of no tasks is the end
  static constexpr bool one_round      = ::ptxw::tasks::ends_each_round_v<Method>; // a launch a round

  // The round's size, read after its start is ordered (launch, or the barrier's acquire).
  __device__ static void begin(const pool_t& p, local& l)
  {
    const unsigned long long n = isa::ld_relaxed(&p.mem_.lists->size[l.round & 1u]);
    l.size                     = n < p.mem_.capacity ? n : p.mem_.capacity;
  }

  __device__ static void open(const pool_t& p, local& l)
  {
    l.round = one_round ? p.mem_.lists->generation : 0u; // static_list: no block ends round 0 before all open
    begin(p, l);
  }

  __device__ static taken take(const pool_t& p, local& l, entry<T>& out, ::ptxw::tasks::counters&)
  {
    for (;;)
    {
      const ::cuda::std::uint32_t in = l.round & 1u;
      const unsigned long long i     = atomicAdd(&p.mem_.lists->cursor[in], 1ull);
      if (i < l.size)
      {
        entry<T>& e = p.mem_.entries[static_cast<unsigned long long>(in) * p.mem_.capacity + i];
        out         = e;
        mark_taken(e, p.sink_);
        return taken::got;
      }
      if (one_round || !static_list_rounds<pool_t>::arrive(p, l.round))
      {
        return taken::finished;
      }
      ++l.round;
      begin(p, l);
      if (l.size == 0)
      {
        return taken::finished;
      }
    }
  }

  __device__ static room reserve(const pool_t&, const local& l)
  {
    return {(l.round + 1u) & 1u};
  }

  // Any thread: append to this round's `out` list; false where it is full.
  __device__ static bool push(const pool_t& p, const room& r, ::cuda::std::uint32_t, const T& child)
  {
    const unsigned long long i = atomicAdd(&p.mem_.lists->size[r.out], 1ull);
    if (i >= p.mem_.capacity)
    {
      return full_push(p.state_, i + 1);
    }
    entry<T>& e = p.mem_.entries[static_cast<unsigned long long>(r.out) * p.mem_.capacity + i];
    e.value     = child;
    mark_pushed(e, p.state_);
    if ((i & 63u) == 0) // occupancy, sampled by every 64th push
    {
      atomicMax(&p.state_->max_occupancy, i + 1);
    }
    return true;
  }

  __device__ static void publish(const pool_t&, local&, ::cuda::std::uint32_t) {}
  __device__ static void close(const pool_t&, const local&) {}
};

template <class T>
struct backend<T, ::ptxw::tasks::static_list> : static_list_backend<T, ::ptxw::tasks::static_list>
{};

// static_list_graph's advance kernel, <<<1, 1>>> after each round in pool_host's graph.
template <class T>
__global__ void static_list_advance(::ptxw::tasks::pool<T, ::ptxw::tasks::static_list_graph> p,
                                    cudaGraphConditionalHandle loop)
{
  static_list_rounds<::ptxw::tasks::pool<T, ::ptxw::tasks::static_list_graph>>::advance(p, loop);
}

template <class T>
struct backend<T, ::ptxw::tasks::static_list_graph> : static_list_backend<T, ::ptxw::tasks::static_list_graph>
{
  // The kernel pool_host's round graph runs after each round (launch_form::round_graph,
  // tasks/method_table.h): (pool, the WHILE node's handle).
  __host__ static const void* round_kernel()
  {
    return reinterpret_cast<const void*>(static_list_advance<T>);
  }
};

// Their rows (tasks/method_table.h): tag, memory, capacity unit, launch, stealing.
PTXW_TASK_METHOD(::ptxw::tasks::static_list, round_lists, "tasks per list", cooperative, false);
PTXW_TASK_METHOD(::ptxw::tasks::static_list_graph, round_lists, "tasks per list", round_graph, false);
} // namespace detail::tasks
PTXW_NAMESPACE_END
