// ptxw/core/checked.h: checked mode, the run-time half of the rules.
//
// PTXW_CHECKED=1 turns on the checks types cannot make: a wait that never completes (R5, R6), a
// thread waiting on a stale phase (R6), and in ptxw/clc/handle.h a request after an observed failure (R1),
// a raw decode of a failure (R2), two submitters in one phase (R3), a request while readers still
// read (R4). Default: on unless NDEBUG is defined, like assert. A check that fires records a
// ptxw::checked::diagnostic (rule, block, thread, barrier or slot address, phase) into a sink the
// host attached (ptxw/core/checked_host.h): the one a ptxw::clc::context carries, or for the mbarrier
// types, which take no context, the default sink; with no sink it prints the diagnostic and traps.
// Either way a broken protocol becomes a report, never a silent hang or silent corruption.
#pragma once

#include <ptxw/core/target.h>

#if PTXW_CCCL_FAMILY_HEADERS
#  include <cuda/__ptx/instructions/get_sreg.h>
#endif

#include <cstdio> // device printf, the report of last resort

// Default time a checked wait may take before it is reported (R5/R6), in nanoseconds.
#ifndef PTXW_CHECKED_TIMEOUT_NS
#  define PTXW_CHECKED_TIMEOUT_NS 2000000000ull
#endif

PTXW_NAMESPACE_BEGIN
namespace checked {
// Whether this build checks: for `if constexpr`, where a step differs by mode.
inline constexpr bool on = PTXW_CHECKED != 0;

// One report. `address` is the shared-memory (shared::cta) address of the barrier or slot.
struct diagnostic
{
  ::cuda::std::uint32_t rule; // n of R<n> (ptxw::rule)
  ::cuda::std::uint32_t block[3];
  ::cuda::std::uint32_t thread[3];
  ::cuda::std::uint32_t address;
  ::cuda::std::uint32_t phase; // the phase waited for or requested (count; parity = phase & 1)
  ::cuda::std::uint32_t detail; // rule-specific: what was observed (see describe() in checked_host.h)
};

// Device view of where diagnostics go. Owned by ptxw::checked::diagnostics on the host.
struct sink
{
  diagnostic* records;
  ::cuda::std::uint32_t* count; // reports made, also those beyond capacity
  ::cuda::std::uint32_t capacity;
  ::cuda::std::uint32_t trap; // non-zero: trap after recording
  ::cuda::std::uint64_t timeout_ns; // how long a checked wait may take
};

// A sink that checked builds keep and unchecked builds drop: where a value carries its sink for a
// report only checked mode makes (an empty base in unchecked builds: no byte, no register).
#if PTXW_CHECKED
class carried_sink
{
  const sink* sink_;

public:
  __host__ __device__ explicit carried_sink(const sink* s)
      : sink_(s)
  {}
  __host__ __device__ const sink* carried() const
  {
    return sink_;
  }
};
#else
class carried_sink
{
public:
  __host__ __device__ explicit carried_sink(const sink*) {}
  __host__ __device__ const sink* carried() const
  {
    return nullptr;
  }
};
#endif

// mov.u64 sreg_value, %%globaltimer; (wall time in nanoseconds, whatever the SM clock does)
__device__ inline ::cuda::std::uint64_t now_ns()
{
  return ptx::get_sreg_globaltimer();
}

// Where the reports of operations without a sink of their own (the mbarrier types) go: the sink
// that ptxw::checked::diagnostics::make_default() put here, or none (print and trap). One per
// program with relocatable device code, one per translation unit without.
template <class Deferred = void>
__device__ const sink* default_sink = nullptr;

__device__ inline ::cuda::std::uint64_t timeout_ns(const sink* s)
{
  return s ? s->timeout_ns : PTXW_CHECKED_TIMEOUT_NS;
}

// Every checked wait: polls done() until it returns true (then true) or the sink's timeout passed
// (then false). The clock is read every 64 polls: reading %globaltimer on every poll slows the spin.
template <class Done>
__device__ bool bounded_spin(const sink* s, Done&& done)
{
  if (done())
  {
    return true;
  }
  const ::cuda::std::uint64_t start = now_ns();
  for (unsigned tries = 1; !done(); ++tries)
  {
    if (tries % 64 == 0 && now_ns() - start > timeout_ns(s))
    {
      return false;
    }
  }
  return true;
}

// Record a diagnostic. Without a sink: print it, with `what` (which check, what detail holds), and
// trap, the only report left.
__device__ inline void report(const sink* s, rule r, ::cuda::std::uint32_t address, ::cuda::std::uint32_t phase,
                              ::cuda::std::uint32_t detail = 0, const char* what = "")
{
  const auto rule_number = static_cast<::cuda::std::uint32_t>(r);
  if (s == nullptr || s->records == nullptr)
  {
    printf("ptxw: R%u violated%s: block (%u,%u,%u) thread (%u,%u,%u) barrier/slot 0x%x phase %u (parity %u) detail %u "
           "(0x%x)\n",
           rule_number, what, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z, address, phase,
           phase & 1u, detail, detail);
    __trap();
  }
  const ::cuda::std::uint32_t i = atomicAdd(s->count, 1u);
  if (i < s->capacity)
  {
    s->records[i] = diagnostic{rule_number, {blockIdx.x, blockIdx.y, blockIdx.z}, {threadIdx.x, threadIdx.y, threadIdx.z},
                               address, phase, detail};
    __threadfence_system();
  }
  if (s->trap)
  {
    __trap();
  }
}

} // namespace checked
PTXW_NAMESPACE_END