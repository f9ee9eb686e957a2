// ptxw/mbarrier/pipeline_checks.h: checked mode's ledger of a ptxw::pipeline -- what the barriers
// count, counted again where a report can read it (rules R27, R28, R30).
//
// The barriers themselves cannot be asked how many arrivals a phase got; a deadlock is only a wait
// that does not end. So in checked builds every hand-over is also counted in shared memory, before
// its arrive (whose release orders the count before the phase can complete), and a wait that
// outlives the sink's timeout reads the ledger to name the cause: too few producer arrivals or
// bytes for a fill, too few consumer releases for a refill, or every role waiting on another
// (R30) -- where a plain wait says only "it never completed". A refill that finds a consumer still
// holding the stage is reported when it happens (R27); an arrival beyond the roles' count is
// reported and not made (R28): the hardware may fault on it, and it would complete a later phase.
// After the first report the ledger is "broken": every later wait of the pipeline returns at once,
// so one fault is one report and the kernel ends, never a hang.
//
// Unchecked builds get an empty ledger (a base class of the storage: no byte) whose hooks do nothing.
#pragma once

#include <ptxw/core/checked.h>
#include <ptxw/core/target.h>
#include <ptxw/isa/mapa.h>

PTXW_NAMESPACE_BEGIN
namespace detail {

// The roles' sizes, for reports: threads that wait as producers and as consumers.
struct pipeline_roles_size
{
  ::cuda::std::uint32_t producer_arrivals; // per fill
  ::cuda::std::uint32_t consumer_arrivals; // per refill, from every peer CTA
  ::cuda::std::uint32_t producer_threads;
  ::cuda::std::uint32_t consumer_threads;
};

template <unsigned Stages, bool On = (PTXW_CHECKED != 0)>
struct pipeline_ledger
{
  __device__ void reset() {}
  __device__ bool counted_fill(::cuda::std::uint32_t, ::cuda::std::uint32_t, ::cuda::std::uint32_t, pipeline_roles_size)
  {
    return true;
  }
  __device__ bool counted_release(::cuda::std::uint32_t, ::cuda::std::uint32_t, bool, ::cuda::std::uint32_t,
                                  ::cuda::std::uint32_t, pipeline_roles_size)
  {
    return true;
  }
  __device__ void released(::cuda::std::uint32_t) {}
  __device__ void armed(::cuda::std::uint32_t, ::cuda::std::uint32_t) {}
  __device__ void took(::cuda::std::uint32_t) {}
  __device__ void refills(::cuda::std::uint32_t, ::cuda::std::uint32_t, ::cuda::std::uint32_t) {}
  __device__ bool broken() const
  {
    return false;
  }
  template <class Done>
  __device__ void wait(unsigned, ::cuda::std::uint32_t, ::cuda::std::uint32_t, pipeline_roles_size,
                       ::cuda::std::uint32_t, Done&& done)
  {
    while (!done())
    {
    }
  }
};

template <unsigned Stages>
struct pipeline_ledger<Stages, true>
{
  ::cuda::std::uint32_t fills_[Stages]; // producer arrivals, all fills so far
  ::cuda::std::uint32_t releases_[Stages]; // consumer arrivals from every peer, all rounds so far
  ::cuda::std::uint32_t holders_[Stages]; // this CTA's consumer units between wait and release
  ::cuda::std::uint32_t armed_[Stages]; // bytes the current fill was armed with
  ::cuda::std::uint32_t waiting_[2]; // threads waiting now: [0] producers, [1] consumers
  ::cuda::std::uint32_t broken_;

  // By the thread that initialises the barriers, before the init is published.
  __device__ void reset()
  {
    for (unsigned s = 0; s < Stages; ++s)
    {
      fills_[s] = releases_[s] = holders_[s] = armed_[s] = 0;
    }
    waiting_[0] = waiting_[1] = broken_ = 0;
  }

  __device__ bool broken() const
  {
    return *static_cast<const volatile ::cuda::std::uint32_t*>(&broken_) != 0;
  }

  __device__ void report(rule r, ::cuda::std::uint32_t barrier, ::cuda::std::uint32_t round, ::cuda::std::uint32_t detail,
                         const char* what)
  {
    if (atomicExch(&broken_, 1u) == 0)
    {
      checked::report(checked::default_sink<>, r, barrier, round, detail, what);
    }
  }

  // A producer arrival for fill `round` of stage s, before the arrive: false (after a report) for
  // an arrival beyond the producers' count, which must not be made -- the phase completed without
  // it, and on the next phase it would complete a fill that has not happened (NVIDIA/cutlass #2404).
  __device__ bool counted_fill(::cuda::std::uint32_t s, ::cuda::std::uint32_t barrier, ::cuda::std::uint32_t round,
                               pipeline_roles_size roles)
  {
    const ::cuda::std::uint32_t n = atomicAdd(&fills_[s], 1u);
    if (n < (round + 1) * roles.producer_arrivals)
    {
      return true;
    }
    report(rule::stage_accounting, barrier, round, n - round * roles.producer_arrivals + 1,
           " (more producer arrivals on a full barrier than its producers give, not made; detail: arrivals in this "
           "fill)");
    return false;
  }

  // A consumer warp's arrival for fill `round` of stage s on the empty barrier in the CTA of
  // cluster rank `rank` (its own included), before the arrive: false (after a report) for one
  // beyond the consumers' count, which would let the producer refill a stage still being read.
  __device__ bool counted_release(::cuda::std::uint32_t s, ::cuda::std::uint32_t rank, bool cluster,
                                  ::cuda::std::uint32_t barrier, ::cuda::std::uint32_t round, pipeline_roles_size roles)
  {
    ::cuda::std::uint32_t* count = &releases_[s];
    if (cluster)
    {
      count = static_cast<::cuda::std::uint32_t*>(__cluster_map_shared_rank(count, rank));
    }
    const ::cuda::std::uint32_t n = atomicAdd(count, 1u);
    if (n < (round + 1) * roles.consumer_arrivals)
    {
      return true;
    }
    report(rule::stage_accounting, barrier, round, n - round * roles.consumer_arrivals + 1,
           " (more consumer arrivals on an empty barrier than its consumers give, not made; detail: arrivals in "
           "this round)");
    return false;
  }
  __device__ void released(::cuda::std::uint32_t s)
  {
    atomicSub(&holders_[s], 1u);
  }

  __device__ void armed(::cuda::std::uint32_t s, ::cuda::std::uint32_t bytes)
  {
    armed_[s] = bytes;
  }

  // A consumer unit's wait for fill `round` of stage s completed: it holds the stage.
  __device__ void took(::cuda::std::uint32_t s)
  {
    atomicAdd(&holders_[s], 1u);
  }

  // The producer's wait for stage s to be free for fill `round` >= 1 completed: no consumer may
  // still hold it (tile-ai/tilelang #3087: a stage refilled while a consumer still reads it).
  __device__ void refills(::cuda::std::uint32_t s, ::cuda::std::uint32_t barrier, ::cuda::std::uint32_t round)
  {
    const ::cuda::std::uint32_t holders = round == 0 ? 0u : atomicAdd(&holders_[s], 0u);
    if (holders != 0)
    {
      report(rule::stage_ownership, barrier, round, holders,
             " (a stage refilled while consumers still hold it; detail: consumer units holding it)");
    }
  }

  // A wait of role `role` (0 producer, 1 consumer) on `barrier` (stage s, fill or refill `round`)
  // that outlived the sink's timeout: which count is short, or whether every role waits.
  __device__ void timed_out(unsigned role, ::cuda::std::uint32_t s, ::cuda::std::uint32_t barrier,
                            pipeline_roles_size roles, ::cuda::std::uint32_t round)
  {
    const bool everyone = atomicAdd(&waiting_[0], 0u) == roles.producer_threads
                       && atomicAdd(&waiting_[1], 0u) == roles.consumer_threads;
    if (everyone)
    {
      report(rule::progress, barrier, round, s,
             " (every producer and consumer waits: none can complete another's wait; detail: this wait's stage)");
    }
    else if (role == 1)
    {
      const ::cuda::std::uint32_t got = atomicAdd(&fills_[s], 0u) - round * roles.producer_arrivals;
      if (got < roles.producer_arrivals)
      {
        report(rule::stage_accounting, barrier, round, got,
               " (a fill with fewer producer arrivals than its producers give; detail: arrivals in this fill)");
      }
      else
      {
        report(rule::stage_accounting, barrier, round, armed_[s],
               " (a fill whose armed bytes never all arrived: the copies carry fewer bytes than were armed; "
               "detail: bytes armed)");
      }
    }
    else
    {
      const ::cuda::std::uint32_t got = atomicAdd(&releases_[s], 0u) - (round - 1) * roles.consumer_arrivals;
      report(rule::stage_accounting, barrier, round, got,
             " (a refill waits for consumer releases that never came: fewer consumers release than the pipeline "
             "counts; detail: releases in this round)");
    }
  }

  // A bounded wait for `done()`: the role counts as waiting while it spins.
  template <class Done>
  __device__ void wait(unsigned role, ::cuda::std::uint32_t s, ::cuda::std::uint32_t barrier,
                       pipeline_roles_size roles, ::cuda::std::uint32_t round, Done&& done)
  {
    if (broken() || done())
    {
      return;
    }
    atomicAdd(&waiting_[role], 1u);
    const checked::sink* sink = checked::default_sink<>;
    const bool ok             = checked::bounded_spin(sink, [&] {
      return broken() || done();
    });
    if (!ok && (role == 0 || ptx::get_sreg_laneid() == 0))
    {
      timed_out(role, s, barrier, roles, round);
    }
    atomicSub(&waiting_[role], 1u);
    if (!ok)
    {
      atomicExch(&broken_, 1u);
    }
  }
};

} // namespace detail
PTXW_NAMESPACE_END
