// ptxw/clc/checks.h: checked mode's half of the cluster launch control rules, as hooks the handle
// calls around each protocol step (ptxw/clc/handle.h). With PTXW_CHECKED=0 every hook is empty and the
// protocol compiles to what the backend alone emits.
//
//   open           R3: a CTA-cast slot in a cluster launch (several CTAs would cancel alone)
//   before_request R3: a second request for one phase is dropped; R1: after an observed failure,
//                  and R4: while readers of the previous response still read, the request is
//                  answered with a failure instead of a block
//   before_wait    R6: a thread whose phase is not the slot's gets a failure at once
//   timed_out      R5 (this CTA never armed the phase) or R6 (armed, never completed)
//   report_launch  R14: a software backend launched on other than the prepared grid or a prefix
//   check_prepared R14: a context the host prepared for another backend than the one that runs
//   report_overlap R32: counter_t's cursor shared with the scheduler's next launch, running already
#pragma once

#include <ptxw/clc/geometry.h>
#include <ptxw/clc/slot.h>
#include <ptxw/core/checked.h>
#include <ptxw/isa/mapa.h>

#if PTXW_CCCL_FAMILY_HEADERS
#  include <cuda/__ptx/instructions/get_sreg.h>
#endif

PTXW_NAMESPACE_BEGIN
namespace clc::detail {
enum class verdict
{
  submit,
  fail, // answer the request with a failure response
  drop // make no request at all
};

template <class Receivers>
__device__ ::cuda::std::uint32_t slot_address(const slot_storage<Receivers>& s)
{
  return ::ptxw::detail::isa::smem_addr(&s);
}

// Leader thread, at open().
template <class Receivers>
__device__ void checks_open(slot_storage<Receivers>& s, unsigned readers, const checked::sink* sink)
{
#if PTXW_CHECKED
  s.checks = slot_checks{0u, 0u, 0u, readers, 0u};
  if (::ptxw::detail::is_same_v<Receivers, cta_t> && cluster_size<Receivers>() > 1)
  {
    checked::report(sink, rule::one_submitter, slot_address(s), 0, cluster_size<Receivers>());
  }
#else
  (void) s, (void) readers, (void) sink;
#endif
}

// The submitting thread of each CTA, for the request that fills phase k.
template <class Receivers>
__device__ verdict before_request(slot_storage<Receivers>& s, const phase& ph, const checked::sink* sink)
{
#if PTXW_CHECKED
  slot_checks& b                      = s.checks;
  const ::cuda::std::uint32_t k = ph.count();
  if (atomicMax(&b.claimed, k + 1) >= k + 1)
  {
    checked::report(sink, rule::one_submitter, slot_address(s), k, k);
    return verdict::drop;
  }
  if (atomicAdd(&b.failed, 0u) != 0)
  {
    checked::report(sink, rule::failed_request, slot_address(s), k, 0);
    return verdict::fail;
  }
  // Every reader of phase k - 1 released its read; a request made too early is reported and then
  // waits them out. Each CTA checks its own slot_checks: other CTAs' shared memory may be gone.
  const ::cuda::std::uint32_t expected = k * b.readers;
  const ::cuda::std::uint32_t released = atomicAdd(&b.released, 0u);
  if (released != expected)
  {
    checked::report(sink, rule::one_observation, slot_address(s), k, released);
    if (!checked::bounded_spin(sink, [&] {
          return atomicAdd(&b.released, 0u) >= expected;
        }))
    {
      return verdict::fail;
    }
  }
  return verdict::submit;
#else
  (void) s, (void) ph, (void) sink;
  return verdict::submit;
#endif
}

template <class Receivers>
__device__ void after_request(slot_storage<Receivers>& s)
{
#if PTXW_CHECKED
  atomicAdd(&s.checks.requests, 1u);
#else
  (void) s;
#endif
}

// Requests that armed this CTA's barrier so far.
template <class Receivers>
__device__ ::cuda::std::uint32_t requests_made(const slot_storage<Receivers>& s)
{
#if PTXW_CHECKED
  return *static_cast<volatile const ::cuda::std::uint32_t*>(&s.checks.requests);
#else
  (void) s;
  return 0;
#endif
}

// False (after a report) if this thread's phase is behind (stale) or ahead of the slot's requests.
template <class Receivers>
__device__ bool before_wait(const slot_storage<Receivers>& s, const phase& ph, const checked::sink* sink)
{
#if PTXW_CHECKED
  const ::cuda::std::uint32_t k = ph.count();
  const ::cuda::std::uint32_t r = requests_made(s);
  if (r > k + 1 || r < k)
  {
    checked::report(sink, rule::parity, slot_address(s), k, r);
    return false;
  }
#else
  (void) s, (void) ph, (void) sink;
#endif
  return true;
}

// A wait that did not complete in time: never armed for this phase (R5), or armed and never
// completed (R6).
template <class Receivers>
__device__ void timed_out(const slot_storage<Receivers>& s, const phase& ph, const checked::sink* sink)
{
#if PTXW_CHECKED
  const ::cuda::std::uint32_t armed = requests_made(s);
  checked::report(sink, armed <= ph.count() ? rule::armed_barrier : rule::parity, slot_address(s), ph.count(), armed);
#else
  (void) s, (void) ph, (void) sink;
#endif
}

// A reader is done with the response (R4). One shared-memory atomic per warp, not per thread: it
// is the bulk of checked mode's cost.
template <class Receivers>
__device__ void after_read(slot_storage<Receivers>& s)
{
#if PTXW_CHECKED
  const unsigned lanes = __activemask();
  if (ptx::get_sreg_laneid() == static_cast<unsigned>(__ffs(lanes) - 1))
  {
    atomicAdd(&s.checks.released, static_cast<unsigned>(__popc(lanes)));
  }
#else
  (void) s;
#endif
}

// R14: the launch is not the prepared grid or a prefix of it (`grid`: the prepared grid's units).
template <class Receivers>
__device__ void report_launch(const slot_storage<Receivers>& s, unsigned long long grid, const checked::sink* sink)
{
#if PTXW_CHECKED
  checked::report(sink, rule::prepared_launch, slot_address(s), 0, static_cast<::cuda::std::uint32_t>(grid));
#else
  (void) s, (void) grid, (void) sink;
#endif
}

// R32: a claim found counter_t's cursor renewed by the scheduler's next launch (this CTA claims no
// more), or the first CTA found the next launch's cursor in use (detail: this launch's tag,
// ptxw/clc/counter_cursor.h).
template <class Receivers>
__device__ void report_overlap(const slot_storage<Receivers>& s, ::cuda::std::uint32_t tag, const checked::sink* sink)
{
#if PTXW_CHECKED
  checked::report(sink, rule::one_launch_per_scheduler, slot_address(s), 0, tag,
                  " (the scheduler's next launch runs already; detail: this launch's tag)");
#else
  (void) s, (void) tag, (void) sink;
#endif
}

// R14: the host launched for `prepared` (chosen by the architecture; automatic: it chose none) and
// `runs` runs the requests -- under PTX JIT, or a context prepared for another kernel. Reported
// once, by the grid's first thread.
template <class Receivers>
__device__ void check_prepared(const slot_storage<Receivers>& s, backend_id prepared, backend_id runs,
                               const checked::sink* sink)
{
#if PTXW_CHECKED
  if (prepared != backend_id::automatic && prepared != runs && blockIdx.x == 0 && blockIdx.y == 0
      && blockIdx.z == 0 && threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
  {
    checked::report(sink, rule::prepared_launch, slot_address(s), 0, static_cast<::cuda::std::uint32_t>(prepared),
                    " (a context prepared for another backend; detail: the id it was prepared for)");
  }
#else
  (void) s, (void) prepared, (void) runs, (void) sink;
#endif
}

// This CTA observed a failure: from now on it must not request (R1).
template <class Receivers>
__device__ void note_failure(slot_storage<Receivers>& s)
{
#if PTXW_CHECKED
  atomicExch(&s.checks.failed, 1u);
#else
  (void) s;
#endif
}

} // namespace clc::detail
PTXW_NAMESPACE_END
