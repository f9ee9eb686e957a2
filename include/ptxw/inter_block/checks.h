// ptxw/inter_block/checks.h: checked mode's half of the inter-block rules, as hooks the work queue
// (inter_block/cursor.h, queue.h) and the last-block guard (inter_block/last_block.h) call at each
// step. With PTXW_CHECKED=0 each hook is the step alone (a barrier) or nothing.
//
//   queue_barrier     R15: a fetch (or a task pool's next) not every thread of the block made (the block stops)
//   queue_initialised R17: a queue whose memory was not initialised (no items); the leader's check
//   queue_all_initialised   the same, by the leader, its verdict passed to the whole block
//   read_of_no_item   R19: the read of no item
//   ticket_in_range   R18: a grid of more units than the ticket's count type counts
//   ticket_census     R15: how many threads of the block called (the barrier of the arrival)
//   ticket_arrival    R15: a second call; R16: a second launch on the ticket; R17: uninitialised
//   ticket_partial_cta R15: a CTA of a cluster, not rank 0, where not every thread called
//   ticket_release    the last arrival: merge unless a report poisoned the launch; free the ticket
// The ticket hooks run in checked builds only (inter_block/last_block.h).
#pragma once

#include <ptxw/core/checked.h>

#if PTXW_CCCL_FAMILY_HEADERS
#  include <cuda/__ptx/instructions/get_sreg.h>
#endif

PTXW_NAMESPACE_BEGIN
namespace detail {
__device__ inline ::cuda::std::uint32_t linear_thread()
{
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

__device__ inline ::cuda::std::uint32_t block_threads()
{
  return blockDim.x * blockDim.y * blockDim.z;
}

// The barrier of a fetch; false (after one report per calling warp) where not every thread of the
// block takes part (R15). `where`: the slot, for the report; `what`: the call, for the report.
__device__ inline bool queue_barrier([[maybe_unused]] const checked::sink* sink, [[maybe_unused]] const void* where,
                                     [[maybe_unused]] const char* what = " (a fetch not every thread made; detail: "
                                                                         "how many did)")
{
#if PTXW_CHECKED
  const auto callers = static_cast<::cuda::std::uint32_t>(__syncthreads_count(1));
  if (callers != block_threads())
  {
    if (linear_thread() % 32u == static_cast<::cuda::std::uint32_t>(__ffs(__activemask()) - 1))
    {
      checked::report(sink, rule::uniform_call, static_cast<::cuda::std::uint32_t>(__cvta_generic_to_shared(where)), 0,
                      callers, what);
    }
    return false;
  }
#else
  __syncthreads();
#endif
  return true;
}

// R17, by the leader before its first claim: false (after a report) where the queue's state is not
// initialised -- its tag is not `tag`.
template <class State>
__device__ bool queue_initialised([[maybe_unused]] const State* s, [[maybe_unused]] ::cuda::std::uint32_t tag,
                                  [[maybe_unused]] const checked::sink* sink, [[maybe_unused]] const void* where)
{
#if PTXW_CHECKED
  if (s == nullptr || s->tag != tag)
  {
    checked::report(sink, rule::initialised, static_cast<::cuda::std::uint32_t>(__cvta_generic_to_shared(where)), 0,
                    s == nullptr ? 0u : s->tag, " (detail: the tag found)");
    return false;
  }
#endif
  return true;
}

// The same for the whole block (a barrier, in checked builds only): false everywhere where the
// leader found the queue uninitialised.
template <class State>
__device__ bool queue_all_initialised([[maybe_unused]] bool leader, [[maybe_unused]] const State* s,
                                      [[maybe_unused]] ::cuda::std::uint32_t tag,
                                      [[maybe_unused]] const checked::sink* sink, [[maybe_unused]] const void* where)
{
#if PTXW_CHECKED
  return __syncthreads_or(leader && !queue_initialised(s, tag, sink, where)) == 0;
#else
  return true;
#endif
}

// R19: an item read where there is none.
__device__ inline void read_of_no_item([[maybe_unused]] bool present, [[maybe_unused]] const checked::sink* sink)
{
#if PTXW_CHECKED
  if (!present)
  {
    checked::report(sink, rule::one_item_at_a_time, 0, 0, 0, " (the read of no item)");
  }
#endif
}

// Who arrived: the unit (block or cluster) and its launch. A block's checked-mode memory of its
// last arrival lives in shared memory; its initial contents are whatever was there, which never
// equals this record (%gridid is unique per launch, a launch runs each unit once).
struct arrival_record
{
  unsigned long long launch;
  ::cuda::std::uint32_t unit;
  ::cuda::std::uint32_t ticket;
};

// R18: false (reported once, by `reporter`) where the launch has more units than Count counts.
template <class Count>
__device__ bool ticket_in_range(const checked::sink* sink, unsigned long long units, bool reporter)
{
  if (units - 1 > static_cast<unsigned long long>(static_cast<Count>(~Count(0))))
  {
    if (reporter)
    {
      checked::report(sink, rule::in_range, 0, 0, static_cast<::cuda::std::uint32_t>(units >> 32),
                      " (more units than the count type counts; detail: the count's high word)");
    }
    return false;
  }
  return true;
}

// Every calling thread, at the barrier that orders the partials: how many threads called, and
// whether this one leads (thread 0, or the lowest calling thread where not all called).
__device__ inline bool ticket_census(::cuda::std::uint32_t& callers)
{
  __shared__ ::cuda::std::uint32_t lowest;
  const ::cuda::std::uint32_t me = linear_thread();
  callers                        = static_cast<::cuda::std::uint32_t>(__syncthreads_count(1));
  if (callers == block_threads())
  {
    return me == 0;
  }
  lowest = ~0u; // every caller writes the same value
  __syncthreads();
  atomicMin(&lowest, me);
  __syncthreads();
  return lowest == me;
}

// The leader's checks of one arrival; false: take no ticket (reported). The launch is poisoned
// (nobody merges) where not every thread called, although the arrival still counts (R15).
template <class State>
__device__ bool ticket_arrival(State* s, ::cuda::std::uint32_t tag, const checked::sink* sink, arrival_record& last_seen,
                               ::cuda::std::uint32_t unit, ::cuda::std::uint32_t callers, ::cuda::std::uint32_t threads,
                               bool owner_check)
{
  const auto where = static_cast<::cuda::std::uint32_t>(reinterpret_cast<unsigned long long>(s));
  if (s == nullptr || s->tag != tag)
  {
    checked::report(sink, rule::initialised, where, 0, s == nullptr ? 0u : s->tag, " (detail: the tag found)");
    return false;
  }
  const arrival_record me{ptx::get_sreg_gridid() + 1, unit, where};
  if (last_seen.launch == me.launch && last_seen.unit == me.unit && last_seen.ticket == me.ticket)
  {
    checked::report(sink, rule::uniform_call, where, 2, callers, " (phase 2: a second call)");
    return false;
  }
  last_seen = me;
  if (callers != threads)
  {
    checked::report(sink, rule::uniform_call, where, 1, callers, " (not every thread called; detail: how many did)");
    atomicExch(&s->poisoned, 1u);
  }
  if (owner_check)
  {
    const unsigned long long owner = atomicCAS(&s->owner, 0ull, me.launch);
    __threadfence(); // the owner's reset (ticket_release) before this launch's ticket
    if (owner != 0 && owner != me.launch)
    {
      checked::report(sink, rule::one_launch_per_ticket, where, 0, static_cast<::cuda::std::uint32_t>(owner - 1),
                      " (detail: the owner's %gridid)");
      atomicExch(&s->poisoned, 1u);
      return false;
    }
  }
  return true;
}

// A CTA of a cluster other than rank 0 (which takes the ticket), where not every thread called:
// reported, and the launch poisoned.
template <class State>
__device__ void ticket_partial_cta(State* s, ::cuda::std::uint32_t tag, const checked::sink* sink,
                                   ::cuda::std::uint32_t callers, ::cuda::std::uint32_t threads)
{
  if (callers != threads && s != nullptr && s->tag == tag)
  {
    checked::report(sink, rule::uniform_call, 0, 1, callers, " (not every thread called; detail: how many did)");
    atomicExch(&s->poisoned, 1u);
  }
}

// The last arrival of a launch: merge unless the launch was poisoned; the ticket is free again.
template <class State>
__device__ bool ticket_release(State* s)
{
  const bool poisoned = atomicExch(&s->poisoned, 0u) != 0;
  __threadfence();
  atomicExch(&s->owner, 0ull);
  return !poisoned;
}
} // namespace detail
PTXW_NAMESPACE_END
