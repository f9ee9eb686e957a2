// ptxw/tasks/one_word_deque.h: stealing_deques<one_word> -- a deque per block in global memory
// whose top and bottom are fields of ONE 64-bit word, every change of which is a CAS: the word's
// coherence order linearizes the owner and the thieves, so no operation needs fence.sc (the
// Chase-Lev deque, tasks/deque.h, needs one in pop and one in steal because its owner stores bottom
// and its thieves CAS top, two words). What both kinds share (slots, pushes, a take's victims) is
// tasks/block_deques.h.
//
// The word: top in bits 63..40, a count of pops in bits 39..24, bottom in bits 23..0. Positions are
// mod 2^24 (occupancy = bottom - top mod 2^24, so a deque holds at most 2^23 tasks); the slot of
// position i is i mod capacity. Only thieves move top (+1), only the owner moves bottom (pop -1,
// publish +n) and the pop count (+1 a pop). The pop count is the ABA tag: without it a thief that
// read (top t, bottom t + 1) and the entry at t could CAS successfully after the owner popped that
// entry and pushed a new one at t -- the word would be the same, the entry not. With it the word
// repeats only after 2^16 pops inside one thief's load and CAS (the 2011 code's 16-bit tag).
//
// Memory order, per operation (the SASS each line emits is checked by
// tests/codegen/tasks/one_word_deque.cu):
//   push (any thread of the owner block): write the entry beyond bottom, where no thief looks,
//         if the room (capacity - (bottom - a top seen with an acquire)) allows: never an
//         overwrite (R23).
//   publish (owner's leader, at retire): atom.release.cas of the word from the last one seen to
//         bottom + pushed; where a thief moved top meanwhile, again from the word the CAS returned
//         (R25: the entries, then the word that shows them).
//   pop (owner's leader): ld.acquire the word (pairs with the thieves' release CASes: the slots
//         they read are not rewritten by this owner's later pushes before those reads); empty
//         where top == bottom; else atom.relaxed.cas to (top, pops + 1, bottom - 1) -- on
//         success the entry at bottom - 1 is the owner's (written by its own block), on failure a
//         thief moved top: load again.
//   steal (a thief's leader): ld.acquire the word (pairs with publish's release, through the CASes
//         after it: the entries below bottom are written); empty where top == bottom; read the
//         entry at top; atom.release.cas to top + 1 (its release orders the entry's read before
//         the CAS that frees the slot for the owner; nothing after it needs an acquire).
// No fence.sc anywhere: no operation orders a store before a later load of another word.
// The faults that have a step here: spurious_cas (pop's and steal's CAS), publish_delay_ns,
// steal_only, thief_stall_ns (which opens the ABA window the pop count closes: the litmus test
// OwnerAndThievesWithStalledThieves), capacity; owner_stall_ns and late_store_ns have none (no
// store before a fence).
#pragma once

#include <ptxw/tasks/block_deques.h>

PTXW_NAMESPACE_BEGIN
namespace tasks {
// The one-word kind of stealing_deques: top, bottom and a pop count in one 64-bit word, every change
// a CAS. Capacity: at most 2^23 tasks per block's deque (positions are mod 2^24).
struct one_word
{};
} // namespace tasks

namespace detail::tasks {
// One deque's word, alone in its 128-byte line but for what is written once a launch.
struct alignas(128) one_word_ends
{
  unsigned long long word; // top << 40 | pops << 24 | bottom
  unsigned long long owner; // checked mode: the owner's launch (R22)
  unsigned long long max_occupancy;
};

// The word's fields.
struct one_word_layout
{
  static constexpr unsigned long long position_mask = (1ull << 24) - 1;
  static constexpr unsigned long long top_one       = 1ull << 40; // top + 1 (top wraps off the word's end)

  __host__ __device__ static constexpr unsigned long long pack(long long top, ::cuda::std::uint32_t pops,
                                                               long long bottom)
  {
    return (static_cast<unsigned long long>(top) & position_mask) << 40
         | static_cast<unsigned long long>(pops & 0xFFFFu) << 24
         | (static_cast<unsigned long long>(bottom) & position_mask);
  }
  __host__ __device__ static constexpr ::cuda::std::uint32_t top(unsigned long long w)
  {
    return static_cast<::cuda::std::uint32_t>(w >> 40);
  }
  __host__ __device__ static constexpr ::cuda::std::uint32_t pops(unsigned long long w)
  {
    return static_cast<::cuda::std::uint32_t>(w >> 24) & 0xFFFFu;
  }
  __host__ __device__ static constexpr ::cuda::std::uint32_t occupancy(unsigned long long w)
  {
    return static_cast<::cuda::std::uint32_t>((w - (w >> 40)) & position_mask);
  }
};

template <class T>
struct backend<T, ::ptxw::tasks::stealing_deques<::ptxw::tasks::one_word>>
    : block_deques<T, ::ptxw::tasks::stealing_deques<::ptxw::tasks::one_word>, one_word_ends,
                   backend<T, ::ptxw::tasks::stealing_deques<::ptxw::tasks::one_word>>>
{
  using steps  = block_deques<T, ::ptxw::tasks::stealing_deques<::ptxw::tasks::one_word>, one_word_ends, backend>;
  using pool_t = typename steps::pool_t;
  using local  = typename steps::local;
  using steps::slot;
  using word = one_word_layout;

  static constexpr ::cuda::std::uint32_t max_capacity = 1u << 23; // occupancy mod 2^24

  // The host's seeding: n tasks at positions 0 .. n - 1.
  __host__ static one_word_ends seeded(::cuda::std::uint32_t n)
  {
    one_word_ends e{};
    e.word = word::pack(0, 0, n);
    return e;
  }
  // The owner's top, from a word it loaded with an acquire: its own bottom less the occupancy.
  __device__ static void seen(local& l, unsigned long long w)
  {
    l.top_seen = l.bottom - word::occupancy(w);
  }
  // At open: the seeds the host placed, and what thieves took since.
  __device__ static void read_ends(one_word_ends& d, local& l)
  {
    const unsigned long long w = isa::ld_acquire(&d.word);
    l.bottom                   = static_cast<long long>(w & word::position_mask);
    l.pops                     = word::pops(w);
    seen(l, w);
  }
  __device__ static void read_top(one_word_ends& d, local& l)
  {
    seen(l, isa::ld_acquire(&d.word));
  }

  // The owner takes its newest task.
  __device__ static bool pop(const pool_t& p, local& l, entry<T>& out, ::ptxw::tasks::counters& c)
  {
    one_word_ends& d = p.mem_.ends[l.queue];
    for (;;)
    {
      const unsigned long long w = isa::ld_acquire(&d.word); // after the thieves' reads of what they took
      seen(l, w);
      if (l.top_seen == l.bottom)
      {
        return false;
      }
      if (!injected(p.faults_.spurious_cas, l.rng)
          && isa::cas_relaxed(&d.word, w, word::pack(word::top(w), l.pops + 1, l.bottom - 1)))
      {
        break;
      }
      ++c.failed_cas; // a thief moved top: look again
    }
    l.bottom -= 1;
    l.pops += 1;
    out = slot(p, l.queue, l.bottom);
    mark_taken(slot(p, l.queue, l.bottom), p.sink_);
    return true;
  }

  // A thief takes the victim's oldest task.
  __device__ static bool steal(const pool_t& p, local& l, ::cuda::std::uint32_t victim, entry<T>& out,
                               ::ptxw::tasks::counters& c)
  {
    one_word_ends& d           = p.mem_.ends[victim];
    const unsigned long long w = isa::ld_acquire(&d.word); // the entries below bottom are written
    if (word::occupancy(w) == 0)
    {
      return false;
    }
    ++c.steals_tried;
    out = slot(p, victim, word::top(w));
    injected_sleep(p.faults_.thief_stall_ns); // a thief held up, as a descheduled one would be
    if (injected(p.faults_.spurious_cas, l.rng) || !isa::cas_release(&d.word, w, w + word::top_one))
    {
      ++c.failed_cas; // the owner or another thief changed the word
      return false;
    }
    ++c.steals_won;
    mark_taken(slot(p, victim, word::top(w)), p.sink_);
    return true;
  }

  // The leader, at retire, after the children were counted: one release CAS publishes them all.
  __device__ static void publish(const pool_t& p, local& l, ::cuda::std::uint32_t pushed)
  {
    if (pushed == 0)
    {
      return;
    }
    injected_sleep(p.faults_.publish_delay_ns);
    one_word_ends& d     = p.mem_.ends[l.queue];
    unsigned long long w = word::pack(l.top_seen, l.pops, l.bottom); // what the owner saw last
    l.bottom += pushed;
    for (;;)
    {
      const unsigned long long desired = (w & ~word::position_mask) | (l.bottom & word::position_mask);
      const unsigned long long found   = isa::cas_old_release(&d.word, w, desired); // R25: the entries, then bottom
      if (found == w)
      {
        break;
      }
      w = found; // a thief moved top (the rest is the owner's)
    }
    steps::record(l);
  }
};

// Its row (tasks/method_table.h): tag, memory, capacity unit, launch, stealing.
PTXW_TASK_METHOD(::ptxw::tasks::stealing_deques<::ptxw::tasks::one_word>, deque_per_block, "tasks per block's deque",
                 cooperative, true);
} // namespace detail::tasks
PTXW_NAMESPACE_END
