// ptxw/tasks/ticket_ring.h: lockfree_queue<ticket_ring> -- a bounded MPMC ring of tickets, in the
// style of the Broker Queue (Kerbl et al., ICS 2018): positions are handed out by fetch-and-add,
// never by a CAS that 1000 waiting blocks retry, and each slot's sequence word publishes it.
// Position i lives in slot i mod capacity; its sequence says whose turn it is:
//   seq == i        free for the push of position i;
//   seq == i + 1    position i is written (published) and may be taken;
//   seq == i + cap  taken, free for the push of position i + cap.
// Two counts guard the tickets, so that a ticket is only drawn when its turn will come: `size`
// (slots pushes hold) makes a push beyond the capacity full (R23: never an overwrite) and `count`
// (published tasks not yet reserved) makes a take on an empty queue "none now".
// Every block's leader draws positions one after the other, so position i lives in slot
// ring_slot(i): consecutive positions in different 128-byte lines, whose sequence words would
// otherwise be polled and stored by several leaders at once, one at a time.
// Memory order, per operation:
//   push (any thread): atom.add size (>= capacity: undo, full); atom.add tail -> i; ld.acquire seq
//         until i (the previous lap's take is done reading); write the entry; st.release seq = i + 1
//         (R25); red.add count.
//   take (leader):     (after a take that found none: ld.relaxed count, <= 0: none) atom.add count -1 (<= 0: undo, none); atom.add head -> i; ld.acquire seq
//         until i + 1 (pairs with the push's release: the entry is written); read the entry;
//         st.release seq = i + cap; red.add size -1.
// A take waits only for a push that has drawn its ticket and is writing (or, for a full ring, a
// take that is reading): blocking in that corner, as the Broker Queue is. In checked mode that wait
// is bounded (R24): a take that gives up ends its worker, a push that gives up is full.
#pragma once

#include <ptxw/tasks/shared_queue.h>

#include <cuda/std/bit>

PTXW_NAMESPACE_BEGIN
namespace tasks {
// The kind of lockfree_queue that is a bounded MPMC ring, published by each slot's sequence word.
struct ticket_ring
{};
} // namespace tasks

namespace detail::tasks {
template <class T>
struct ring_cell
{
  unsigned long long seq;
  entry<T> e;
};

// Position i's slot in a ring of `capacity` (a power of two) cells of `Cell`: the ring seen as
// `lines` rows of `per_line` cells, filled column by column.
template <class Cell>
__host__ __device__ constexpr ::cuda::std::uint32_t ring_slot(unsigned long long i, ::cuda::std::uint32_t capacity)
{
  constexpr ::cuda::std::uint32_t fit = 128 / sizeof(Cell);
  constexpr ::cuda::std::uint32_t per_line =
    fit >= 8 ? 8 : fit >= 4 ? 4 : fit >= 2 ? 2 : 1; // a power of two, so that it divides the capacity
  const ::cuda::std::uint32_t lines = capacity > per_line ? capacity / per_line : 1;
  const ::cuda::std::uint32_t j     = static_cast<::cuda::std::uint32_t>(i) & (capacity - 1);
  return (j & (lines - 1)) * per_line + (j >> ::cuda::std::countr_zero(lines));
}

// The host's seeding: ring slot i starts free for position i, or published (i + 1) where it holds
// seed i; position i is in slot ring_slot(i).
struct ring_fill
{
  template <class T>
  __host__ __device__ void operator()(ring_cell<T>& c, ::cuda::std::size_t i, const T* seed) const
  {
    c.seq = seed ? i + 1 : i;
    c.e   = seed_entry(seed ? *seed : T{}, i);
  }
};

template <class T>
struct ring_slots
{
  __host__ __device__ ::cuda::std::size_t operator()(::cuda::std::size_t position, ::cuda::std::uint32_t capacity) const
  {
    return ring_slot<ring_cell<T>>(position, capacity);
  }
};

template <class T>
struct backend<T, ::ptxw::tasks::lockfree_queue<::ptxw::tasks::ticket_ring>>
    : shared_queue_steps<::ptxw::tasks::pool<T, ::ptxw::tasks::lockfree_queue<::ptxw::tasks::ticket_ring>>>
{
  using pool_t = ::ptxw::tasks::pool<T, ::ptxw::tasks::lockfree_queue<::ptxw::tasks::ticket_ring>>;
  using steps  = shared_queue_steps<pool_t>;
  using local  = typename steps::local;
  using room   = typename steps::room;
  using cell   = ring_cell<T>;
  using memory = shared_queue_memory<cell>;
  using fill   = ring_fill;
  using slots  = ring_slots<T>;

  __device__ static cell& at(const pool_t& p, unsigned long long i)
  {
    return p.mem_.cells[ring_slot<cell>(i, p.mem_.capacity)];
  }
  // Until the slot's sequence is `turn`; false where checked mode gave up (R24).
  __device__ static bool wait_turn(const pool_t& p, cell& x, unsigned long long turn)
  {
    return wait_until(&x.seq, turn, 32, p.sink_);
  }
  __device__ static long long add(long long* word, long long v)
  {
    return static_cast<long long>(
      atomicAdd(reinterpret_cast<unsigned long long*>(word), static_cast<unsigned long long>(v)));
  }

  __device__ static taken take(const pool_t& p, local& l, entry<T>& out, ::ptxw::tasks::counters& c)
  {
    queue_ends& q = *p.mem_.ends;
    // An idle leader polls with loads, not with atomics that others wait behind; a busy one goes
    // straight to the atomic (a load first would cost a trip to the same slice).
    if (l.polling && isa::ld_relaxed(&q.count) <= 0)
    {
      return taken::none;
    }
    if (add(&q.count, -1) <= 0)
    {
      add(&q.count, 1); // nothing published to reserve
      ++c.failed_cas;
      l.polling = true;
      return taken::none;
    }
    l.polling = false;
    const unsigned long long i = atomicAdd(&q.head, 1ull);
    cell& x                    = at(p, i);
    if (!wait_turn(p, x, i + 1))
    {
      return taken::finished; // reported: the push of position i never published it
    }
    out = x.e;
    mark_taken(x.e, p.sink_);
    isa::st_release(&x.seq, i + p.mem_.capacity); // free for the next lap's push
    add(&q.size, -1);
    return taken::got;
  }

  // Any thread: false where the ring is full.
  __device__ static bool push(const pool_t& p, const room&, ::cuda::std::uint32_t, const T& child)
  {
    queue_ends& q = *p.mem_.ends;
    const long long held = add(&q.size, 1);
    if (held >= static_cast<long long>(p.mem_.capacity))
    {
      add(&q.size, -1);
      return full_push(p.state_, static_cast<unsigned long long>(held) + 1);
    }
    const unsigned long long i = atomicAdd(&q.tail, 1ull);
    cell& x                    = at(p, i);
    if (!wait_turn(p, x, i))
    {
      return false; // reported: the previous lap's take never freed the slot
    }
    x.e.value = child;
    mark_pushed(x.e, p.state_);
    injected_sleep(p.faults_.publish_delay_ns);
    isa::st_release(&x.seq, i + 1); // R25: the entry, then its sequence
    add(&q.count, 1);
    steps::sample_occupancy(p, i);
    return true;
  }
};

// Its row (tasks/method_table.h): tag, memory, capacity unit, launch, stealing.
PTXW_TASK_METHOD(::ptxw::tasks::lockfree_queue<::ptxw::tasks::ticket_ring>, one_queue, "tasks in the queue", cooperative,
                 false);
} // namespace detail::tasks
PTXW_NAMESPACE_END
