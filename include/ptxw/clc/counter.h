// ptxw/clc/counter.h: Hopper's fast backend -- cluster launch control's contract on one global
// counter (sm_90 and newer; the default there, through automatic_t).
//
// The launch is a prefix of the grid: the first L units (CTAs, or clusters for cluster_t) in
// x-fastest order, as ptxw::clc::scheduler::prepare(kernel, ...) sizes it to what fits on the GPU
// at once (the table's resident prefix, ptxw/clc/backend_table.h) -- or the whole grid. Each launched
// unit runs its own block first; the units beyond the launch are the canceled ones, handed out by
// one atomicAdd on a global counter (which no launch clears first: ptxw/clc/counter_cursor.h) and
// never started, as on hardware. The whole grid may be launched too (every request then fails at
// once), at a dispatch cost per CTA that a resident-prefix launch saves (docs/scheduling.md).
//
// The order of request and work follows hardware CLC: the request is issued before the work and
// the atomic's result is consumed after it, so its latency hides behind the work. The submitter
// delivers the response itself when it reaches wait() -- a generic-proxy store and a release
// arrive on each receiving CTA's barrier, which that CTA's own request armed with an arrival of its
// own -- so there is no async proxy, no transaction count and no proxy fence on this path. Claims
// are the claim engine's (ptxw/claim/engine.h): short blocks are taken up to 32 per atomic, at the
// pace the submitter measured, long ones one by one.
//
// A launch that is not a prefix of the prepared grid is reported (R14); every launched unit then
// takes all its blocks from the counter, so that each block still runs exactly once.
// Two launches of one scheduler at once (R32): a claim that finds the cursor renewed by the next
// launch ends the CTA's claims (its requests fail), where claiming again would never end, and the
// renewal of a next launch already running leaves its count; checked mode reports both.
#pragma once

#include <ptxw/claim/engine.h>
#include <ptxw/clc/backend_interface.h>
#include <ptxw/clc/checks.h>
#include <ptxw/clc/counter_cursor.h>

PTXW_NAMESPACE_BEGIN
namespace detail {
struct no_prologue; // ptxw/clc/for_each.h: what the overloads without a prologue pass
} // namespace detail

namespace clc::detail {
namespace claim = ::ptxw::detail::claim;

template <>
struct backend<counter_t>
    : software_decode
    , table_gate<counter_t>
{
  struct state
  {
    counter_cursor cursor; // indices handed out beyond the launch
    uint3 grid; // the grid, in blocks
    uint3 cluster; // blocks per cluster
    fast_divisor row; // units per row of the grid in clusters (x)
    fast_divisor plane; // units per plane (x * y)
  };
  static state make_state(const launch_plan& p)
  {
    const uint3 u{p.grid.x / p.cluster.x, p.grid.y / p.cluster.y, p.grid.z / p.cluster.z};
    return {{p.counters, p.next_cursor, p.cursor_tag}, p.grid, p.cluster, make_fast_divisor(u.x),
            make_fast_divisor(u.x * u.y)};
  }

  static __device__ uint3 grid(const state& st)
  {
    return st.grid;
  }

  // Two arrivals complete a phase: the CTA's own request (which arms it, as expect_tx does on the
  // other backends: a CTA that never requests never completes, R5) and the delivery.
  static constexpr ::cuda::std::uint32_t arrivals_per_phase = 2;

  // No synchronisation: every thread works out the same launch prefix; the launch's first CTA
  // renews the next launch's cursor (ptxw/clc/counter_cursor.h).
  template <class Receivers>
  __device__ bool start(slot_storage<Receivers>& s, const state& st, const checked::sink* sink)
  {
    const uint3 grid     = units<Receivers>(st);
    const uint3 launched = is_cluster<Receivers> ? grid_clusters<Receivers>() : uint3{gridDim.x, gridDim.y, gridDim.z};
    const uint3 dims     = cluster_dims<Receivers>();
    const bool same_cluster =
      !is_cluster<Receivers> || (dims.x == st.cluster.x && dims.y == st.cluster.y && dims.z == st.cluster.z);
    prefix_   = same_cluster && is_prefix_box(launched, grid);
    launched_  = prefix_ ? static_cast<::cuda::std::uint32_t>(volume(launched)) : 0u;
    stealable_ = static_cast<::cuda::std::uint32_t>(volume(grid)) - launched_;
    sink_      = sink;
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
    {
      if (blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0)
      {
        if (!st.cursor.renew_next())
        {
          report_overlap(s, st.cursor.tag, sink);
        }
        if (!prefix_)
        {
          report_launch(s, volume(grid), sink);
        }
      }
      s.batch = {}; // published by the barrier that precedes every request
    }
    return true;
  }

  // Whether this CTA's first block is its own blockIdx (false only after an R14 report: then all
  // come from requests).
  __device__ bool owns_block() const
  {
    return prefix_;
  }

  // Every CTA's submitter arms its barrier; rank 0's also takes the next index (take()).
  template <claims Claims = claims::batched, class Receivers>
  __device__ void request(slot_storage<Receivers>& s, const state& st, bool submit, bool fail)
  {
    if (submit)
    {
      s.bar.arrive(ptx::sem_relaxed, typename decltype(s.bar)::scope_type{});
    }
    take<Claims>(s.batch, st, submit & (!is_cluster<Receivers> || cluster_rank<Receivers>() == 0), fail);
  }

  template <class Receivers, class Wait>
  __device__ bool receive(slot_storage<Receivers>& s, const state& st, phase& ph, uint4& out, Wait&& wait)
  {
    if (pending_ != pending::none)
    {
      const uint4 r = resolve(s, st);
      if constexpr (is_cluster<Receivers>)
      {
        for (unsigned rank = 0; rank < cluster_size<Receivers>(); ++rank)
        {
          *in_cta(&s.response, rank) = r;
        }
        for (unsigned rank = 0; rank < cluster_size<Receivers>(); ++rank)
        {
          s.bar.remote(cta_rank{rank}).arrive(); // release.cluster: the stores above first
        }
      }
      else
      {
        s.response = r;
        s.bar.arrive(); // release.cta
      }
    }
    if (!wait(s.bar, ph))
    {
      return false;
    }
    out = s.response;
    return true;
  }

  // for_each_canceled_block's loop on this backend (ptxw/clc/for_each.h). The submitter (thread 0;
  // of cluster rank 0) claims ranges of blocks from the counter -- one block while blocks are long,
  // up to 32 for short ones (the claim engine's pace) -- and every thread walks the range it was
  // handed: one barrier per block, as on every backend (consecutive callbacks never overlap), no
  // mbarrier, no phase, and a shared-memory hand-over only once per range. The claim of the next
  // range is issued when a range starts, so its latency hides behind the range's blocks. Every
  // thread enters the loop, as for_each_canceled_block's contract says.
  template <class Receivers, class Prologue, class F>
  __device__ void for_each(slot_storage<Receivers>& s, const state& st, Prologue& prologue, F&& f)
  {
    const bool submit     = claim::leads() && (!is_cluster<Receivers> || cluster_rank<Receivers>() == 0);
    const bool first_warp = claim::in_first_warp();
    prologue();
    // One barrier between the prologue and the first block, as the protocol's loop has before its
    // first request: what any thread's prologue wrote (a shared-memory table) is read by the others
    // in the first block. The cluster form needs a cluster barrier before the first hand-over
    // anyway -- every CTA of the cluster runs before rank 0 writes into its shared memory -- so that
    // one barrier serves both; the CTA form without a prologue needs none.
    if constexpr (is_cluster<Receivers> || has_prologue<Prologue>)
    {
      block_barrier<Receivers>();
    }
    if (stealable_ == 0)
    {
      // The whole grid was launched: nothing to take, one block per CTA.
      if (prefix_)
      {
        f(blockIdx);
      }
      return;
    }
    // Registers are allocated for the whole kernel, so whatever the loop keeps live across f() is
    // held by every thread through the user's work, and fewer CTAs fit on an SM. So every thread
    // keeps only the range it walks, [unit, end) in units of the grid (the launch prefix included;
    // ~0u is this CTA's own block, walked first), the claim in flight and a buffer parity; the
    // submitter's state (the pace, the launch's extent, the size of the claim in flight) is in
    // shared memory, read and written by the submitter alone, and the range's size and the indices
    // left follow from [unit, end).
    __shared__ submitter_state own;
    if (submit)
    {
      own = {claim::pace{}, launched_, stealable_, 1u};
    }
    ::cuda::std::uint32_t unit   = prefix_ ? ~0u : 0u;
    ::cuda::std::uint32_t end    = 0u;
    ::cuda::std::uint32_t parity = 0; // the hand-over buffer of the claim in flight
    while (true)
    {
      uint4* const buffer = &s.ranges.buffer[parity];
      // One call site of the claim, so that its result stays in the register the atomic writes
      // until it is resolved below, after the walk.
      if (first_warp)
      {
        // The other lanes of the warp pass a size they do not read from `own`: the submitter's
        // state is read by the submitter alone.
        ::cuda::std::uint32_t taken = 1u;
        if (submit)
        {
          // The range about to be walked (own block: 0 - ~0u = 1 unit), the indices left from its
          // first on.
          const ::cuda::std::uint32_t left = unit == ~0u ? own.stealable : own.stealable + own.launched - unit;
          taken                            = own.pace.size(end - unit, left, own.launched, 32u);
          own.taken                        = taken;
        }
        claim::issue(submit, st.cursor.at, taken, claim_);
      }
      // Not unrolled: f is the user's work, inlined once here (and once for a whole-grid launch).
#pragma unroll 1
      while (unit != end)
      {
        uint3 block = blockIdx;
        if (unit != ~0u)
        {
          block = first_block<Receivers>(unit, st);
          if constexpr (is_cluster<Receivers>)
          {
            const uint3 c = cluster_ctaid<Receivers>();
            block         = {block.x + c.x, block.y + c.y, block.z + c.z};
          }
        }
        f(block);
        if (++unit != end)
        {
          block_barrier<Receivers>();
        }
      }
      // Hand-over: the claim resolved into the next range, or a failure (an empty range); or, where
      // the claim found a cursor no launch renewed, {0, 0} -- the submitter renewed it, and the loop
      // walks nothing and claims again from its one call site (a claim made here would take the
      // claim's register from the atomic that writes it, and the warp would wait for the atomic
      // before the work); a cursor the next launch renewed is a failure (R32).
      if (submit)
      {
        claim::use_after_work(claim_);
        uint4 handed = {0u, 0u, 0u, 0u};
        if (st.cursor.current(claim_))
        {
          const claim::range r = claim::clipped(counter_cursor::count(claim_), own.taken, own.stealable);
          handed = {own.launched + static_cast<::cuda::std::uint32_t>(r.first),
                    own.launched + static_cast<::cuda::std::uint32_t>(r.end), 0u, 0u};
        }
        else if (!st.cursor.renew())
        {
          report_overlap(s, st.cursor.tag, sink_);
          handed = {~0u, ~0u, 0u, 0u};
        }
        if constexpr (is_cluster<Receivers>)
        {
          for (unsigned rank = 0; rank < cluster_size<Receivers>(); ++rank)
          {
            *in_cta(buffer, rank) = handed;
          }
        }
        else
        {
          *buffer = handed;
        }
      }
      claim_ = 0; // dead until the next claim: no copy of it is carried around the loop
      block_barrier<Receivers>();
      const uint4 range = *buffer;
      if (range.x == range.y && range.x != 0u) // a failure; {0, 0}: claim again
      {
        break;
      }
      unit = range.x;
      end  = range.y;
      parity ^= 1u; // this buffer is written again after the next range's barrier, when no thread reads it
    }
  }

private:
  // for_each()'s submitter between two claims (the CTA's, in shared memory).
  struct submitter_state
  {
    claim::pace pace;
    ::cuda::std::uint32_t launched; // launched_
    ::cuda::std::uint32_t stealable; // stealable_
    ::cuda::std::uint32_t taken; // indices the claim in flight asks for
  };

  // Whether for_each_canceled_block was given a prologue (an empty one needs no barrier after it).
  template <class Prologue>
  static constexpr bool has_prologue =
    !::ptxw::detail::is_same_v<::ptxw::detail::remove_cvref_t<Prologue>, ::ptxw::detail::no_prologue>;

  // Rank 0's submitter (`serve`) takes the next index: from the batch, or by a claim whose
  // result is consumed in resolve(), after the work. Straight-line code for the submitter's warp,
  // the claim predicated: a branch around it would end in a copy of its result, where the compiler
  // would wait for it before the work.
  template <claims Claims>
  __device__ void take(batch_state& b, const state& st, bool serve, bool fail)
  {
    const bool open = serve & !fail & (stealable_ != 0);
    // The batch is the submitter's: the warp's other lanes do not load it. A load they discard would
    // still be a read that racecheck sets against the submitter's writes in resolve(); a volatile
    // load is one the compiler does not hoist out of its condition.
    ::cuda::std::uint32_t left = 0u;
    if (serve)
    {
      left = *static_cast<volatile const ::cuda::std::uint32_t*>(&b.left);
    }
    const bool from_counter = open & (left == 0);
    // The pace is measured over every index handed out since the last claim: the whole last claim.
    if constexpr (Claims == claims::one)
    {
      taken_ = 1u;
    }
    else
    {
      taken_ = from_counter ? b.pace.size(b.claimed, stealable_ - b.next, launched_, 32u) : 1u;
    }
    claim::issue(from_counter, st.cursor.at, taken_, claim_); // output only: read where pending_ says so
    if (open & (left != 0))
    {
      b.left = left - 1;
      index_ = b.next++;
    }
    pending_ = !serve ? pending::none : from_counter ? pending::claim : open ? pending::index : pending::failure;
  }

  // The barrier between two blocks of the loop: the CTA's, or the cluster's for cluster_t.
  template <class Receivers>
  static __device__ void block_barrier()
  {
    if constexpr (is_cluster<Receivers>)
    {
      cluster_sync();
    }
    else
    {
      __syncthreads();
    }
  }

  enum class pending : ::cuda::std::uint32_t
  {
    none,
    index, // index_, from the batch
    claim, // claim_, from the counter, in flight
    failure
  };

  bool prefix_                     = true;
  ::cuda::std::uint32_t launched_  = 0; // units of the launch prefix: their blocks are not handed out
  ::cuda::std::uint32_t stealable_ = 0; // units beyond the launch: handed out by the counter
  pending pending_                 = pending::none;
  ::cuda::std::uint32_t index_     = 0;
  ::cuda::std::uint32_t taken_     = 1; // indices the claim in flight asks for
  unsigned long long claim_        = 0; // the claim in flight: the counter before it
  const checked::sink* sink_       = nullptr; // start()'s: where R32 is reported

  template <class Receivers>
  static __device__ uint3 unit(const state& st)
  {
    return is_cluster<Receivers> ? st.cluster : uint3{1u, 1u, 1u};
  }

  template <class Receivers>
  static __device__ uint3 units(const state& st)
  {
    const uint3 u = unit<Receivers>(st);
    return {st.grid.x / u.x, st.grid.y / u.y, st.grid.z / u.z};
  }

  // The first block of unit k (x fastest): one multiply for a one-dimensional grid, the host's
  // divisors otherwise. (A CTA-cast slot in a cluster launch -- reported as R3 -- divides plainly.)
  template <class Receivers>
  static __device__ uint3 first_block(::cuda::std::uint32_t k, const state& st)
  {
    const uint3 u = unit<Receivers>(st);
    if (st.grid.y == u.y && st.grid.z == u.z)
    {
      return {k * u.x, 0u, 0u};
    }
    if (!is_cluster<Receivers> && (st.cluster.x != 1 || st.cluster.y != 1 || st.cluster.z != 1))
    {
      const uint3 c = unlinear(k, units<Receivers>(st));
      return {c.x, c.y, c.z};
    }
    const ::cuda::std::uint32_t z  = divide(k, st.plane);
    const ::cuda::std::uint32_t yx = k - z * st.plane.d;
    const ::cuda::std::uint32_t y  = divide(yx, st.row);
    return {(yx - y * st.row.d) * u.x, y * u.y, z * u.z};
  }

  // The submitter, after its work: the response to its request -- the claim resolved, the batch
  // kept for the next requests.
  template <class Receivers>
  __device__ uint4 resolve(slot_storage<Receivers>& s, const state& st)
  {
    batch_state& b          = s.batch;
    ::cuda::std::uint32_t i = stealable_; // no index: failure
    if (pending_ == pending::index)
    {
      i = index_;
    }
    else if (pending_ == pending::claim)
    {
      claim::use_after_work(claim_); // first use of the claim: here, after the work
      const unsigned long long first = st.cursor.first(claim_, taken_);
      if (first == counter_cursor::taken_over)
      {
        report_overlap(s, st.cursor.tag, sink_);
      }
      const claim::range r = claim::clipped(first, taken_, stealable_);
      if (r.first < r.end)
      {
        i      = static_cast<::cuda::std::uint32_t>(r.first);
        b.next    = i + 1u;
        b.claimed = static_cast<::cuda::std::uint32_t>(r.end - r.first);
        b.left    = b.claimed - 1u;
      }
    }
    pending_ = pending::none;
    claim_   = 0; // dead until the next request: no copy of it is carried around the loop
    return i < stealable_ ? canceled_response(first_block<Receivers>(launched_ + i, st)) : failure_response();
  }
};

} // namespace clc::detail
PTXW_NAMESPACE_END
