// ptxw/core/rules.h: the rules ptxw enforces, each written once -- its number, its name and what a
// violation is. Everything else takes them from here: compile-time messages (PTXW_RULE(R4) "..."),
// checked-mode reports (ptxw::rule::one_observation), ptxw::checked::rule_name() and the table in
// docs/rules.md (tests/tools/test_rules.py checks that it agrees).
#pragma once

#include <ptxw/core/config.h>

//                  number  id                     name                    a violation
#define PTXW_RULE_R1 (1, failed_request, "failed request", "a request after an observed failure")
#define PTXW_RULE_R2 (2, no_decode_of_failure, "no decode of failure", "a decode of a failed response")
#define PTXW_RULE_R3 (3, one_submitter, "one submitter", "more than one submitter in a phase")
#define PTXW_RULE_R4 (4, one_observation, "one observation", "a request while readers still read the slot")
#define PTXW_RULE_R5 (5, armed_barrier, "armed barrier", "a barrier never armed for this phase")
#define PTXW_RULE_R6 (6, parity, "parity", "a wait on the wrong phase, or one that never completes")
#define PTXW_RULE_R7 (7, barrier_init, "barrier init", "a barrier used before its init was made visible")
#define PTXW_RULE_R8 (8, whole_cluster, "whole cluster", "a cluster request before every CTA of the cluster runs")
#define PTXW_RULE_R9 (9, target, "target", "an instruction form the target does not have")
#define PTXW_RULE_R10 (10, qualifiers, "qualifiers", "a qualifier combination the PTX ISA does not define")
#define PTXW_RULE_R11 (11, units, "units", "a count of the wrong unit, or out of the PTX range")
#define PTXW_RULE_R12 (12, barrier_scope, "barrier scope", "a cluster-scope operation on a CTA barrier")
#define PTXW_RULE_R13 (13, grid_rank, "grid rank", "a grid of more dimensions than for_each_canceled_block's Rank")
#define PTXW_RULE_R14 (14, prepared_launch, "prepared launch", "a launch that is not the prepared grid or a prefix of it, or not of the backend prepared for")
#define PTXW_RULE_R15 (15, uniform_call, "uniform call", "not every thread of the block called, or a block called twice")
#define PTXW_RULE_R16 (16, one_launch_per_ticket, "one launch per ticket", "a ticket used by two launches at once")
#define PTXW_RULE_R17 (17, initialised, "initialised", "a ticket or queue whose memory was not initialised")
#define PTXW_RULE_R18 (18, in_range, "in range", "a count beyond its type, a queue beyond its capacity, a batch outside [1, 32]")
#define PTXW_RULE_R19 (19, one_item_at_a_time, "one item at a time", "the read of no item, or of an item no longer current")
#define PTXW_RULE_R20 (20, exactly_once, "exactly once", "a task lost (its ticket ended unretired) or taken twice")
#define PTXW_RULE_R21 (21, exact_termination, "exact termination", "a child not counted before its parent retires: more pushes than the fork reserved")
#define PTXW_RULE_R22 (22, owner_and_thief, "owner and thief", "a pop from a thief end, or a second owner of one deque")
#define PTXW_RULE_R23 (23, no_overwrite, "no overwrite", "a push into a full queue whose result is not looked at")
#define PTXW_RULE_R24 (24, resident_workers, "resident workers", "a grid of more workers than are resident, or a worker's wait that outlives its bound")
#define PTXW_RULE_R25 (25, published_before_read, "published before read", "a task read before the write of it was published")
#define PTXW_RULE_R26 (26, one_arrival, "one arrival", "an arrival at a join not opened, a task's second arrival, more arrivals than opened for, or fewer by the pool's end")
#define PTXW_RULE_R27 (27, stage_ownership, "stage ownership", "a stage refilled while a consumer still holds it, or a stage handed over twice or never")
#define PTXW_RULE_R28 (28, stage_accounting, "stage accounting", "arrivals or transaction bytes a stage's barrier was not set up for")
#define PTXW_RULE_R29 (29, proxy_fence, "proxy fence", "generic writes to a stage read by the async proxy without fence.proxy.async between them")
#define PTXW_RULE_R30 (30, progress, "progress", "every role of a pipeline waiting, none able to complete another's wait")
#define PTXW_RULE_R31 (31, live_payload, "live payload", "a seeded task that points to memory the device cannot read")
#define PTXW_RULE_R32 (32, one_launch_per_scheduler, "one launch per scheduler", "two launches of one work-stealing scheduler running at once")

#define PTXW_RULES(X)                                                                                               \
  PTXW_APPLY(X, PTXW_RULE_R1)                                                                                       \
  PTXW_APPLY(X, PTXW_RULE_R2)                                                                                       \
  PTXW_APPLY(X, PTXW_RULE_R3)                                                                                       \
  PTXW_APPLY(X, PTXW_RULE_R4)                                                                                       \
  PTXW_APPLY(X, PTXW_RULE_R5)                                                                                       \
  PTXW_APPLY(X, PTXW_RULE_R6)                                                                                       \
  PTXW_APPLY(X, PTXW_RULE_R7)                                                                                       \
  PTXW_APPLY(X, PTXW_RULE_R8)                                                                                       \
  PTXW_APPLY(X, PTXW_RULE_R9)                                                                                       \
  PTXW_APPLY(X, PTXW_RULE_R10)                                                                                      \
  PTXW_APPLY(X, PTXW_RULE_R11)                                                                                      \
  PTXW_APPLY(X, PTXW_RULE_R12)                                                                                      \
  PTXW_APPLY(X, PTXW_RULE_R13)                                                                                      \
  PTXW_APPLY(X, PTXW_RULE_R14)                                                                                      \
  PTXW_APPLY(X, PTXW_RULE_R15)                                                                                      \
  PTXW_APPLY(X, PTXW_RULE_R16)                                                                                      \
  PTXW_APPLY(X, PTXW_RULE_R17)                                                                                      \
  PTXW_APPLY(X, PTXW_RULE_R18)                                                                                      \
  PTXW_APPLY(X, PTXW_RULE_R19)                                                                                      \
  PTXW_APPLY(X, PTXW_RULE_R20)                                                                                      \
  PTXW_APPLY(X, PTXW_RULE_R21)                                                                                      \
  PTXW_APPLY(X, PTXW_RULE_R22)                                                                                      \
  PTXW_APPLY(X, PTXW_RULE_R23)                                                                                      \
  PTXW_APPLY(X, PTXW_RULE_R24)                                                                                      \
  PTXW_APPLY(X, PTXW_RULE_R25)                                                                                      \
  PTXW_APPLY(X, PTXW_RULE_R26)                                                                                      \
  PTXW_APPLY(X, PTXW_RULE_R27)                                                                                      \
  PTXW_APPLY(X, PTXW_RULE_R28)                                                                                      \
  PTXW_APPLY(X, PTXW_RULE_R29)                                                                                      \
  PTXW_APPLY(X, PTXW_RULE_R30)                                                                                      \
  PTXW_APPLY(X, PTXW_RULE_R31)                                                                                      \
  PTXW_APPLY(X, PTXW_RULE_R32)

#define PTXW_APPLY(macro, args) macro args

// The start of a compile-time message: PTXW_RULE(R4) "the rest" is "ptxw: R4 one observation: the rest".
#define PTXW_RULE(r) PTXW_APPLY(PTXW_RULE_PREFIX, PTXW_RULE_##r)
#define PTXW_RULE_PREFIX(number, id, name, violation) "ptxw: R" #number " " name ": "

PTXW_NAMESPACE_BEGIN
// A rule, as checked-mode reports name it.
enum class rule : unsigned
{
#define PTXW_RULE_ENUMERATOR(number, id, name, violation) id = number,
  PTXW_RULES(PTXW_RULE_ENUMERATOR)
#undef PTXW_RULE_ENUMERATOR
};
PTXW_NAMESPACE_END
