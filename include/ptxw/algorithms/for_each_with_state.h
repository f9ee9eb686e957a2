// ptxw/algorithms/for_each_with_state.h: for_each_canceled with per-CTA state -- a set-up once per CTA
// that runs, the body per index, a flush once per CTA -- the form work stealing pays for: what a
// plain launch repeats for every block (shared-memory tables, privatised accumulators, staged
// filters) is paid once per CTA that runs instead.
//
//   struct histogram                              // privatised bins in shared memory
//   {
//     struct state { unsigned bins[256]; };       // per CTA, in shared memory, sized by the type
//     const unsigned char* in; unsigned* out;
//     __device__ void setup(state& s) const       // every thread, once, before the CTA's first index
//     { for (int b = threadIdx.x; b < 256; b += blockDim.x) s.bins[b] = 0; }
//     __device__ void operator()(state& s, unsigned long long i) const   // once per index, any thread
//     { atomicAdd(&s.bins[in[i]], 1u); }
//     __device__ void flush(state& s) const       // every thread, once, after the CTA's last index
//     { for (int b = threadIdx.x; b < 256; b += blockDim.x) if (s.bins[b]) atomicAdd(out + b, s.bins[b]); }
//   };
//   std::size_t bytes = 0;
//   ptxw::device::for_each_with_state(nullptr, bytes, n, histogram{in, out});          // size query
//   ptxw::device::for_each_with_state(temp, bytes, n, histogram{in, out}, stream);     // runs
//   ptxw::device::for_each_with_state(n, histogram{in, out}, ptxw::device::env{stream});   // both phases
//   ptxw::device::for_each_with_state<my_selector>(temp, bytes, n, op);                // a policy per cc
//
// The op: a type with
//   - `state`, its per-CTA state: trivially default-constructible and destructible, aligned to at
//     most 16 bytes, within a CTA's shared memory (it is the kernel's dynamic shared memory, so it
//     may exceed 48 KiB); never initialised by ptxw: setup() does that;
//   - `setup(state&)` (optional): called by every thread of a CTA that runs, once, before the CTA's
//     first index, and never in a CTA that was canceled (cluster launch control never starts one;
//     the emulation, which launches it, returns before). A barrier of the CTA follows it;
//   - `operator()(state&, i)` (or `(state&, x, y[, z])` for a shape): once per index, by any
//     thread of the CTA, in divergent code (it must not synchronise with other threads, as in
//     for_each_canceled);
//   - `flush(state&)` (optional): called by every thread of a CTA that ran setup(), once, after a
//     barrier of the CTA that follows its last index.
// setup() and flush() may use __syncthreads() (every thread of the CTA calls them, converged).
//
// The schedule is for_each_canceled's (algorithms/for_each_tiles.h): CTAs steal tiles of the index
// space through cluster launch control -- the hardware's on sm_100 and newer; on sm_90 counter_t,
// which launches only the prefix of the grid the GPU holds at once -- so set-up and flush run once
// per CTA that runs, not once per tile. Inside a tile each thread walks its own indices, the tile's
// last shared_rounds going to whichever thread is free first. Where every tile fits on the GPU at
// once there is nothing to steal: each CTA runs its tile (set-up, tile, flush) with no scheduler.
// Unlike for_each_canceled, a policy bounds the tiles from above as well (min_rounds): below a wave
// of tiles of min_rounds rows fewer CTAs run, each paying its set-up for more indices.
//
// Errors, before anything is written or launched (CUB's contract, as for_each_canceled):
//   cudaErrorInvalidValue    a temporary storage smaller than the size query reported; a negative
//                            n; a shape whose indices overflow 64 bits, or with more tiles than a
//                            grid holds (2^31 - 1)
//   cudaErrorInvalidDevice   a stream of another device than the current one
//   cudaErrorInvalidDeviceFunction  the build has no cubin for the device (its policy is unknown)
// An empty shape is a valid no-op that launches nothing. Then: a state larger than the device lets
// a CTA have (cudaFuncSetAttribute's error), or the launch's error. docs/device_state.md: the tests,
// and the benchmark against CUB and against a plain launch.
#pragma once

#include <ptxw/algorithms/env.h>
#include <ptxw/algorithms/state_policy.h>

#include <atomic>

PTXW_NAMESPACE_BEGIN
namespace device {
namespace detail {
// ---- the kernel ----
template <int Threads, int B, int Occupancy, class Index, int Rank, class Op>
__global__ __launch_bounds__(Threads, Occupancy > 0 ? Occupancy : 1) void for_each_state_kernel(
  shape<Rank> s, unsigned long long n, int rounds, int shared, bool scheduled, Op op,
  clc::context<backend_t<clc::backend_id{B}>> ctx)
{
#if defined(__CUDA_ARCH__)
  // Other architectures of the build never launch it.
  if constexpr (__CUDA_ARCH__ / 10 >= clc::detail::first_sm<clc::backend_id{B}>())
  {
    // The state: the kernel's dynamic shared memory (sizeof(state) bytes at the launch).
    extern __shared__ __align__(16) unsigned char ptxw_device_state[];
    state_t<Op>& st = *reinterpret_cast<state_t<Op>*>(ptxw_device_state);
    // The tiles, walked as for_each_canceled's (algorithms/for_each_tiles.h).
    __shared__ unsigned claims;
    if (threadIdx.x == 0)
    {
      claims = 0; // published by the barrier after setup(), before any claim
    }
    auto body = [&](auto... index) {
      op(st, index...);
    };
    tile_walk<Threads, Index, Rank> walk(s, n, ctx.grid().x, rounds - shared, static_cast<unsigned>(shared) * Threads,
                                         &claims);
    auto tile = [&](dim3 block) {
      walk(body, block);
    };
    // Set-up once per CTA that runs: the prologue, which a canceled CTA never reaches. The barrier
    // after it: every thread's set-up (and `claims`) before any index.
    bool ran     = false;
    auto prologue = [&] {
      ran = true;
      setup_of(op, st);
      __syncthreads();
    };
    if (!scheduled) // a CTA per tile, all at once: there is nothing to steal
    {
      prologue();
      tile(blockIdx);
    }
    else
    {
      for_each_canceled_block<1>(ctx, prologue, tile);
    }
    // Flush once per CTA that ran its set-up (`ran` is the CTA's: every thread runs the prologue or
    // none does), after every thread's last index.
    if (ran)
    {
      __syncthreads();
      flush_of(op, st);
    }
  }
#else
  (void) s, (void) n, (void) rounds, (void) shared, (void) scheduled, (void) op, (void) ctx;
#endif
}

// The CTAs of Kernel (block_threads threads, `smem` bytes of dynamic shared memory) the GPU holds at
// once, remembered per device; beyond 48 KiB the kernel is first allowed that much
// (cudaFuncAttributeMaxDynamicSharedMemorySize, once per device: the attribute is the context's).
template <auto Kernel>
cudaError_t resident_with_state(int device, int block_threads, std::size_t smem, unsigned long long& units)
{
  static std::atomic<unsigned long long> known[256]; // per device ordinal; 0: not asked yet
  units = device < 256 ? known[device].load(std::memory_order_relaxed) : 0;
  if (units != 0)
  {
    return cudaSuccess;
  }
  if (smem > 48 * 1024)
  {
    if (const cudaError_t err =
          cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem));
        err != cudaSuccess)
    {
      return err;
    }
  }
  const cudaError_t err = clc::detail::resident_units(Kernel, dim3(block_threads), smem, dim3(1), units);
  if (err == cudaSuccess && device < 256)
  {
    known[device].store(units, std::memory_order_relaxed);
  }
  return err;
}

// The launch for the build architecture I: its plan, its scheduler's memory set on the stream where
// it steals, and the kernel with the state as its dynamic shared memory.
template <class Selector, int I, class Index, int Rank, class Op>
cudaError_t for_each_state_tiles(void* (&parts)[3], const shape<Rank>& s, unsigned long long n, Op& op,
                                 cudaStream_t stream, int device)
{
  constexpr for_each_state_policy p = policy_at<Selector>(I);
  constexpr auto* kernel =
    for_each_state_kernel<p.block_threads, static_cast<int>(p.backend), p.occupancy, Index, Rank, Op>;
  constexpr std::size_t smem  = sizeof(state_t<Op>);
  unsigned long long resident = 0;
  if (const cudaError_t err = resident_with_state<kernel>(device, p.block_threads, smem, resident); err != cudaSuccess)
  {
    return err;
  }
  const for_each_plan pl = plan_with_state(p, n, resident);
  tile_schedule<p.backend> t{};
  if (const cudaError_t err = schedule_tiles<p.backend, build_archs[I] / 10>(parts, pl, 1u, resident, stream, t);
      err != cudaSuccess)
  {
    return err;
  }
  kernel<<<t.launched, p.block_threads, smem, stream>>>(s, n, pl.rounds, pl.shared, t.scheduled, op, t.ctx);
  return cudaGetLastError();
}

// Both forms' steps, in the order of the header's errors.
template <class Selector, class Index, int Rank, class Op>
cudaError_t for_each_state_two_phase(void* d_temp_storage, std::size_t& temp_storage_bytes, const shape<Rank>& s,
                                     Op& op, cudaStream_t stream)
{
  if constexpr (!check_state_op<Op>())
  {
    (void) d_temp_storage, (void) temp_storage_bytes, (void) s, (void) op, (void) stream;
    return cudaErrorInvalidValue;
  }
  else
  {
    unsigned long long n = 0;
    if (!volume(s, n))
    {
      return cudaErrorInvalidValue;
    }
    for (int i = 0; i < build_arch_count; ++i)
    {
      if (const for_each_state_policy p = policy_at<Selector>(i); rows(tiles_of(p), n) / p.rounds >= 0x7fffffffull)
      {
        return cudaErrorInvalidValue;
      }
    }
    void* parts[3];
    if (const cudaError_t err = two_phase(state_layout<Selector>(n), d_temp_storage, temp_storage_bytes, parts);
        err != cudaSuccess || d_temp_storage == nullptr || n == 0)
    {
      return err;
    }
    return dispatch_on_device<Selector>(stream, [&](auto arch, int device) -> cudaError_t {
      constexpr int I = decltype(arch)::value;
      static_assert(check_state_policy<Selector, Op, I>());
      return for_each_state_tiles<Selector, I, Index>(parts, s, n, op, stream, device);
    });
  }
}
} // namespace detail

// op(state, x[, y[, z]]) for every index of s, with op.setup(state) and op.flush(state) once per CTA
// that runs; the two-phase call.
template <class Selector = for_each_state_selector, int Rank, class Op>
cudaError_t for_each_with_state(void* d_temp_storage, std::size_t& temp_storage_bytes, shape<Rank> s, Op op,
                                cudaStream_t stream = 0)
{
  return detail::for_each_state_two_phase<Selector, unsigned long long>(d_temp_storage, temp_storage_bytes, s, op,
                                                                        stream);
}

// op(state, i) for i in [0, num_items), i of NumItems' type.
template <class Selector = for_each_state_selector, class NumItems, class Op,
          ::cuda::std::enable_if_t<::cuda::std::is_integral_v<NumItems>, int> = 0>
cudaError_t for_each_with_state(void* d_temp_storage, std::size_t& temp_storage_bytes, NumItems num_items, Op op,
                                cudaStream_t stream = 0)
{
  shape<1> s{};
  if (!detail::item_count(num_items, s.extent[0]))
  {
    return cudaErrorInvalidValue;
  }
  return detail::for_each_state_two_phase<Selector, NumItems>(d_temp_storage, temp_storage_bytes, s, op, stream);
}

// Both phases, with temporary storage from e.resource.
template <class Selector = for_each_state_selector, class Extent, class Op, class Resource = stream_ordered_resource>
cudaError_t for_each_with_state(Extent extent, Op op, env<Resource> e = {})
{
  return detail::with_temp_storage(e, [&](void* d_temp_storage, std::size_t& bytes) {
    return for_each_with_state<Selector>(d_temp_storage, bytes, extent, op, e.stream);
  });
}
} // namespace device
PTXW_NAMESPACE_END
