// ptxw/tasks/deque.h: the `stealing` method, stealing_deques<chase_lev> -- one Chase-Lev deque per
// block in global memory. The owner block pushes and pops at the bottom, idle blocks steal at the
// top; one elected thread per block operates (tasks/worker.h hands its result to the block). What
// both kinds of deque share (slots, pushes, a take's victims) is tasks/block_deques.h.
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
// The store->load reordering that pop's fence forbids is too rare on hardware for a litmus test
// to see (docs/task-queues.md); the fault `late_store_ns` makes it happen where the PTX model
// allows it: pop's store of bottom is held, as in a store buffer, until the fence -- or, where no
// fence comes, until after the load of top and a sleep (tasks_litmus_test.cu).
// A push never overwrites: the room is capacity - (bottom - top), with a top read earlier (top only
// grows, so the room is never overstated) (R23).
#pragma once

#include <ptxw/tasks/block_deques.h>

PTXW_NAMESPACE_BEGIN
namespace tasks {
// The Chase-Lev kind of stealing_deques: top and bottom in two words, pop and steal each behind a
// fence.sc. The default stealing method.
struct chase_lev
{};
using stealing = stealing_deques<chase_lev>;
} // namespace tasks

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
    : block_deques<T, ::ptxw::tasks::stealing, deque_ends, backend<T, ::ptxw::tasks::stealing>>
{
  using steps  = block_deques<T, ::ptxw::tasks::stealing, deque_ends, backend>;
  using pool_t = typename steps::pool_t;
  using local  = typename steps::local;
  using steps::slot;

  static constexpr ::cuda::std::uint32_t max_capacity = 1u << 31;

  // The host's seeding: n tasks at positions 0 .. n - 1.
  __host__ static deque_ends seeded(::cuda::std::uint32_t n)
  {
    deque_ends e{};
    e.bottom = n;
    return e;
  }
  // At open: the seeds the host placed.
  __device__ static void read_ends(deque_ends& d, local& l)
  {
    l.bottom   = isa::ld_relaxed(&d.bottom);
    l.top_seen = isa::ld_relaxed(&d.top);
  }
  __device__ static void read_top(deque_ends& d, local& l)
  {
    l.top_seen = isa::ld_relaxed(&d.top);
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
    injected_sleep(p.faults_.owner_stall_ns);
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
    injected_sleep(p.faults_.thief_stall_ns); // a thief held up, as a descheduled one would be
    if (injected(p.faults_.spurious_cas, l.rng) || !isa::cas_release(&d.top, t, t + 1))
    {
      ++c.failed_cas; // the owner or another thief took it
      return false;
    }
    ++c.steals_won;
    mark_taken(slot(p, victim, t), p.sink_);
    return true;
  }

  // The leader, at retire, after the children were counted: one release store publishes them all.
  __device__ static void publish(const pool_t& p, local& l, ::cuda::std::uint32_t pushed)
  {
    if (pushed == 0)
    {
      return;
    }
    injected_sleep(p.faults_.publish_delay_ns);
    l.bottom += pushed;
    isa::st_release(&p.mem_.ends[l.queue].bottom, l.bottom); // R25: the entries, then bottom
    steps::record(l);
  }
};

// Its row (tasks/method_table.h): tag, memory, capacity unit, launch, stealing.
PTXW_TASK_METHOD(::ptxw::tasks::stealing, deque_per_block, "tasks per block's deque", cooperative, true);
} // namespace detail::tasks
PTXW_NAMESPACE_END
