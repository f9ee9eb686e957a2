// ptxw/clc/launch.h: how a work-stealing kernel is launched -- which CTAs (the backend table's
// resident prefix, or the whole grid), its context's state, and launches in clusters. Host code
// that reports errors as cudaError_t and never throws: the device-scope algorithms (ptxw/algorithms/)
// and the scheduler (ptxw/clc/host/scheduler.h, which turns these errors into exceptions) both build on it.
#pragma once

#include <ptxw/clc/handle.h>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

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

// Why a grid cannot be handed out by cluster launch control, or nullptr where it can.
inline const char* grid_problem(dim3 grid, dim3 cluster)
{
  if (cluster.x == 0 || cluster.y == 0 || cluster.z == 0 || grid.x == 0 || grid.y == 0 || grid.z == 0
      || grid.x % cluster.x || grid.y % cluster.y || grid.z % cluster.z)
  {
    return "the grid is not a whole, non-empty number of clusters";
  }
  if (grid.y > 0xffffu || grid.z > 0xffffu || volume({grid.x, grid.y, grid.z}) > 0xffffffffull)
  {
    return "the grid is more than cluster launch control's responses can name here (y and z below 65536, at "
           "most 2^32 - 1 blocks)";
  }
  return nullptr;
}

// A context of Backend for the launch `p`; `prepared`: the backend the host launched for, where it
// chose one by the architecture (checked mode compares it with the one that runs, R14).
template <class Backend>
context<Backend> make_context(const launch_plan& p, backend_id prepared, const checked::sink* sink)
{
  context<Backend> ctx{};
  ctx.state    = backend<state_backend_t<Backend>>::make_state(p);
  ctx.prepared = prepared;
  ctx.sink     = sink;
  return ctx;
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

// The resident prefix of `grid` (in clusters of `cluster`) that `resident` units fill.
inline dim3 resident_prefix(dim3 grid, dim3 cluster, unsigned long long resident)
{
  const uint3 fit = prefix_box({grid.x / cluster.x, grid.y / cluster.y, grid.z / cluster.z}, resident);
  return dim3(fit.x * cluster.x, fit.y * cluster.y, fit.z * cluster.z);
}

// The architecture kernel's code was compiled for (cudaFuncAttributes::ptxVersion, 90 for sm_90a):
// the fact the device's __CUDA_ARCH__ is (ptxw/clc/backend_table.h).
template <class... Args>
cudaError_t compiled_sm(void (*kernel)(Args...), int& sm)
{
  cudaFuncAttributes attributes{};
  const cudaError_t err = cudaFuncGetAttributes(&attributes, kernel);
  sm                    = attributes.ptxVersion;
  return err;
}

// Which CTAs to launch for `grid`, into `launched`, and the backend that runs, into `runs`: the
// resident prefix where the table says so, the whole grid otherwise.
template <class Backend, class... Args>
cudaError_t launch_grid(void (*kernel)(Args...), dim3 grid, dim3 block, std::size_t smem, dim3 cluster, dim3& launched,
                        backend_id& runs)
{
  int sm = 0;
  if constexpr (chosen_by_sm<Backend>)
  {
    if (const cudaError_t err = compiled_sm(kernel, sm); err != cudaSuccess)
    {
      return err;
    }
  }
  const backend_row row = row_for<Backend>(sm);
  launched              = grid;
  runs                  = row.id;
  if (row.resident_prefix)
  {
    unsigned long long resident = 0;
    if (const cudaError_t err = resident_units(kernel, block, smem, cluster, resident); err != cudaSuccess)
    {
      return err;
    }
    launched = resident_prefix(grid, cluster, resident);
  }
  return cudaSuccess;
}
} // namespace detail

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
