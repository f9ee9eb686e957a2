// ptxw/tasks/deque.h: the `stealing` method -- one Chase-Lev deque per block in global memory. The
// owner block pushes and pops at the bottom, idle blocks steal at the top; one elected thread per
// block operates (tasks/worker.h hands its result to the block).
//
// Positions only grow (signed 64-bit: no ABA tag to wrap, where the 2011 code packed 16 bits); the
// slot of position i is i mod capacity, a power of two (the host rounds up). Memory order, per
// operation (the PTX each line emits is checked in SASS by tests/codegen/tasks/deque.cu):
//   push (any thread of the owner block): write the entry beyond bottom, where no thief looks;
//         retire then publishes every push of the task with one st.release.gpu of bottom (R25).
//   pop (owner):   st.relaxed bottom = b - 1; fence.sc.gpu; ld.relaxed top; for the last element
//                  atom.cas top. The fence orders the store before the load -- only fence.sc does
//                  (the 2011 code had none, or one in the wrong place): without it owner and thief
//                  can both take the last task.
//   steal (thief): ld.relaxed top; fence.sc.gpu (top before bottom, and an acquire for top);
//                  ld.acquire bottom (pairs with push's release); read the entry;
//                  atom.release.cas top (the release orders the read before it; nothing after
//                  it reads what another thread wrote, so no acquire).
// The store->load reordering that pop's fence forbids is too rare on the H100 for a litmus test
// to see (docs/task-queues.md); the fault `late_store_ns` makes it happen where the PTX model
// allows it: pop's store of bottom is held, as in a store buffer, until the fence -- or, where no
// fence comes, until after the load of top and a sleep (tasks_litmus_test.cu).
// A push never overwrites: the room is capacity - (bottom - top), with a top read earlier (top only
// grows, so the room is never overstated) (R23).
#pragma once

#include <ptxw/tasks/checks.h>
#include <ptxw/detail/isa/global.h>

PTXW_NAMESPACE_BEGIN
namespace detail::tasks {
// One deque's ends, top and bottom 64 bytes apart in one 128-byte line: thieves CAS top, the owner
// stores bottom.
struct alignas(128) deque_ends
{
  long long top;
  long long padding[7];
  long long bottom;
  unsigned long long owner; // checked mode: the owner's launch (R22)
  unsigned long long max_occupancy;
};

// Pop's store of bottom, performed as a store buffer may: at once, or (late_ns != 0) held until
// fence_sc() -- or, without that fence, until after the next load and late_ns of sleep.
class store_buffer
{
  long long* word_;
  long long value_;
  ::cuda::std::uint32_t late_ns_;

  __device__ void drain()
  {
    isa::st_relaxed(word_, value_);
    late_ns_ = 0;
  }

public:
  __device__ store_buffer(long long* word, long long value, ::cuda::std::uint32_t late_ns)
      : word_(word)
      , value_(value)
      , late_ns_(late_ns)
  {
    if (late_ns_ == 0)
    {
      isa::st_relaxed(word_, value_);
    }
  }
  __device__ void fence_sc()
  {
    if (late_ns_ != 0)
    {
      drain();
    }
    isa::fence_sc();
  }
  __device__ long long ld_relaxed(const long long* a)
  {
    const long long v = isa::ld_relaxed(a);
    if (late_ns_ != 0)
    {
      __nanosleep(late_ns_);
      drain();
    }
    return v;
  }
};

template <class T>
struct backend<T, ::ptxw::tasks::stealing>
{
  using pool_t = ::ptxw::tasks::pool<T, ::ptxw::tasks::stealing>;

  struct memory
  {
    deque_ends* ends; // per block
    entry<T>* slots; // per block, `capacity` each
    ::cuda::std::uint32_t capacity; // a power of two
  };
  // The owner's leader's registers.
  struct local
  {
    long long bottom; // the owner's bottom (it alone writes it)
    long long top_seen; // a top read since (top only grows)
    long long max_occupancy;
    ::cuda::std::uint32_t queue, queues, rng;
  };
  // Where one task's pushes go: positions base, base + 1, ... beyond bottom, `free` of them.
  struct room
  {
    long long base;
    ::cuda::std::uint32_t free;
  };
  static constexpr bool counts_at_fork = false; // retire counts the children, then publishes them
  static constexpr bool counts_live    = true;

  __device__ static entry<T>& slot(const pool_t& p, ::cuda::std::uint32_t queue, long long i)
  {
    return p.mem_.slots[static_cast<unsigned long long>(queue) * p.mem_.capacity
                        + (static_cast<::cuda::std::uint32_t>(i) & (p.mem_.capacity - 1))];
  }

  // The calling block's deque.
  __device__ static ::cuda::std::uint32_t own_queue()
  {
    return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  }

  __device__ static void open(const pool_t& p, local& l)
  {
    l.queue  = own_queue();
    l.queues = p.state_->queues;
    l.rng    = (p.faults_.seed ^ (l.queue * 0x9E37'79B9u)) | 1u;
    deque_ends& d = p.mem_.ends[l.queue];
    second_owner(&d.owner, l.queue, p.sink_);
    l.bottom        = isa::ld_relaxed(&d.bottom); // the seeds the host placed
    l.top_seen      = isa::ld_relaxed(&d.top);
    l.max_occupancy = l.bottom - l.top_seen;
  }

  // The owner takes its newest task.
  __device__ static bool pop(const pool_t& p, local& l, entry<T>& out, ::ptxw::tasks::counters& c)
  {
    deque_ends& d = p.mem_.ends[l.queue];
    l.top_seen    = isa::ld_relaxed(&d.top);
    if (l.top_seen >= l.bottom)
    {
      return false; // empty, and only this block makes it non-empty: no fence needed to know
    }
    const long long b = l.bottom - 1;
    store_buffer hide(&d.bottom, b, p.faults_.late_store_ns); // hide the newest task from thieves ...
    if (p.faults_.owner_stall_ns != 0)
    {
      __nanosleep(p.faults_.owner_stall_ns);
    }
    hide.fence_sc(); // ... before reading top
    const long long t = hide.ld_relaxed(&d.top);
    l.top_seen        = t;
    if (t > b)
    {
      isa::st_relaxed(&d.bottom, b + 1); // a thief took the last one
      return false;
    }
    out = slot(p, l.queue, b);
    if (t < b)
    {
      l.bottom = b;
      mark_taken(slot(p, l.queue, b), p.sink_);
      return true;
    }
    // The last task: thieves may be after it too; the CAS on top decides.
    const bool won = !injected(p.faults_.spurious_cas, l.rng) && isa::cas_acq_rel(&d.top, t, t + 1);
    isa::st_relaxed(&d.bottom, b + 1);
    l.bottom   = b + 1;
    l.top_seen = won ? t + 1 : l.top_seen;
    if (!won)
    {
      ++c.failed_cas;
      return false;
    }
    mark_taken(slot(p, l.queue, b), p.sink_);
    return true;
  }

  // A thief takes the victim's oldest task.
  __device__ static bool steal(const pool_t& p, local& l, ::cuda::std::uint32_t victim, entry<T>& out,
                               ::ptxw::tasks::counters& c)
  {
    deque_ends& d     = p.mem_.ends[victim];
    const long long t = isa::ld_relaxed(&d.top);
    isa::fence_sc(); // top before bottom
    const long long b = isa::ld_acquire(&d.bottom); // the entries below b are written
    if (t >= b)
    {
      return false;
    }
    ++c.steals_tried;
    out = slot(p, victim, t);
    if (injected(p.faults_.spurious_cas, l.rng) || !isa::cas_release(&d.top, t, t + 1))
    {
      ++c.failed_cas; // the owner or another thief took it
      return false;
    }
    ++c.steals_won;
    mark_taken(slot(p, victim, t), p.sink_);
    return true;
  }

  // One try: the own deque, then a few random victims (the own deque among them when every task
  // must be stolen).
  __device__ static taken take(const pool_t& p, local& l, entry<T>& out, ::ptxw::tasks::counters& c)
  {
    if (p.faults_.steal_only == 0 && pop(p, l, out, c))
    {
      return taken::got;
    }
    if (p.faults_.steal_only != 0) // pop reads top otherwise: the room of the next pushes
    {
      l.top_seen = isa::ld_relaxed(&p.mem_.ends[l.queue].top);
    }
    const ::cuda::std::uint32_t others = p.faults_.steal_only != 0 ? l.queues : l.queues - 1;
    for (::cuda::std::uint32_t i = 0; i < (others < 4u ? others : 4u); ++i)
    {
      ::cuda::std::uint32_t v = next_random(l.rng) % others;
      v                       = p.faults_.steal_only == 0 && v >= l.queue ? v + 1 : v;
      if (steal(p, l, v, out, c))
      {
        return taken::got;
      }
    }
    return taken::none;
  }

  __device__ static room reserve(const pool_t& p, const local& l)
  {
    return {l.bottom, static_cast<::cuda::std::uint32_t>(p.mem_.capacity - (l.bottom - l.top_seen))};
  }

  // Any thread: the k-th push of the task, beyond bottom (invisible to thieves until published).
  __device__ static bool push(const pool_t& p, const room& r, ::cuda::std::uint32_t k, const T& child)
  {
    if (k >= r.free)
    {
      return full_push(p.state_, p.mem_.capacity - r.free + k + 1);
    }
    entry<T>& e = slot(p, own_queue(), r.base + k);
    e.value     = child;
    mark_pushed(e, p.state_);
    return true;
  }

  // The leader, at retire, after the children were counted: one release store publishes them all.
  __device__ static void publish(const pool_t& p, local& l, ::cuda::std::uint32_t pushed)
  {
    if (pushed == 0)
    {
      return;
    }
    if (p.faults_.publish_delay_ns != 0)
    {
      __nanosleep(p.faults_.publish_delay_ns);
    }
    l.bottom += pushed;
    isa::st_release(&p.mem_.ends[l.queue].bottom, l.bottom); // R25: the entries, then bottom
    l.max_occupancy = l.bottom - l.top_seen > l.max_occupancy ? l.bottom - l.top_seen : l.max_occupancy;
  }

  __device__ static void close(const pool_t& p, const local& l)
  {
    p.mem_.ends[l.queue].max_occupancy = static_cast<unsigned long long>(l.max_occupancy);
    atomicMax(&p.state_->max_occupancy, static_cast<unsigned long long>(l.max_occupancy));
  }
};
} // namespace detail::tasks
PTXW_NAMESPACE_END
