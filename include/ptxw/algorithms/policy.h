// ptxw/algorithms/policy.h: what a device-scope algorithm is tuned by, per compute capability, and how
// a stateless selector becomes one kernel per distinct policy.
//
//   struct my_selector                                   // replaces ptxw::device::for_each_selector
//   {
//     constexpr ptxw::device::for_each_policy operator()(ptxw::device::compute_capability cc) const
//     {
//       return cc.major() >= 10 ? ptxw::device::for_each_policy{512, 16, 1, ptxw::clc::backend_id::hardware}
//                               : ptxw::device::for_each_policy{256, 32, 1, ptxw::clc::backend_id::counter};
//     }
//   };
//   ptxw::device::for_each_canceled<my_selector>(d_temp, bytes, n, op, stream);
//
// A selector maps the compute capability the running code was compiled for
// (cudaFuncAttributes::ptxVersion, as CUB's PtxVersion; __CUDA_ARCH__ on the device) to a policy.
// It is evaluated at compile time for every architecture of the build (__CUDA_ARCH_LIST__), and
// each algorithm instantiates one kernel per distinct policy among
// them: architectures whose policies are equal share a kernel (CUB's idea, without its
// ChainedPolicy; this is the shape of CCCL's newer policy selectors, `constexpr Policy
// operator()(cuda::compute_capability) const`, which CCCL 3.0.1 does not have yet).
//
// The default values and the runs that chose them: docs/device.md.
#pragma once

#include <ptxw/algorithms/temp_storage.h>
#include <ptxw/clc/launch.h>

#include <atomic>
#include <cstddef>

PTXW_NAMESPACE_BEGIN
namespace device {
// The compute capability a binary was built for, as major * 10 + minor (90 for sm_90a, 100 for sm_100a).
struct compute_capability
{
  int value;
  constexpr int major() const noexcept
  {
    return value / 10;
  }
  constexpr int minor() const noexcept
  {
    return value % 10;
  }
};

// for_each_canceled: CTAs of block_threads threads steal tiles of block_threads * rounds indices by
// cluster launch control, cluster CTAs at a time (1: no clusters); inside a tile each thread walks
// its own indices of the first rounds - shared_rounds rounds, and the last shared_rounds go to
// whichever thread of the CTA is free first. rounds is the most a tile has: tiles come in whole
// waves of the CTAs that fit at once -- at least `waves` of them where every tile keeps a row --,
// with the indices shared out evenly, and shared_rounds shrinks in proportion, rounded down
// (algorithms/for_each_tiles.h). occupancy, where not 0, is the CTAs per SM the kernel is compiled for
// (__launch_bounds__: registers for that many). backend: who hands the tiles out
// (ptxw/clc/backend_table.h): automatic is the hardware's cluster launch control for code compiled for
// sm_100 and newer and counter_t below; emulated the faithful emulation. steal false: no stealing
// between CTAs -- every tile of at most `rounds` rows is a CTA of one plain launch, placed by the
// GPU's block scheduler as CUB's blocks are (waves and backend then play no part).
struct for_each_policy
{
  int block_threads;
  int rounds;
  int cluster;
  clc::backend_id backend;
  int shared_rounds = 0;
  int waves         = 1;
  int occupancy     = 0;
  bool steal        = true;
};

// reduce: blocks of block_threads threads, each thread loading items_per_thread items per step
// (vectorised where the input allows), at most max_blocks blocks (each leaves one partial in the
// temporary storage), and the block that arrives last merges (ptxw/inter_block/last_block.h).
struct reduce_policy
{
  int block_threads;
  int items_per_thread;
  int max_blocks;
};

// drain: blocks of block_threads threads take up to batch items per atomic (ptxw/inter_block/work_queue.h).
struct drain_policy
{
  int block_threads;
  int batch;
};

constexpr bool operator==(const for_each_policy& a, const for_each_policy& b)
{
  return a.block_threads == b.block_threads && a.rounds == b.rounds && a.cluster == b.cluster && a.backend == b.backend
      && a.shared_rounds == b.shared_rounds && a.waves == b.waves && a.occupancy == b.occupancy && a.steal == b.steal;
}
constexpr bool operator==(const reduce_policy& a, const reduce_policy& b)
{
  return a.block_threads == b.block_threads && a.items_per_thread == b.items_per_thread && a.max_blocks == b.max_blocks;
}
constexpr bool operator==(const drain_policy& a, const drain_policy& b)
{
  return a.block_threads == b.block_threads && a.batch == b.batch;
}

// The defaults. for_each: chosen on real work (benchmarks/device_real_work.cu, docs/device.md): a
// plain launch of CUB's tile, two indices a thread 256 apart -- stealing tiles costs the kernel
// registers and lost to the GPU's block scheduler there, and one index a thread lost to CUB on
// memory-bound work. sm_100 and newer take the same, not measured (no such GPU); a stealing policy
// is one template argument away.
struct for_each_selector
{
  constexpr for_each_policy operator()(compute_capability) const
  {
    return {256, 2, 1, clc::backend_id::automatic, 0, 1, 0, false};
  }
};
struct reduce_selector
{
  constexpr reduce_policy operator()(compute_capability) const
  {
    return {256, 16, 2048};
  }
};
struct drain_selector
{
  constexpr drain_policy operator()(compute_capability) const
  {
    return {128, 4};
  }
};

namespace detail {
#if defined(__CUDA_ARCH_LIST__)
inline constexpr int build_archs[] = {__CUDA_ARCH_LIST__}; // 900, 1000, ...
#else
inline constexpr int build_archs[] = {900}; // a host compiler alone builds no kernel
#endif
inline constexpr int build_arch_count = static_cast<int>(sizeof(build_archs) / sizeof(build_archs[0]));

template <class Selector>
constexpr auto policy_at(int i)
{
  return Selector{}(compute_capability{build_archs[i] / 10});
}

// The first architecture of the build whose policy equals architecture i's: kernels are
// instantiated for these only.
template <class Selector>
constexpr int first_with_policy_of(int i)
{
  for (int j = 0; j < i; ++j)
  {
    if (policy_at<Selector>(j) == policy_at<Selector>(i))
    {
      return j;
    }
  }
  return i;
}

template <class Selector>
constexpr int distinct_policies()
{
  int n = 0;
  for (int i = 0; i < build_arch_count; ++i)
  {
    n += first_with_policy_of<Selector>(i) == i;
  }
  return n;
}

// The build architecture the running code was compiled for (ptxVersion * 10), found among
// build_archs; -1 where the build has none.
inline int build_arch_index(int sm)
{
  for (int i = 0; i < build_arch_count; ++i)
  {
    if (build_archs[i] / 10 == sm)
    {
      return i;
    }
  }
  return -1;
}

template <class = void>
__global__ void probe_kernel()
{}

// The index in build_archs of the code the current device (`device`) runs: the ptxVersion of a
// kernel of this build (clc::detail::compiled_sm), remembered per device;
// cudaErrorInvalidDeviceFunction where it runs none.
inline cudaError_t running_arch_index(int device, int& index)
{
  static std::atomic<int> known[256]; // ptxVersion + 1 per device ordinal; 0: not asked yet
  int sm = device < 256 ? known[device].load(std::memory_order_relaxed) - 1 : -1;
  if (sm < 0)
  {
    if (const cudaError_t err = clc::detail::compiled_sm(probe_kernel<>, sm); err != cudaSuccess)
    {
      return err;
    }
    if (device < 256)
    {
      known[device].store(sm + 1, std::memory_order_relaxed);
    }
  }
  index = build_arch_index(sm);
  return index < 0 ? cudaErrorInvalidDeviceFunction : cudaSuccess;
}

// clc::detail::resident_units of Kernel (block_threads threads, clusters of `cluster`, no dynamic
// shared memory), remembered per device for each kernel: the occupancy query would otherwise cost
// more host time than the rest of a small call.
template <auto Kernel>
cudaError_t cached_resident_units(int device, int block_threads, int cluster, unsigned long long& units)
{
  static std::atomic<unsigned long long> known[256]; // per device ordinal; 0: not asked yet
  units = device < 256 ? known[device].load(std::memory_order_relaxed) : 0;
  if (units != 0)
  {
    return cudaSuccess;
  }
  const cudaError_t err = clc::detail::resident_units(Kernel, dim3(block_threads), 0, dim3(cluster), units);
  if (err == cudaSuccess && device < 256)
  {
    known[device].store(units, std::memory_order_relaxed);
  }
  return err;
}

// Calls launch(std::integral_constant<int, I>) for the architecture I that shares index's policy and
// comes first: one instantiation per distinct policy.
template <class Selector, int I = 0, class Launch>
cudaError_t dispatch_policy(int index, Launch&& launch)
{
  if constexpr (I < build_arch_count)
  {
    if constexpr (first_with_policy_of<Selector>(I) == I)
    {
      if (first_with_policy_of<Selector>(index) == I)
      {
        return launch(::cuda::std::integral_constant<int, I>{});
      }
    }
    return dispatch_policy<Selector, I + 1>(index, static_cast<Launch&&>(launch));
  }
  else
  {
    (void) index;
    return cudaErrorInvalidDeviceFunction;
  }
}

// What every algorithm does once its arguments passed: refuse a stream of another device
// (temp_storage.h), find the cubin the device runs, and launch(arch, device) with its policy.
template <class Selector, class Launch>
cudaError_t dispatch_on_device(cudaStream_t stream, Launch&& launch)
{
  int device = 0, index = -1;
  cudaError_t err = cudaGetDevice(&device);
  if (err == cudaSuccess && (err = check_stream(stream, device)) == cudaSuccess
      && (err = running_arch_index(device, index)) == cudaSuccess)
  {
    err = dispatch_policy<Selector>(index, [&](auto arch) { return launch(arch, device); });
  }
  return err;
}
} // namespace detail
} // namespace device
PTXW_NAMESPACE_END
