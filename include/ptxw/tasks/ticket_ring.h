// ptxw/tasks/ticket_ring.h: lockfree_queue<ticket_ring> -- a bounded MPMC ring whose every slot
// carries a sequence word (Vyukov's bounded queue; the Broker Queue family publishes the same way).
// Position i lives in slot i mod capacity; the slot's sequence says whose turn it is:
//   seq == i          the slot is free for the push of position i;
//   seq == i + 1      position i is written (published) and may be taken;
//   seq == i + cap    taken, free for the push of position i + cap.
// Memory order, per operation:
//   push (any thread): ld.relaxed tail; ld.acquire seq (the previous lap's take is done reading);
//         atom.relaxed.cas tail i -> i + 1 claims position i; write the entry; st.release seq = i + 1 (R25).
//   take (leader):     ld.relaxed head; ld.acquire seq (pairs with the push's release: the entry is
//         written); atom.relaxed.cas head i -> i + 1; read the entry; st.release seq = i + cap.
// Full (seq < i: the slot's previous lap not taken yet) is a result, never an overwrite (R23);
// empty (seq < i + 1) is "none now".
#pragma once

#include <ptxw/tasks/shared_queue.h>

PTXW_NAMESPACE_BEGIN
namespace detail::tasks {
template <class T>
struct ring_cell
{
  unsigned long long seq;
  entry<T> e;
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

  __device__ static cell& at(const pool_t& p, unsigned long long i)
  {
    return p.mem_.cells[i & (p.mem_.capacity - 1)];
  }

  __device__ static taken take(const pool_t& p, local& l, entry<T>& out, ::ptxw::tasks::counters& c)
  {
    unsigned long long i = isa::ld_relaxed(&p.mem_.ends->head);
    for (;;)
    {
      cell& x                        = at(p, i);
      const unsigned long long seq   = isa::ld_acquire(&x.seq);
      const long long ahead          = static_cast<long long>(seq - (i + 1));
      if (ahead < 0)
      {
        return taken::none; // position i is not published yet: empty now
      }
      if (ahead == 0)
      {
        if (!injected(p.faults_.spurious_cas, l.rng) && isa::cas_relaxed(&p.mem_.ends->head, i, i + 1))
        {
          out = x.e;
          mark_taken(x.e, p.sink_);
          isa::st_release(&x.seq, i + p.mem_.capacity); // free for the next lap's push
          return taken::got;
        }
        ++c.failed_cas;
      }
      i = isa::ld_relaxed(&p.mem_.ends->head); // another taker was first
    }
  }

  // Any thread: false where the ring is full.
  __device__ static bool push(const pool_t& p, const room&, ::cuda::std::uint32_t, const T& child)
  {
    unsigned long long i = isa::ld_relaxed(&p.mem_.ends->tail);
    for (;;)
    {
      cell& x                      = at(p, i);
      const unsigned long long seq = isa::ld_acquire(&x.seq);
      const long long ahead        = static_cast<long long>(seq - i);
      if (ahead < 0)
      {
        return false; // the slot's previous lap is not taken yet: full
      }
      if (ahead == 0 && isa::cas_relaxed(&p.mem_.ends->tail, i, i + 1))
      {
        x.e.value = child;
        mark_pushed(x.e, p.state_);
        steps::delay(p);
        isa::st_release(&x.seq, i + 1); // R25: the entry, then its sequence
        steps::sample_occupancy(p, i);
        return true;
      }
      i = isa::ld_relaxed(&p.mem_.ends->tail);
    }
  }
};
} // namespace detail::tasks
PTXW_NAMESPACE_END
