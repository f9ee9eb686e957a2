// ptxw/tasks/static_list.h: static_list -- the seed's static task list, in one co-resident
// launch: a round's tasks are an `in` list, read-only, handed out by one cursor (as the work queue
// does); their children are appended to an `out` list (atom.add on its size). When `in` is
// exhausted, every block meets at a grid barrier; the last to arrive swaps the lists (the next
// round's `out` is emptied) and releases the others. A round of no tasks ends the pool (R21: every
// task of the last round has retired by then, so none can appear).
// Memory order: pushes write their entry and count it with relaxed atomics; the barrier's arrival
// (atom.acq_rel.add, after the block's barrier that follows its pushes) and its release
// (st.release of the generation, ld.acquire by the waiters) publish them (R25). The barrier needs
// every block resident: pool_host launches cooperatively (R24); checked mode bounds the wait.
#pragma once

#include <ptxw/tasks/checks.h>
#include <ptxw/detail/isa/global.h>

PTXW_NAMESPACE_BEGIN
namespace detail::tasks {
struct alignas(128) static_list_state
{
  unsigned long long size[2]; // tasks appended to each list (may pass the capacity: pushes beyond are full)
  unsigned long long cursor[2]; // tasks handed out of each list
  ::cuda::std::uint32_t arrived; // blocks at the barrier
  ::cuda::std::uint32_t generation; // rounds completed
};

template <class T>
struct static_list_memory
{
  static_list_state* lists;
  entry<T>* entries; // list k at entries + k * capacity
  ::cuda::std::uint32_t capacity;
};

template <class Pool>
struct static_list_barrier
{
  // Every block's leader once its `in` list is exhausted; false where the wait outlived checked
  // mode's bound (R24). The last arrival empties the list that becomes the next round's `out`.
  __device__ static bool arrive(const Pool& p, ::cuda::std::uint32_t round)
  {
    static_list_state& s                 = *p.mem_.lists;
    const ::cuda::std::uint32_t blocks   = gridDim.x * gridDim.y * gridDim.z;
    if (isa::add_acq_rel(&s.arrived, 1u) == blocks - 1)
    {
      const ::cuda::std::uint32_t next_out = round & 1u; // this round's `in`
      s.size[next_out]                     = 0;
      s.cursor[next_out]                   = 0;
      s.arrived                            = 0;
      if (s.size[next_out ^ 1u] == 0) // an empty round next: the pool is finished
      {
        p.state_->live = 0;
      }
      isa::st_release(&s.generation, round + 1);
      return true;
    }
    unsigned long long since = 0;
    while (isa::ld_acquire(&s.generation) == round)
    {
      if (!may_wait(since, round, p.sink_))
      {
        return false;
      }
      __nanosleep(64);
    }
    return true;
  }
};

template <class T>
struct backend<T, ::ptxw::tasks::static_list>
{
  using pool_t = ::ptxw::tasks::pool<T, ::ptxw::tasks::static_list>;
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

  __device__ static void open(const pool_t& p, local& l)
  {
    l.round = 0;
    l.size  = isa::ld_relaxed(&p.mem_.lists->size[0]);
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
      if (!static_list_barrier<pool_t>::arrive(p, l.round))
      {
        return taken::finished;
      }
      ++l.round;
      const unsigned long long n = isa::ld_relaxed(&p.mem_.lists->size[l.round & 1u]);
      l.size                     = n < p.mem_.capacity ? n : p.mem_.capacity;
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
} // namespace detail::tasks
PTXW_NAMESPACE_END
