// ptxw/clc/counter.h: Hopper's fast backend -- cluster launch control's contract on one global
// counter (sm_90 and newer; the default there, through automatic_t).
//
// The launch is a prefix of the grid: the first L units (CTAs, or clusters for cluster_t) in
// x-fastest order, as ptxw::clc::scheduler::prepare(kernel, ...) sizes it to what fits on the GPU
// at once -- or the whole grid. Each launched unit runs its own block first; the units beyond the
// launch are the canceled ones, handed out by one atomicAdd on a global counter and never started, as
// on hardware. The whole grid may be launched too (every request then fails at once), at about
// 0.63 ns per CTA on an H100 that a persistent launch saves (docs/scheduling.md).
//
// The order of request and work follows hardware CLC: the request is issued before the work and
// the atomic's result is consumed after it, so its latency hides behind the work. The submitter
// delivers the response itself when it reaches wait() -- a generic-proxy store and a release
// arrive on each receiving CTA's barrier, which that CTA's own request armed with an arrival of its
// own -- so there is no async proxy, no transaction count and no proxy fence on this path. Short
// work takes batches: a request takes up to 8 indices when the CTA's last request was recent (so the
// counter stays well below the 1.35e9 atomics/s one address sustains on an H100), one per request.
//
// A launch that is not a prefix of the prepared grid is reported (R14); every launched unit then
// takes all its blocks from the counter, so that each block still runs exactly once.
#pragma once

#include <ptxw/clc/backend.h>
#include <ptxw/clc/checks.h>

PTXW_NAMESPACE_BEGIN
namespace clc::detail {
template <>
struct backend<counter_t> : software_decode
{
  struct state
  {
    unsigned long long* cursor; // indices handed out beyond the launch (zeroed before each launch)
    uint3 grid; // the grid, in blocks
    uint3 cluster; // blocks per cluster
    fast_divisor row; // units per row of the grid in clusters (x)
    fast_divisor plane; // units per plane (x * y)
  };

  // Two arrivals complete a phase: the CTA's own request (which arms it, as expect_tx does on the
  // other backends: a CTA that never requests never completes, R5) and the delivery.
  static constexpr ::cuda::std::uint32_t arrivals_per_phase = 2;

  template <class Cast>
  static constexpr bool supported = software_supported<Cast>;

  template <class Cast>
  __host__ __device__ static constexpr bool check_target()
  {
    return check_software_target<Cast>();
  }

  // No memory, no synchronisation: every thread works out the same launch prefix.
  template <class Cast>
  __device__ bool start(slot_storage<Cast>& s, const state& st, const checked::sink* sink)
  {
    const uint3 grid     = units<Cast>(st);
    const uint3 launched = is_cluster<Cast> ? grid_clusters<Cast>() : uint3{gridDim.x, gridDim.y, gridDim.z};
    const uint3 dims     = cluster_dims<Cast>();
    const bool same_cluster =
      !is_cluster<Cast> || (dims.x == st.cluster.x && dims.y == st.cluster.y && dims.z == st.cluster.z);
    prefix_   = same_cluster && is_prefix_box(launched, grid);
    launched_ = prefix_ ? static_cast<::cuda::std::uint32_t>(volume(launched)) : 0u;
    beyond_   = static_cast<::cuda::std::uint32_t>(volume(grid)) - launched_;
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
    {
      if (!prefix_ && blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0)
      {
        report_launch(s, volume(grid), sink);
      }
      s.batch = fresh_batch(); // published by the barrier that precedes every request
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
  template <class Cast>
  __device__ void request(slot_storage<Cast>& s, const state& st, bool submit, bool fail)
  {
    if (submit)
    {
      s.bar.arrive(ptx::sem_relaxed, typename decltype(s.bar)::scope_type{});
    }
    take(s.batch, st, submit & (!is_cluster<Cast> || cluster_rank<Cast>() == 0), fail);
  }

  template <class Cast, class Wait>
  __device__ bool receive(slot_storage<Cast>& s, const state& st, phase& ph, uint4& out, Wait&& wait)
  {
    if (pending_ != pending::none)
    {
      const uint4 r = resolve<Cast>(s.batch, st);
      if constexpr (is_cluster<Cast>)
      {
        for (unsigned rank = 0; rank < cluster_size<Cast>(); ++rank)
        {
          *in_cta(&s.response, rank) = r;
        }
        for (unsigned rank = 0; rank < cluster_size<Cast>(); ++rank)
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

  // for_each_canceled_block's loop on this backend (ptxw/clc/for_each.h). Thread 0 (of cluster
  // rank 0) takes ranges of indices from the counter -- one index while blocks are long, up to 8
  // for short ones, see batch_size() -- and every thread walks the range it was handed: one barrier
  // per block, as on every backend (consecutive callbacks never overlap), no mbarrier, no phase,
  // and a shared-memory hand-over only once per range. The claim for the next range is issued
  // when a range is handed over, so its latency hides behind the range's blocks. Two hand-over
  // buffers alternate, so that a buffer is written again only after every thread passed the
  // barrier that followed its read of it (R4). Every thread enters the loop, as
  // for_each_canceled_block's contract says.
  template <class Cast, class Prologue, class F>
  __device__ void for_each(slot_storage<Cast>& s, const state& st, Prologue& prologue, F&& f)
  {
    const bool leader     = threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
    const bool submit     = leader && (!is_cluster<Cast> || cluster_rank<Cast>() == 0);
    const bool first_warp = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z) < 32u;
    if constexpr (is_cluster<Cast>)
    {
      cluster_sync(); // every CTA of the cluster runs before rank 0 writes into its shared memory
    }
    prologue();
    if (beyond_ == 0)
    {
      // The whole grid was launched: nothing to take, one block per CTA.
      if (prefix_)
      {
        f(blockIdx);
      }
      return;
    }
    batch_state pace = fresh_batch();
    // The range to walk: this CTA's own block first (x = ~0u), then the ones handed over.
    uint4 range   = {~0u, prefix_ ? 1u : 0u, 1u, 0u};
    uint4* buffer = &s.response;
    uint4* other  = &s.second_response;
    while (true)
    {
      // The claim for the next range: one call site, so that its result stays in the register the
      // atomic writes until it is resolved below, after the walk.
      if (first_warp)
      {
        claim(pace, st, submit, range.y);
      }
      for (::cuda::std::uint32_t k = 0; k < range.y; ++k)
      {
        if (k != 0)
        {
          block_barrier<Cast>();
        }
        uint3 block = blockIdx;
        if (range.x != ~0u)
        {
          block = first_block<Cast>(launched_ + range.x + k, st);
          if constexpr (is_cluster<Cast>)
          {
            const uint3 c = cluster_ctaid<Cast>();
            block         = {block.x + c.x, block.y + c.y, block.z + c.z};
          }
        }
        f(block);
      }
      // Hand-over: the claim resolved into the next range, or a failure.
      if (submit)
      {
        uint4 next{0u, 0u, 0u, 0u};
        asm volatile("" : "+l"(claim_)::"memory"); // first use of the atomic's result: here, after the walk
        if (claim_ < beyond_)
        {
          const ::cuda::std::uint32_t base = static_cast<::cuda::std::uint32_t>(claim_);
          next      = {base, taken_ <= beyond_ - base ? taken_ : beyond_ - base, 1u, 0u};
          pace.next = base; // how far the counter is: batch_size() keeps the last ranges short
        }
        if constexpr (is_cluster<Cast>)
        {
          for (unsigned rank = 0; rank < cluster_size<Cast>(); ++rank)
          {
            *in_cta(buffer, rank) = next;
          }
        }
        else
        {
          *buffer = next;
        }
      }
      claim_ = 0; // dead until the next claim: no copy of it is carried around the loop
      block_barrier<Cast>();
      range = *buffer;
      if (range.z == 0)
      {
        break;
      }
      uint4* spent = buffer;
      buffer       = other;
      other        = spent;
    }
  }

private:
  // Rank 0's submitter (`serve`) takes the next index: from the batch, or by an atomicAdd whose
  // result is consumed in resolve(), after the work. Straight-line code for the submitter's warp,
  // the atomic predicated: a branch around it would end in a copy of its result, where the
  // compiler would wait for it before the work.
  __device__ void take(batch_state& b, const state& st, bool serve, bool fail)
  {
    const bool open                   = serve & !fail & (beyond_ != 0);
    const ::cuda::std::uint32_t left  = b.left;
    const bool from_counter           = open & (left == 0);
    const ::cuda::std::uint32_t count = from_counter ? batch_size(b, 1u) : 1u;
    // Output only: where the atomic is predicated off, claim_ is not read (pending_ says so).
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %3, 0;\n\t@p atom.global.add.u64 %0, [%1], %2;\n\t}"
                 : "=l"(claim_)
                 : "l"(st.cursor), "l"(static_cast<unsigned long long>(count)), "r"(from_counter ? 1u : 0u)
                 : "memory");
    if (open & (left != 0))
    {
      b.left = left - 1;
      index_ = b.next++;
    }
    taken_   = count;
    pending_ = !serve ? pending::none : from_counter ? pending::claim : open ? pending::index : pending::failure;
  }

  // for_each's claim: indices by one predicated atomic of the submitter's warp, `walked` blocks
  // after the last claim.
  __device__ void claim(batch_state& pace, const state& st, bool submit, ::cuda::std::uint32_t walked)
  {
    const ::cuda::std::uint32_t count = submit ? batch_size(pace, walked) : 1u;
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %3, 0;\n\t@p atom.global.add.u64 %0, [%1], %2;\n\t}"
                 : "=l"(claim_)
                 : "l"(st.cursor), "l"(static_cast<unsigned long long>(count)), "r"(submit ? 1u : 0u)
                 : "memory");
    taken_ = count;
  }

  // The barrier between two blocks of the loop: the CTA's, or the cluster's for cluster_t.
  template <class Cast>
  static __device__ void block_barrier()
  {
    if constexpr (is_cluster<Cast>)
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
    claim, // claim_: taken_ indices from the counter, in flight
    failure
  };

  bool prefix_                    = true;
  ::cuda::std::uint32_t launched_ = 0; // units of the launch prefix: their blocks are not handed out
  ::cuda::std::uint32_t beyond_   = 0; // units handed out by the counter
  pending pending_                = pending::none;
  ::cuda::std::uint32_t index_    = 0;
  ::cuda::std::uint32_t taken_    = 1;
  unsigned long long claim_       = 0;

  template <class Cast>
  static __device__ uint3 unit(const state& st)
  {
    return is_cluster<Cast> ? st.cluster : uint3{1u, 1u, 1u};
  }

  template <class Cast>
  static __device__ uint3 units(const state& st)
  {
    const uint3 u = unit<Cast>(st);
    return {st.grid.x / u.x, st.grid.y / u.y, st.grid.z / u.z};
  }

  // The first block of unit k (x fastest): one multiply for a one-dimensional grid, the host's
  // divisors otherwise. (A CTA-cast slot in a cluster launch -- reported as R3 -- divides plainly.)
  template <class Cast>
  static __device__ uint3 first_block(::cuda::std::uint32_t k, const state& st)
  {
    const uint3 u = unit<Cast>(st);
    if (st.grid.y == u.y && st.grid.z == u.z)
    {
      return {k * u.x, 0u, 0u};
    }
    if (!is_cluster<Cast> && (st.cluster.x != 1 || st.cluster.y != 1 || st.cluster.z != 1))
    {
      const uint3 c = unlinear(k, units<Cast>(st));
      return {c.x, c.y, c.z};
    }
    const ::cuda::std::uint32_t z  = divide(k, st.plane);
    const ::cuda::std::uint32_t yx = k - z * st.plane.d;
    const ::cuda::std::uint32_t y  = divide(yx, st.row);
    return {(yx - y * st.row.d) * u.x, y * u.y, z * u.z};
  }

  // Indices per atomic. Blocks of a few microseconds or more take one each: the finest schedule,
  // and a hot spot of long blocks is shared out one by one. Shorter blocks take a range that lasts
  // about 16 us, at most 32 blocks, so that the hand-over (about 1 us under load) and the atomic
  // (its latency hides behind the range; one address sustains about 1.35e9/s on an H100) are
  // amortised -- but never more than a quarter of what is left per launched unit, so that the last
  // ranges are single blocks again and the end of the grid stays balanced. The pace is an average
  // over the last few requests (cycles per block; `walked` blocks since the last request), so that
  // one short block does not coarsen the schedule.
  __device__ ::cuda::std::uint32_t batch_size(batch_state& b, ::cuda::std::uint32_t walked) const
  {
    constexpr ::cuda::std::uint32_t range = 32000u; // cycles a range of short blocks should last (~16 us)
    const ::cuda::std::uint32_t now       = static_cast<::cuda::std::uint32_t>(clock());
    const ::cuda::std::uint32_t interval  = now - b.last_request;
    const bool measured                   = b.last_request != 0 && walked != 0;
    b.last_request                        = now | 1u;
    if (!measured || (b.mean_interval == 0 && interval >= walked * (range / 2u)))
    {
      return 1u; // no history yet, or long blocks as before: one index per atomic
    }
    const ::cuda::std::uint32_t per_block = walked > 1u ? interval / walked : interval;
    // The first short measurement is the average; later ones move it by a quarter.
    b.mean_interval = b.mean_interval == 0 ? per_block : b.mean_interval - (b.mean_interval >> 2) + (per_block >> 2);
    if (b.mean_interval >= range / 2u)
    {
      return 1u;
    }
    const ::cuda::std::uint32_t by_pace = range / b.mean_interval;
    const ::cuda::std::uint32_t by_left = (beyond_ - b.next) / (4u * launched_ + 1u);
    const ::cuda::std::uint32_t k       = by_pace < by_left ? by_pace : by_left;
    return k < 1u ? 1u : k < 32u ? k : 32u;
  }

  static __device__ batch_state fresh_batch()
  {
    return {0u, 0u, 0u, 0u};
  }

  // The submitter, after its work: the response to its request -- the claim resolved, the batch
  // kept for the next requests.
  template <class Cast>
  __device__ uint4 resolve(batch_state& b, const state& st)
  {
    ::cuda::std::uint32_t i = beyond_; // no index: failure
    if (pending_ == pending::index)
    {
      i = index_;
    }
    else if (pending_ == pending::claim)
    {
      asm volatile("" : "+l"(claim_)::"memory"); // first use of the atomic's result: here, after the work
      if (claim_ < beyond_)
      {
        i = static_cast<::cuda::std::uint32_t>(claim_);
        if (taken_ > 1u)
        {
          b.next = i + 1u;
          b.left = (taken_ <= beyond_ - i ? taken_ : beyond_ - i) - 1u;
        }
      }
    }
    pending_ = pending::none;
    claim_   = 0; // dead until the next request: no copy of it is carried around the loop
    return i < beyond_ ? canceled_response(first_block<Cast>(launched_ + i, st)) : failure_response();
  }
};

} // namespace clc::detail
PTXW_NAMESPACE_END
