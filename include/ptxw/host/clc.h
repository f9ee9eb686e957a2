// ptxw/host/clc.h: the host side of cluster launch control -- what a launch of a work-stealing
// kernel needs beyond its arguments.
//
//   ptxw::clc::scheduler sched;                                   // once: a little device memory
//   auto l = sched.prepare(scale, dim3(blocks), dim3(256));       // before each launch
//   scale<<<l.grid, 256>>>(v, n, a, l.ctx);
//
// prepare(kernel, grid, block, ...) says which CTAs to launch: the whole grid where the kernel runs
// hardware cluster launch control (sm_100 and newer) or the faithful emulation, and on Hopper's
// counter_t the prefix of the grid that fits on the GPU at once, so that the canceled blocks are
// never launched (as on hardware). prepare(grid, ...) makes the context for a launch of the whole
// grid, which every backend handles (counter_t then runs one block per CTA).
//
// One scheduler serves one launch at a time: prepare() resets its state on `stream`, so launches
// that may overlap need a scheduler each. CUDA errors and bad arguments throw
// std::runtime_error("ptxw: ...").
#pragma once

#include <ptxw/host/checked.h>
#include <ptxw/clc/handle.h>
#include <ptxw/host/device_array.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

PTXW_NAMESPACE_BEGIN
namespace clc {
// What to launch: kernel<<<grid, block, smem, stream>>>(..., ctx), in clusters if prepared so.
template <class Backend>
struct launch
{
  dim3 grid;
  context<Backend> ctx;
};

namespace detail {
template <class T>
struct context_backend
{
  using type = void;
};
template <class B>
struct context_backend<context<B>>
{
  using type = B;
};

// The backend of the ptxw::clc::context among a kernel's parameters (`contexts` of them).
template <class... Args>
struct kernel_backend
{
  static constexpr int contexts = 0;
  using type                    = void;
};
template <class A, class... Rest>
struct kernel_backend<A, Rest...>
{
  using here                    = typename context_backend<::ptxw::detail::remove_cvref_t<A>>::type;
  static constexpr int contexts = (::ptxw::detail::is_same_v<here, void> ? 0 : 1) + kernel_backend<Rest...>::contexts;
  using type = typename ::ptxw::detail::conditional<::ptxw::detail::is_same_v<here, void>,
                                                    typename kernel_backend<Rest...>::type, here>::type;
};

// What cudaLaunchKernelEx and cudaOccupancyMaxActiveClusters take for clusters of `cluster`
// blocks. Not copyable: the config points at the attribute beside it.
struct cluster_config
{
  cudaLaunchAttribute attribute{};
  cudaLaunchConfig_t config{};

  cluster_config(dim3 grid, dim3 block, dim3 cluster, std::size_t smem, cudaStream_t stream)
  {
    attribute.id               = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = cluster.x;
    attribute.val.clusterDim.y = cluster.y;
    attribute.val.clusterDim.z = cluster.z;
    config.gridDim          = grid;
    config.blockDim         = block;
    config.dynamicSmemBytes = smem;
    config.stream           = stream;
    config.attrs            = &attribute;
    config.numAttrs         = 1;
  }
  cluster_config(const cluster_config&)            = delete;
  cluster_config& operator=(const cluster_config&) = delete;
};

// The largest prefix box (see is_prefix_box) of `grid` with at most `budget` elements.
inline uint3 prefix_box(uint3 grid, unsigned long long budget)
{
  const unsigned long long plane = static_cast<unsigned long long>(grid.x) * grid.y;
  if (budget >= volume(grid))
  {
    return grid;
  }
  if (budget >= plane)
  {
    return {grid.x, grid.y, static_cast<unsigned>(budget / plane)};
  }
  if (budget >= grid.x)
  {
    return {grid.x, static_cast<unsigned>(budget / grid.x), 1u};
  }
  return {static_cast<unsigned>(budget), 1u, 1u};
}
// The grid in units (clusters, or blocks); throws where responses cannot name it.
inline uint3 units(dim3 grid, dim3 cluster)
{
  if (cluster.x == 0 || cluster.y == 0 || cluster.z == 0 || grid.x == 0 || grid.y == 0 || grid.z == 0
      || grid.x % cluster.x || grid.y % cluster.y || grid.z % cluster.z)
  {
    throw std::runtime_error("ptxw: the grid is not a whole, non-empty number of clusters");
  }
  const uint3 u{grid.x / cluster.x, grid.y / cluster.y, grid.z / cluster.z};
  if (grid.y > 0xffffu || grid.z > 0xffffu || detail::volume({grid.x, grid.y, grid.z}) > 0xffffffffull)
  {
    throw std::runtime_error("ptxw: a grid of " + std::to_string(detail::volume({grid.x, grid.y, grid.z}))
                             + " blocks is more than cluster launch control's responses can name here "
                               "(y and z below 65536, at most 2^32 - 1 blocks)");
  }
  return u;
}


// The device memory a software backend's state points at (ptxw::clc::scheduler owns one; the
// device-scope algorithms carve it from the caller's temporary storage).
struct scheduler_memory
{
  unsigned long long* counters; // [0] the cursor, [1] injected failures; zeroed before each launch
  std::uint32_t* claimed; // emulated_t: one epoch per unit, none equal to `epoch` before the launch
  uint4* responses; // emulated_t: one per unit
};

// Backend's state for a launch of `grid` in clusters of `cluster` (what the kernel's context holds).
template <class Backend>
auto make_state(const scheduler_memory& m, dim3 grid, dim3 cluster, std::uint32_t epoch, std::uint32_t spurious,
                std::uint32_t seed)
{
  using state = typename backend<typename state_backend<Backend>::type>::state;
  const uint3 u = units(grid, cluster);
  if constexpr (::ptxw::detail::is_same_v<Backend, emulated_t>)
  {
    return state{m.claimed, m.responses, m.counters, m.counters + 1, {grid.x, grid.y, grid.z},
                 {cluster.x, cluster.y, cluster.z}, epoch, spurious, seed};
  }
  else if constexpr (::ptxw::detail::is_same_v<Backend, hardware_t>)
  {
    (void) m, (void) u, (void) epoch, (void) spurious, (void) seed;
    return state{};
  }
  else
  {
    (void) epoch, (void) spurious, (void) seed;
    return state{m.counters, {grid.x, grid.y, grid.z}, {cluster.x, cluster.y, cluster.z}, make_fast_divisor(u.x),
                 make_fast_divisor(u.x * u.y)};
  }
}

// CTAs (or clusters) of this kernel the GPU holds at once, into n.
template <class... Args>
cudaError_t resident_units(void (*kernel)(Args...), dim3 block, std::size_t smem, dim3 cluster, unsigned long long& n)
{
  int count = 0;
  cudaError_t err = cudaSuccess;
  if (cluster.x * cluster.y * cluster.z == 1)
  {
    int device = 0, sms = 0;
    if ((err = cudaGetDevice(&device)) != cudaSuccess
        || (err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device)) != cudaSuccess
        || (err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&count, kernel, static_cast<int>(block.x * block.y * block.z),
                                                                 smem))
             != cudaSuccess)
    {
      return err;
    }
    count *= sms;
  }
  else
  {
    cluster_config c(cluster, block, cluster, smem, 0);
    if ((err = cudaOccupancyMaxActiveClusters(&count, kernel, &c.config)) != cudaSuccess)
    {
      return err;
    }
  }
  n = static_cast<unsigned long long>(count);
  return count > 0 ? cudaSuccess : cudaErrorInvalidConfiguration; // the kernel cannot run with this block
}

// counter_t's persistent launch: the prefix of `grid` (in clusters of `cluster`) that `resident`
// units fill.
inline dim3 persistent_grid(dim3 grid, dim3 cluster, unsigned long long resident)
{
  const uint3 fit = prefix_box({grid.x / cluster.x, grid.y / cluster.y, grid.z / cluster.z}, resident);
  return dim3(fit.x * cluster.x, fit.y * cluster.y, fit.z * cluster.z);
}

// Whether Backend launches the persistent prefix of its grid rather than the whole grid, for a
// cubin of binary_version (cudaFuncAttributes::binaryVersion, 90 for sm_90a): counter_t, and
// automatic_t below sm_100, where there is no cluster launch control. The hardware and the
// emulation launch every CTA of the grid.
template <class Backend>
constexpr bool persistent_launch(int binary_version)
{
  return ::ptxw::detail::is_same_v<Backend, counter_t>
      || (::ptxw::detail::is_same_v<Backend, automatic_t> && binary_version < 100);
}

// Which CTAs to launch for `grid`, into launched: the prefix that fits on the GPU at once where
// the launch is persistent (above), the whole grid otherwise.
template <class Backend, class... Args>
cudaError_t launch_grid(void (*kernel)(Args...), dim3 grid, dim3 block, std::size_t smem, dim3 cluster, dim3& launched)
{
  launched           = grid;
  int binary_version = 0;
  if constexpr (::ptxw::detail::is_same_v<Backend, automatic_t>)
  {
    cudaFuncAttributes attributes{};
    if (const cudaError_t err = cudaFuncGetAttributes(&attributes, kernel); err != cudaSuccess)
    {
      return err;
    }
    binary_version = attributes.binaryVersion;
  }
  if (persistent_launch<Backend>(binary_version))
  {
    unsigned long long resident = 0;
    if (const cudaError_t err = resident_units(kernel, block, smem, cluster, resident); err != cudaSuccess)
    {
      return err;
    }
    launched = persistent_grid(grid, cluster, resident);
  }
  return cudaSuccess;
}
} // namespace detail

class scheduler
{
  std::size_t capacity_;
  ::ptxw::detail::device_array<unsigned long long> counters_; // [0] the cursor, [1] injected failures
  ::ptxw::detail::device_array<std::uint32_t> claimed_;
  ::ptxw::detail::device_array<uint4> responses_;
  std::uint32_t epoch_    = 0;
  std::uint32_t spurious_ = 0;
  std::uint32_t seed_;

public:
  // emulation_capacity: the most clusters (blocks, for launches without clusters) a launch on
  // emulated_t may have -- 20 bytes of device memory each; counter_t and the hardware need none.
  explicit scheduler(std::size_t emulation_capacity = 0, std::uint32_t seed = 0x9e3779b9u)
      : capacity_(emulation_capacity)
      , counters_(2, "allocating the scheduler's counters")
      , claimed_(emulation_capacity, "allocating the emulation's claims")
      , responses_(emulation_capacity, "allocating the emulation's responses")
      , seed_(seed)
  {
    if (emulation_capacity > 0xfffffffeull)
    {
      throw std::runtime_error("ptxw: emulation capacity must be at most 2^32 - 2 clusters");
    }
    ::ptxw::detail::cuda_check(cudaMemset(counters_.get(), 0, 2 * sizeof(unsigned long long)), "clearing the counters");
    if (capacity_ != 0)
    {
      ::ptxw::detail::cuda_check(cudaMemset(claimed_.get(), 0, sizeof(std::uint32_t) * capacity_),
                                 "clearing the emulation's claims");
    }
  }

  // Fault injection for emulated_t: each request fails with probability p (0 <= p <= 1) although
  // blocks remain, as when a higher-priority kernel takes the GPU. The blocks it would have taken
  // still run, for themselves.
  void set_spurious_failure_rate(double p)
  {
    if (!(p >= 0.0 && p <= 1.0))
    {
      throw std::runtime_error("ptxw: spurious failure rate must be within [0, 1]");
    }
    spurious_ = p >= 1.0 ? 0xffffffffu : static_cast<std::uint32_t>(std::ldexp(p, 32));
  }

  // Spurious failures injected in the launch prepared last (synchronous: after it finished).
  unsigned long long injected_failures() const
  {
    unsigned long long n = 0;
    ::ptxw::detail::cuda_check(cudaMemcpy(&n, counters_.get() + 1, sizeof n, cudaMemcpyDeviceToHost),
                               "reading injected failures");
    return n;
  }

  // Before each launch of the whole `grid`, in clusters of `cluster`: a fresh cursor (and, for
  // emulated_t, a fresh epoch: no claim of an earlier launch counts), ordered on `stream`.
  // `sink`: where checked mode reports (ptxw::checked::diagnostics::device_sink()), or null.
  template <class Backend = automatic_t>
  context<Backend> prepare(dim3 grid, dim3 cluster = dim3(1, 1, 1), cudaStream_t stream = 0,
                           const checked::sink* sink = nullptr)
  {
    const uint3 u = detail::units(grid, cluster);
    ::ptxw::detail::cuda_check(cudaMemsetAsync(counters_.get(), 0, 2 * sizeof(unsigned long long), stream),
                               "resetting the scheduler's counters");
    if constexpr (::ptxw::detail::is_same_v<Backend, emulated_t>)
    {
      if (detail::volume(u) > capacity_)
      {
        throw std::runtime_error("ptxw: the launch has " + std::to_string(detail::volume(u))
                                 + " clusters; this scheduler's emulation holds " + std::to_string(capacity_));
      }
      if (++epoch_ == 0)
      {
        ::ptxw::detail::cuda_check(cudaMemsetAsync(claimed_.get(), 0, sizeof(std::uint32_t) * capacity_, stream),
                                   "clearing the emulation's claims");
        epoch_ = 1;
      }
    }
    context<Backend> ctx{};
    ctx.sink  = sink;
    ctx.state = detail::make_state<Backend>({counters_.get(), claimed_.get(), responses_.get()}, grid, cluster, epoch_,
                                            spurious_, seed_);
    return ctx;
  }

  // As above, and which CTAs to launch: for counter_t (automatic_t on a GPU below sm_100) the
  // prefix of the grid that fits on the GPU at once for this kernel, block size and dynamic shared
  // memory; the whole grid for the others.
  template <class... Args>
  auto prepare(void (*kernel)(Args...), dim3 grid, dim3 block, std::size_t smem = 0, dim3 cluster = dim3(1, 1, 1),
               cudaStream_t stream = 0, const checked::sink* sink = nullptr)
    -> launch<typename detail::kernel_backend<Args...>::type>
  {
    static_assert(detail::kernel_backend<Args...>::contexts == 1,
                  "ptxw: prepare(kernel, ...) takes a kernel with exactly one ptxw::clc::context parameter");
    using Backend = typename detail::kernel_backend<Args...>::type;
    launch<Backend> l{grid, prepare<Backend>(grid, cluster, stream, sink)};
    ::ptxw::detail::cuda_check(detail::launch_grid<Backend>(kernel, grid, block, smem, cluster, l.grid),
                               "sizing the launch to the kernel's occupancy");
    return l;
  }
};

// kernel<<<grid, block, smem, stream>>>(args...) in clusters of `cluster` blocks, through
// cudaLaunchKernelEx (the triple-chevron launch has no cluster size): how a cluster form's
// prepared launch is started. Returns the launch's error.
template <class... KernelArgs, class... Args>
cudaError_t launch_in_clusters(void (*kernel)(KernelArgs...), dim3 grid, dim3 block, dim3 cluster, std::size_t smem,
                               cudaStream_t stream, Args&&... args)
{
  detail::cluster_config c(grid, block, cluster, smem, stream);
  return cudaLaunchKernelEx(&c.config, kernel, static_cast<KernelArgs>(args)...);
}

} // namespace clc
PTXW_NAMESPACE_END
