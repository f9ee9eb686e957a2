// ptxw/inter_block/last_block.h: "this block is the last to arrive" -- a grid reduces per block and the block
// that arrives last merges the partial results, in the same launch instead of a second one.
//
//   __global__ void sum(const int* in, size_t n, long long* partials, long long* out,
//                       ptxw::last_block_ticket<> ticket)
//   {
//     long long s = block_sum(in, n);                     // this block's part, any threads write it
//     if (threadIdx.x == 0) partials[blockIdx.x] = s;
//     if (ptxw::last_block(ticket))                       // every thread of every block, once (R15)
//       merge(partials, gridDim.x, out);                  // all threads of the last block only
//   }
//   ptxw::last_block_ticket_host<> ticket;                // ptxw/inter_block/host/last_block.h, once
//   sum<<<blocks, 256>>>(in, n, partials, out, ticket.view());   // every launch, no memset between
//
// last_cluster(ticket) is the same for cluster launches: true in every CTA of the last cluster.
// Grids and clusters of 1 to 3 dimensions; a ticket counts blocks (clusters) linearly.
//
// Why the merge sees every partial (PTX ISA, memory consistency model):
//  1. bar.sync orders every thread's writes before the leader's ticket (causality order is
//     transitive through the CTA barrier); for clusters barrier.cluster.arrive.release/wait.acquire.
//  2. The leader takes its ticket with atom.release.gpu: a release at gpu scope of all of that.
//  3. The tickets form one read-modify-write chain on the counter, so the block that reads
//     `blocks - 1` has observed every other block's release; it then runs fence.acq_rel.gpu -- the
//     atom's read followed by the fence is an acquire pattern -- and bar.red passes the result to
//     its other threads. Every partial happens before every read of the merge.
//  4. That block sets the counter back to 0 (a plain store): the next launch in stream order starts
//     after this one ended, so tickets are reusable without a memset. Launches that may overlap
//     (other streams, programmatic dependent launch) need a ticket each (R16).
//
// Why not the usual `__threadfence(); if (t == 0) last = atomicAdd(counter, 1) == gridDim.x - 1;`
// followed by __syncthreads: __threadfence() (fence.sc.gpu) before a strong atomic is a valid
// release pattern, but only for the writes of the thread that executes both -- with no barrier
// before the atomic, a slower thread's part of the partial is not ordered before the ticket. And
// no fence follows the atomic in the merging block: without an acquire pattern the model lets its
// reads see stale partials (in SASS: no CCTL.IVALL after the ATOMG, L1 lines may be stale). Moving
// a barrier before it and a second fence after it makes it correct, at the price of MEMBAR.SC.GPU
// plus an L1 invalidation in every block, where atom.release costs MEMBAR.ALL.GPU (isa/atom.h).
//
// Checked mode (PTXW_CHECKED) reports, instead of merging early or wrongly: a block whose threads do
// not all call (R15, detail: how many did; that launch then merges nowhere), a block that calls
// twice (R15, phase 2; the second call returns false), a ticket used by a second launch while
// another uses it (R16, detail: the other launch's %gridid; neither merges), a ticket that was not
// initialised (R17, detail: the tag found) and a grid of more blocks than Count can count (R18).
// A launch that made a report ends with the ticket free again, except after R16/R17: then reset it
// on the host (last_block_ticket_host::reset()).
#pragma once

#include <ptxw/inter_block/checks.h>
#include <ptxw/inter_block/last_arrival.h>
#include <ptxw/isa/atom.h>

#if PTXW_CCCL_FAMILY_HEADERS
#  include <cuda/__ptx/instructions/barrier_cluster.h>
#  include <cuda/__ptx/instructions/get_sreg.h>
#endif

PTXW_NAMESPACE_BEGIN
template <class Count>
class last_block_ticket_host;

// The ticket's global memory. Owned and initialised by last_block_ticket_host.
template <class Count>
struct last_block_ticket_state
{
  Count arrived; // blocks (clusters) of the current launch that took a ticket; the last sets it to 0
  ::cuda::std::uint32_t tag; // detail::ticket_tag once initialised (R17)
  ::cuda::std::uint32_t poisoned; // checked mode: a report in this launch, nobody merges
  unsigned long long owner; // checked mode: %gridid + 1 of the launch using it, 0 when free (R16)
};

namespace detail {
inline constexpr ::cuda::std::uint32_t ticket_tag = 0x7478'6c62u; // "lbxt"
}

// A ticket: the kernel parameter of last_block() and last_cluster(). Made only by
// last_block_ticket_host::view() (R17), so that it always points at initialised memory.
template <class Count = ::cuda::std::uint32_t>
class last_block_ticket
{
  static_assert(detail::isa::is_atom_count<Count>,
                PTXW_RULE(R18) "a ticket counts with atom.add.u32 or .u64: Count is unsigned, unsigned long "
                "or unsigned long long (a signed or narrower count overflows into a wrong merge)");
  last_block_ticket_state<Count>* state_ = nullptr;
  const checked::sink* sink_            = nullptr;

  struct from_host
  {};
  __host__ __device__ last_block_ticket(from_host, last_block_ticket_state<Count>* s, const checked::sink* sink)
      : state_(s)
      , sink_(sink)
  {}
  friend class last_block_ticket_host<Count>;
  template <class C>
  friend __device__ bool last_block(const last_block_ticket<C>&);
  template <class C>
  friend __device__ bool last_cluster(const last_block_ticket<C>&);

public:
  PTXW_ONLY_FROM_HOST(last_block_ticket, "a last_block_ticket comes only from last_block_ticket_host::view(), "
                                         "which owns and initialises its memory")
};

namespace detail {
// The leader's ticket: release, and for the last one acquire and reset (the header's steps 2-4).
template <class Count>
__device__ bool take_ticket(last_block_ticket_state<Count>* s, unsigned long long units)
{
  if (!acquired_if_last(arrive_release(&s->arrived), static_cast<Count>(units - 1)))
  {
    return false;
  }
  s->arrived = 0;
  return true;
}

// last_block without checked mode's checks: for unchecked builds, and for the device-scope
// reduction (ptxw/algorithms/reduce.h), whose kernel calls it once per block by construction and whose
// ticket it initialises itself -- there the checks of R15-R17 guard nothing, and their %gridid
// record would take every replay of a captured CUDA graph for a second call (%gridid repeats).
template <class Count>
__device__ bool last_block_unchecked(last_block_ticket_state<Count>* s, unsigned long long units)
{
  if (units == 1)
  {
    __syncthreads();
    return true;
  }
  return block_arrival([&] { return take_ticket(s, units); });
}

// Checked mode's arrival of the leader of unit `unit` (a block, or rank 0 of a cluster), `callers`
// of its `threads` threads having called: the checks of ticket_arrival, then the ticket, and for
// the last arrival the release of the launch. True where this unit merges.
template <class Count>
__device__ bool checked_take(last_block_ticket_state<Count>* s, const checked::sink* sink, arrival_record& last_seen,
                             ::cuda::std::uint32_t unit, ::cuda::std::uint32_t callers, ::cuda::std::uint32_t threads,
                             unsigned long long units)
{
  if (!ticket_arrival(s, ticket_tag, sink, last_seen, unit, callers, threads, units > 1))
  {
    return false;
  }
  if (units == 1)
  {
    return callers == threads;
  }
  return take_ticket(s, units) && ticket_release(s);
}
} // namespace detail

// True in every thread of the block that arrives last; all blocks' writes before their call are
// visible to it. Every thread of every block calls it exactly once per launch (R15).
template <class Count>
__device__ bool last_block(const last_block_ticket<Count>& t)
{
  const unsigned long long units = static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z;
  if constexpr (!checked::on)
  {
    return detail::last_block_unchecked(t.state_, units);
  }
  else
  {
    const auto unit   = static_cast<::cuda::std::uint32_t>(blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z));
    const bool origin = blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0; // (unit wraps beyond 2^32: R18)
    if (!detail::ticket_in_range<Count>(t.sink_, units, origin && detail::linear_thread() == 0))
    {
      return false;
    }
    __shared__ detail::arrival_record last_seen;
    ::cuda::std::uint32_t callers = 0;
    const bool leader             = detail::ticket_census(callers); // the barrier of step 1
    const bool last =
      leader && detail::checked_take(t.state_, t.sink_, last_seen, unit, callers, detail::block_threads(), units);
    return __syncthreads_or(last) != 0;
  }
}

// True in every thread of every CTA of the cluster that arrives last (sm_90 and newer). Every
// thread of every CTA calls it exactly once per launch (R15); the ticket counts clusters.
template <class Count>
__device__ bool last_cluster(const last_block_ticket<Count>& t)
{
  constexpr bool target_ok = detail::supports<90, 800, Count>;
  static_assert(target_ok, PTXW_RULE(R9) "last_cluster needs clusters: sm_90 or newer");
  if constexpr (target_ok)
  {
    __shared__ ::cuda::std::uint32_t flag; // written by rank 0's leader into every CTA of the cluster
    const unsigned long long units = static_cast<unsigned long long>(ptx::get_sreg_nclusterid_x())
                                   * ptx::get_sreg_nclusterid_y() * ptx::get_sreg_nclusterid_z();
    const ::cuda::std::uint32_t rank    = ptx::get_sreg_cluster_ctarank();
    const ::cuda::std::uint32_t threads = detail::block_threads();
    ::cuda::std::uint32_t callers       = threads;
    ::cuda::std::uint32_t unit          = 0;
    bool leader                         = detail::linear_thread() == 0;
    if constexpr (checked::on)
    {
      unit = static_cast<::cuda::std::uint32_t>(
        ptx::get_sreg_clusterid_x()
        + ptx::get_sreg_nclusterid_x() * (ptx::get_sreg_clusterid_y() + ptx::get_sreg_nclusterid_y() * ptx::get_sreg_clusterid_z()));
      const bool origin = ptx::get_sreg_clusterid_x() == 0 && ptx::get_sreg_clusterid_y() == 0
                       && ptx::get_sreg_clusterid_z() == 0; // (unit wraps beyond 2^32: R18)
      if (!detail::ticket_in_range<Count>(t.sink_, units, origin && rank == 0 && leader))
      {
        return false;
      }
      leader = detail::ticket_census(callers);
      if (leader && rank != 0)
      {
        detail::ticket_partial_cta(t.state_, detail::ticket_tag, t.sink_, callers, threads); // rank 0 takes the ticket
      }
    }
    ptx::barrier_cluster_arrive(ptx::sem_release); // step 1 for the cluster's CTAs
    ptx::barrier_cluster_wait(ptx::sem_acquire);
    if (leader && rank == 0)
    {
      bool last = false;
      if constexpr (checked::on)
      {
        __shared__ detail::arrival_record last_seen;
        last = detail::checked_take(t.state_, t.sink_, last_seen, unit, callers, threads, units);
      }
      else
      {
        last = units == 1 || detail::take_ticket(t.state_, units);
      }
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900 // __cluster_map_shared_rank exists there only (below: R9)
      for (::cuda::std::uint32_t r = 0; r < ptx::get_sreg_cluster_nctarank(); ++r)
      {
        *static_cast<::cuda::std::uint32_t*>(__cluster_map_shared_rank(&flag, r)) = last ? 1u : 0u;
      }
#endif
    }
    ptx::barrier_cluster_arrive(ptx::sem_release); // the flags, and the last cluster's acquire
    ptx::barrier_cluster_wait(ptx::sem_acquire);
    return flag != 0;
  }
  else
  {
    return false;
  }
}

PTXW_NAMESPACE_END
