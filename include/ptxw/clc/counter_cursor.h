// ptxw/clc/counter_cursor.h: counter_t's cursor, which no launch needs cleared before it.
//
// A cleared cursor costs a memset on the stream before every launch, a node of its own that the
// kernel waits for. Instead the cursor word carries the tag of the launch it counts for in its top
// 24 bits, above a 40-bit count of the indices handed out; ptxw::clc::scheduler alternates two
// cursors between its launches, and each launch's first CTA raises the next launch's cursor to
// fresh (its tag, a count of 0) -- the two never meet while launches of one scheduler run one at a
// time, in the order prepared (R32). Tags grow from launch to launch, so a cursor nobody renewed
// (after a context prepared and never launched, or a memset of the emulation's) holds less than
// this launch's fresh one: a claim that finds another tag raises the cursor to it by atomicMax (a
// no-op once another claimer did) and claims again -- slowly, once per claimer, and exactly.
//
// Two launches of one scheduler at once break that order, and each side keeps its blocks exactly
// once or ends: a cursor that holds a later tag was renewed by the next launch, so this launch
// claims no more from it, rather than claim again forever; and the renewal of a next launch that
// already runs is a no-op of atomicMax, so its count stands. Both are R32 reports in checked mode.
//
// Every 2^24 launches the tags start over from 0: the scheduler clears both cursors, and the
// launch before renews none. Captured into a CUDA graph, where one context is launched at every
// replay, the cursor is cleared in the graph and counts under tag 0.
#pragma once

#include <ptxw/core/config.h>

#include <cuda/std/cstdint>

PTXW_NAMESPACE_BEGIN
namespace clc::detail {
inline constexpr unsigned cursor_count_bits          = 40; // counts beyond 2^32 units by what claims overshoot
inline constexpr ::cuda::std::uint32_t cursor_tag_mask = (1u << (64 - cursor_count_bits)) - 1u;

// The tag of launch `epoch` (ptxw::clc::scheduler's count of launches, from 1): 0 for the first,
// so that a cursor of zeros is the first launch's fresh one.
__host__ __device__ constexpr ::cuda::std::uint32_t cursor_tag(::cuda::std::uint32_t epoch)
{
  return (epoch - 1u) & cursor_tag_mask;
}

__host__ __device__ constexpr unsigned long long fresh_cursor(::cuda::std::uint32_t tag)
{
  return static_cast<unsigned long long>(tag) << cursor_count_bits;
}

// This launch's cursor and its tag, and the next launch's cursor to renew (null: none).
struct counter_cursor
{
  unsigned long long* at;
  unsigned long long* next;
  ::cuda::std::uint32_t tag;

  // The first CTA of the launch, once: the next launch's cursor, fresh -- raised by atomicMax, so
  // that a next launch already running (R32) keeps its count. False in that case.
  __device__ bool renew_next() const
  {
    return next == nullptr || raise(next, (tag + 1u) & cursor_tag_mask) <= tag;
  }

  // Whether a claim's atomic returned `claimed` from this launch's cursor.
  __device__ bool current(unsigned long long claimed) const
  {
    return (claimed >> cursor_count_bits) == tag;
  }

  // A cursor not this launch's raised to this launch's fresh one (a no-op where another claimer
  // did it first); the claim is then made again. False where it held a later launch's tag (R32):
  // nothing more is claimed from it.
  __device__ bool renew() const
  {
    return raise(at, tag) <= tag;
  }

  // first()'s count where a later launch renewed the cursor (R32): every bit of the count, beyond
  // any grid, so that the claim is clipped to nothing.
  static constexpr unsigned long long taken_over = (1ull << cursor_count_bits) - 1u;

  // The indices handed out before a claim from this launch's cursor.
  static __device__ unsigned long long count(unsigned long long claimed)
  {
    return claimed & taken_over;
  }

  // The count before a claim of `n` whose atomic returned `claimed`, renewed and claimed again
  // where the cursor was not this launch's.
  __device__ unsigned long long first(unsigned long long claimed, unsigned long long n) const
  {
    if (!current(claimed))
    {
      claimed = renew() ? atomicAdd(at, n) : taken_over;
    }
    return count(claimed);
  }

private:
  // A cursor raised to `to`'s fresh one by atomicMax; the tag it held.
  static __device__ unsigned long long raise(unsigned long long* cursor, ::cuda::std::uint32_t to)
  {
    return atomicMax(cursor, fresh_cursor(to)) >> cursor_count_bits;
  }
};
} // namespace clc::detail
PTXW_NAMESPACE_END
