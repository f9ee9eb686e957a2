// ptxw/clc/ring_checks.h: checked mode's half of the rules of a cluster launch control response
// ring (ptxw/clc/ring.h), as hooks the ring's roles call around each step. With PTXW_CHECKED=0
// every hook is empty and the ring compiles to the protocol alone.
//
//   ring_before_request  the scheduler's submitter, after its bounded wait for the stage's release:
//                        R3 a second scheduler claims the same step (its request is dropped);
//                        R1 a request after the scheduler observed a failure, and R4 a stage some
//                        consumer never released -- both answered with a failure instead of a block
//   ring_unreleased      R4 in the cluster form: a stage some consumer never released when the
//                        leader, after the failure, waits for the last releases before it leaves
//   ring_consumer_open   R18 a consumer role outside [0, Consumers)
//   ring_release         R4 a role that releases a stage twice in one round, or a token of
//                        another role; a token whose wait ran out releases nothing
//   ring_wait_timed_out  R5 (the stage was never requested for this round) or R6 (requested and
//                        never completed)
//
// Reports name the stage and the role: `phase` is the role's step (the stage is phase % Depth, the
// round phase / Depth), `detail` the consumer roles concerned (a bit per role: those that did not
// release, for R4 at the scheduler) or the role (for the consumers' own reports).
#pragma once

#include <ptxw/clc/checks.h>
#include <ptxw/clc/slot.h>
#include <ptxw/core/checked.h>
#include <ptxw/isa/mapa.h>

PTXW_NAMESPACE_BEGIN
namespace clc::detail {
// One ring's checked-mode bookkeeping, in the ring's shared memory.
template <unsigned Depth>
struct ring_checks
{
  ::cuda::std::uint32_t claimed; // steps a scheduler claimed, plus one: R3 sees a second claim
  ::cuda::std::uint32_t failed; // the scheduler observed a failure: R1
  ::cuda::std::uint32_t released[Depth]; // per stage, a bit per consumer role that released its response: R4
  ::cuda::std::uint32_t requests[Depth]; // per stage, requests made into it: R5 or R6 for a wait that ran out
};

// Every consumer role, as a mask of Consumers bits.
template <unsigned Consumers>
inline constexpr ::cuda::std::uint32_t all_roles = Consumers >= 32 ? ~0u : (1u << Consumers) - 1u;

// Leader thread, at open().
template <unsigned Depth>
__device__ void ring_checks_open(ring_checks<Depth>& c)
{
  c.claimed = 0;
  c.failed  = 0;
  for (unsigned s = 0; s < Depth; ++s)
  {
    c.released[s] = 0;
    c.requests[s] = 0;
  }
}

// The consumer roles that have not released `stage` in its current round, in the first CTA that
// has such roles among those the ring's answers go to (its rank in `rank`; in the cluster form each
// CTA records its own consumers' releases, read here through distributed shared memory); none: 0.
// `restart`: take the records and start the next round's (one atomic exchange per CTA).
template <unsigned Depth, unsigned Consumers, class Receivers>
__device__ ::cuda::std::uint32_t
unreleased_roles(ring_checks<Depth>& c, ::cuda::std::uint32_t stage, bool restart, unsigned& rank)
{
  ::cuda::std::uint32_t missing = 0;
  for (unsigned i = 0; i < destinations<Receivers>(); ++i)
  {
    const unsigned r            = destination_rank<Receivers>(i);
    ::cuda::std::uint32_t* word = &(is_cluster<Receivers> ? in_cta(&c, r) : &c)->released[stage];
    const ::cuda::std::uint32_t lacking = all_roles<Consumers> & ~(restart ? atomicExch(word, 0u) : atomicAdd(word, 0u));
    if (missing == 0 && lacking != 0)
    {
      missing = lacking;
      rank    = r;
    }
  }
  return missing;
}

// Where a report about a stage of CTA `rank` points: the stage's shared-memory address, in the
// cluster form its shared::cluster address (mapa), which names the CTA.
template <class Receivers>
__device__ ::cuda::std::uint32_t stage_in_cta(::cuda::std::uint32_t address, unsigned rank)
{
  if constexpr (is_cluster<Receivers>)
  {
    return ::ptxw::detail::isa::mapa_shared_cluster(address, rank);
  }
  else
  {
    (void) rank;
    return address;
  }
}

// The scheduler's submitter, for its request number `step` into `stage`. `leads`: its CTA submits
// (in the cluster form only the leader's; the others arm their own copy of the stage). `free_stage`:
// whether the bounded wait for every consumer's release of the stage's previous response completed.
//
// Every request that goes ahead -- a block or a failure (R1, R4) -- starts the stage's next round,
// whose consumers read it and release it: one atomic exchange per receiving CTA both takes the
// releases recorded for the round that ends and starts the new round's record. A release's record
// is written before its arrival on the empty barrier (release semantics), and the exchange comes
// after the scheduler's wait on that barrier: acquired where the wait completed; where it ran out,
// a read-modify-write, which sees every record written before it. No release of the new round can
// come before the exchange: a consumer releases only a response it read (a wait that ran out
// arrives nowhere), and the new round's response is written after it. Left unreset where a request
// answers with a failure, the roles that did release the ended round would be reported for
// releasing the failure "twice in a round".
template <unsigned Depth, unsigned Consumers, class Receivers>
__device__ verdict ring_before_request(ring_checks<Depth>& c, ::cuda::std::uint32_t address, ::cuda::std::uint32_t stage,
                                       ::cuda::std::uint32_t step, bool leads, bool free_stage, const checked::sink* sink)
{
  if (atomicMax(&c.claimed, step + 1) >= step + 1)
  {
    checked::report(sink, rule::one_submitter, address, step, step,
                    " (a second ring scheduler requests the same step; detail: the step)");
    return verdict::drop;
  }
  unsigned rank                        = 0;
  const ::cuda::std::uint32_t missing = leads ? unreleased_roles<Depth, Consumers, Receivers>(c, stage, true, rank) : 0u;
  if (atomicAdd(&c.failed, 0u) != 0)
  {
    checked::report(sink, rule::failed_request, address, step, stage,
                    " (a ring request after the scheduler observed a failure; detail: the stage)");
    return verdict::fail;
  }
  if (!free_stage)
  {
    checked::report(sink, rule::one_observation, stage_in_cta<Receivers>(address, rank), step, missing,
                    " (a ring stage some consumer never released; phase: the request, stage = phase % Depth; "
                    "detail: a bit per consumer role that did not release; in the cluster form the address is the "
                    "stage's shared::cluster address in the CTA of those roles)");
    return verdict::fail;
  }
  return verdict::submit;
}

// The cluster form's leader, whose wait for the last releases of `stage` after the failure ran
// out. Only its own CTA's record is read: another CTA may have left after it read the failure.
template <unsigned Depth, unsigned Consumers, class Receivers>
__device__ void ring_unreleased(ring_checks<Depth>& c, ::cuda::std::uint32_t address, ::cuda::std::uint32_t stage,
                                ::cuda::std::uint32_t step, const checked::sink* sink)
{
  unsigned rank                        = 0;
  const ::cuda::std::uint32_t missing = unreleased_roles<Depth, Consumers, cta_t>(c, stage, false, rank);
  checked::report(sink, rule::one_observation, address, step, missing,
                  " (a ring stage some consumer never released before the ring ended; detail: a bit per consumer "
                  "role of the leader CTA that did not release, 0 where they are another CTA's)");
}

template <unsigned Depth>
__device__ void ring_after_request(ring_checks<Depth>& c, ::cuda::std::uint32_t stage)
{
  atomicAdd(&c.requests[stage], 1u);
}

template <unsigned Depth>
__device__ void ring_note_failure(ring_checks<Depth>& c)
{
  atomicExch(&c.failed, 1u);
}

// Every lane of a consumer warp, when it is made: false (after a report) for a role out of range,
// whose releases then arrive nowhere (an extra arrival would complete the stage's release early).
template <unsigned Consumers>
__device__ bool ring_consumer_open(::cuda::std::uint32_t address, ::cuda::std::uint32_t role, const checked::sink* sink)
{
  if (role >= Consumers)
  {
    const unsigned lanes = __activemask(); // one report for the warp
    if (ptx::get_sreg_laneid() == static_cast<unsigned>(__ffs(lanes) - 1))
    {
      checked::report(sink, rule::in_range, address, 0, role,
                      " (a ring consumer role outside [0, Consumers); detail: the role)");
    }
    return false;
  }
  return true;
}

// One lane of a consumer warp releasing `stage` as `role` (the role the token was read by:
// `token_role`); false where the release must not arrive: after a report, or silently for a token
// whose wait ran out (`read` false: R5 or R6 was reported, no response of this round was read, and
// an arrival would complete the release of the round before -- the one the scheduler may still be
// waiting for). The record is written before the caller's arrival (release semantics) publishes it.
template <unsigned Depth>
__device__ bool ring_release(ring_checks<Depth>& c, ::cuda::std::uint32_t address, ::cuda::std::uint32_t stage,
                             ::cuda::std::uint32_t step, ::cuda::std::uint32_t role, ::cuda::std::uint32_t token_role,
                             bool live, bool read, const checked::sink* sink)
{
  if (!live)
  {
    checked::report(sink, rule::one_observation, address, step, role,
                    " (a ring token released twice; phase: the consumer's step, stage = phase % Depth; detail: "
                    "the role)");
    return false;
  }
  if (!read)
  {
    return false;
  }
  if (token_role != role)
  {
    checked::report(sink, rule::one_observation, address, step, token_role,
                    " (a ring token released by another consumer role than the one that read it; detail: the "
                    "reader's role)");
    return false;
  }
  const ::cuda::std::uint32_t bit = 1u << role;
  if (atomicOr(&c.released[stage], bit) & bit)
  {
    checked::report(sink, rule::one_observation, address, step, role,
                    " (a ring stage released twice by one role in a round; detail: the role)");
    return false;
  }
  return true;
}

// A bounded wait for a stage's response that ran out: never requested for this round (R5), or
// requested and never completed (R6). `step`: the waiter's step; `who`: its role (the scheduler: ~0u).
template <unsigned Depth>
__device__ void ring_wait_timed_out(const ring_checks<Depth>& c, ::cuda::std::uint32_t address, ::cuda::std::uint32_t stage,
                                    ::cuda::std::uint32_t step, ::cuda::std::uint32_t who, const checked::sink* sink)
{
  const ::cuda::std::uint32_t requested = *static_cast<volatile const ::cuda::std::uint32_t*>(&c.requests[stage]);
  const bool armed                      = requested > step / Depth;
  checked::report(sink, armed ? rule::parity : rule::armed_barrier, address, step, who,
                  armed ? " (a ring stage requested and never completed; detail: the waiting role, ~0 the scheduler)"
                        : " (a ring stage never requested for this round; detail: the waiting role, ~0 the scheduler)");
}

} // namespace clc::detail
PTXW_NAMESPACE_END
