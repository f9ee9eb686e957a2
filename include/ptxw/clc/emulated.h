// ptxw/clc/emulated.h: the faithful emulation of cluster launch control (sm_90 and newer), the
// backend the protocol tests run on where no Blackwell GPU is.
//
// The protocol is the hardware's: a request puts a 16-byte response into the slot of every CTA
// that should receive it through the async proxy (cp.async.bulk from global memory), completing 16
// transaction bytes on each of their barriers. So code that forgets expect_tx (R5), waits on a
// wrong parity (R6) or reuses a slot too early (R4) misbehaves here as it would on Blackwell.
//
// What is emulated is the grid scheduler. Per launch, in global memory owned by the host
// (ptxw::clc::scheduler): one claim word per cluster of the grid and a cursor. A cluster runs for
// whoever first claims it in this launch (atomicExch of the launch's epoch): its own CTAs when they
// start (start() claims; if it was already taken, the CTAs were "canceled" and do no work), or a
// requester, which walks the cursor down from the grid's last cluster and takes the first one it
// can claim. Hence, as on hardware: every cluster of the grid runs exactly once; a CTA that was not
// canceled runs its own blockIdx first; a canceled one never starts its work; a request fails once
// every cluster has been claimed, and -- with the spurious-failure knob -- sometimes earlier, as
// when a higher-priority kernel arrives. Unlike on hardware, canceled CTAs are launched (and leave
// at once), and a launched CTA costs dispatch time whatever it does (docs/scheduling.md).
#pragma once

#include <ptxw/clc/backend_interface.h>
#include <ptxw/clc/checks.h>

PTXW_NAMESPACE_BEGIN
namespace clc::detail {
template <>
struct backend<emulated_t>
    : software_decode
    , table_gate<emulated_t>
{
  // Filled by ptxw::clc::scheduler::prepare.
  struct state
  {
    ::cuda::std::uint32_t* claimed; // per cluster of the grid: the epoch of the launch that claimed it
    uint4* responses; // per cluster: the response the async proxy copies into slots
    unsigned long long* cursor; // candidates handed out in this launch
    unsigned long long* injected; // spurious failures injected, for the tests that claim a fault rate
    uint3 grid; // the grid, in blocks
    uint3 cluster; // blocks per cluster
    ::cuda::std::uint32_t epoch; // this launch; never 0
    ::cuda::std::uint32_t spurious_threshold; // a request fails spuriously when hash < this (of 2^32)
    ::cuda::std::uint32_t seed;
  };
  static state make_state(const launch_plan& p)
  {
    return {p.claimed, p.responses, p.counters, p.counters + 1, p.grid, p.cluster, p.epoch, p.spurious, p.seed};
  }

  // One arrival completes a phase, with the 16 transaction bytes it expects (R5).
  static constexpr ::cuda::std::uint32_t arrivals_per_phase = 1;

  static __device__ uint3 grid(const state& st)
  {
    return st.grid;
  }

  // Every CTA that starts runs its own block first (the others were canceled).
  static __device__ bool owns_block()
  {
    return true;
  }

  static __device__ uint3 clusters(const state& st)
  {
    return {st.grid.x / st.cluster.x, st.grid.y / st.cluster.y, st.grid.z / st.cluster.z};
  }

  // Collective. Every CTA of the cluster has started (and initialised its slot) before rank 0
  // writes into their shared memory: distributed shared memory of a CTA that has not started yet
  // must not be touched. A CTA whose cluster lies outside the prepared grid does not run (R14).
  template <class Receivers>
  static __device__ bool start(slot_storage<Receivers>& s, const state& st, const checked::sink* sink)
  {
    const bool leader  = threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
    const bool one_cta = cluster_size<Receivers>() == 1;
    const uint3 own    = cluster_idx<Receivers>();
    const uint3 grid   = clusters(st);
    const bool inside  = own.x < grid.x && own.y < grid.y && own.z < grid.z;
    if (!one_cta)
    {
      cluster_sync();
    }
    if (leader && cluster_rank<Receivers>() == 0)
    {
      if (!inside)
      {
        report_launch(s, volume(grid), sink);
      }
      const ::cuda::std::uint32_t mine = inside && claim(st, linear(own, grid)) ? 1u : 0u;
      for (unsigned r = 0; r < cluster_size<Receivers>(); ++r)
      {
        *static_cast<volatile ::cuda::std::uint32_t*>(in_cta(&s.started, r)) = mine;
      }
    }
    if (one_cta)
    {
      __syncthreads();
    }
    else
    {
      cluster_sync();
    }
    return s.started != 0;
  }

  // The next candidate's response, through the async proxy (request_async: fence, arm). One
  // cluster a request.
  template <claims = claims::batched, class Receivers>
  __device__ void request(slot_storage<Receivers>& s, const state& st, bool submit, bool fail)
  {
    request_async(s, submit, fail, [&] { deliver(s, st, steal(st)); });
  }

  template <class Receivers, class Wait>
  __device__ bool receive(slot_storage<Receivers>& s, const state&, phase& ph, uint4& out, Wait&& wait)
  {
    return receive_async(s, ph, out, wait);
  }

private:
  static constexpr ::cuda::std::uint32_t no_cluster = ~0u;

  // Claims cluster c for the caller in this launch; false if someone already has it.
  static __device__ bool claim(const state& st, unsigned long long c)
  {
    return atomicExch(&st.claimed[c], st.epoch) != st.epoch;
  }

  static __device__ ::cuda::std::uint32_t mix(::cuda::std::uint32_t x)
  {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    return x ^ (x >> 16);
  }

  // The scheduler's answer to one request: a cluster now owned by the requester, or no_cluster.
  static __device__ ::cuda::std::uint32_t steal(const state& st)
  {
    const auto n = static_cast<::cuda::std::uint32_t>(volume(clusters(st)));
    for (;;)
    {
      const unsigned long long i = atomicAdd(st.cursor, 1ull);
      if (i >= n)
      {
        return no_cluster;
      }
      if (mix(st.seed ^ mix(static_cast<::cuda::std::uint32_t>(i) + st.epoch)) < st.spurious_threshold)
      {
        atomicAdd(st.injected, 1ull);
        return no_cluster; // spurious failure; cluster i is left to its own CTAs
      }
      const ::cuda::std::uint32_t c = n - 1 - static_cast<::cuda::std::uint32_t>(i);
      if (claim(st, c))
      {
        return c;
      }
    }
  }

  // Puts the response for cluster c (or a failure) into the slot of every receiving CTA.
  template <class Receivers>
  static __device__ void deliver(slot_storage<Receivers>& s, const state& st, ::cuda::std::uint32_t c)
  {
    const uint4* src = &failure_in_global;
    if (c != no_cluster)
    {
      const uint3 first = unlinear(c, clusters(st));
      st.responses[c] = canceled_response({first.x * st.cluster.x, first.y * st.cluster.y, first.z * st.cluster.z});
      ::ptxw::fence_proxy_async(::ptxw::detail::dependent_t<ptx::space_global_t, Receivers>{}); // the store, for the copy
      src = &st.responses[c];
    }
    bulk_deliver(s, src);
  }
};

} // namespace clc::detail
PTXW_NAMESPACE_END
