// ptxw/clc_host.h: the host side of cluster launch control -- the emulation's global state.
//
//   ptxw::clc::emulator emu(grid_clusters);               // once: device memory for the grid
//   auto ctx = emu.prepare(grid, cluster_dims, stream);   // before each launch
//   kernel<<<grid, block, 0, stream>>>(..., ctx);
//
// On Blackwell the hardware backend ignores the emulation state; the same host code works there.
// One emulator serves one launch at a time: prepare() resets its cursor on `stream`, so launches
// that may overlap need an emulator each. CUDA errors and bad arguments throw
// std::runtime_error("ptxw: ...").
#pragma once

#include <ptxw/checked_host.h>
#include <ptxw/clc.h>

#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

PTXW_NAMESPACE_BEGIN
namespace clc {
class emulator
{
  std::uint32_t* claimed_        = nullptr;
  uint4* responses_              = nullptr;
  unsigned long long* cursor_    = nullptr;
  std::size_t capacity_          = 0;
  std::uint32_t epoch_           = 0;
  std::uint32_t spurious_        = 0;
  std::uint32_t seed_;

public:
  // Room for grids of up to max_clusters clusters (blocks, for launches without clusters): 20
  // bytes of device memory per cluster.
  explicit emulator(std::size_t max_clusters, std::uint32_t seed = 0x9e3779b9u)
      : capacity_(max_clusters)
      , seed_(seed)
  {
    if (max_clusters == 0 || max_clusters > 0xfffffffeull)
    {
      throw std::runtime_error("ptxw: emulator capacity must be between 1 and 2^32 - 2 clusters");
    }
    using checked::host_detail::ok;
    ok(cudaMalloc(&claimed_, sizeof(std::uint32_t) * max_clusters), "allocating the emulation's claims");
    ok(cudaMalloc(&responses_, sizeof(uint4) * max_clusters), "allocating the emulation's responses");
    ok(cudaMalloc(&cursor_, sizeof(unsigned long long)), "allocating the emulation's cursor");
    ok(cudaMemset(claimed_, 0, sizeof(std::uint32_t) * max_clusters), "clearing the emulation's claims");
  }
  emulator(const emulator&)            = delete;
  emulator& operator=(const emulator&) = delete;
  ~emulator()
  {
    cudaFree(cursor_);
    cudaFree(responses_);
    cudaFree(claimed_);
  }

  // Fault injection: each request fails with probability p (0 <= p <= 1) although blocks remain,
  // as when a higher-priority kernel takes the GPU. The blocks it would have taken still run, for
  // themselves.
  void set_spurious_failure_rate(double p)
  {
    if (!(p >= 0.0 && p <= 1.0))
    {
      throw std::runtime_error("ptxw: spurious failure rate must be within [0, 1]");
    }
    spurious_ = p >= 1.0 ? 0xffffffffu : static_cast<std::uint32_t>(std::ldexp(p, 32));
  }

  // Before each launch of `grid` blocks in clusters of `cluster` blocks: a fresh epoch (no claim of
  // an earlier launch counts) and a zero cursor, ordered on `stream`. `sink`: where checked mode
  // reports (ptxw::checked::diagnostics::device_sink()), or null.
  template <class Backend = automatic_t>
  context<Backend> prepare(dim3 grid, dim3 cluster = dim3(1, 1, 1), cudaStream_t stream = 0,
                           const checked::sink* sink = nullptr)
  {
    if (cluster.x == 0 || cluster.y == 0 || cluster.z == 0 || grid.x % cluster.x || grid.y % cluster.y
        || grid.z % cluster.z)
    {
      throw std::runtime_error("ptxw: the grid is not a whole number of clusters");
    }
    const unsigned long long clusters = static_cast<unsigned long long>(grid.x / cluster.x) * (grid.y / cluster.y)
                                      * (grid.z / cluster.z);
    if (clusters == 0 || clusters > capacity_)
    {
      throw std::runtime_error("ptxw: the launch has " + std::to_string(clusters) + " clusters; this emulator holds "
                               + std::to_string(capacity_));
    }
    using checked::host_detail::ok;
    if (++epoch_ == 0)
    {
      ok(cudaMemsetAsync(claimed_, 0, sizeof(std::uint32_t) * capacity_, stream), "clearing the emulation's claims");
      epoch_ = 1;
    }
    ok(cudaMemsetAsync(cursor_, 0, sizeof(unsigned long long), stream), "resetting the emulation's cursor");
    context<Backend> ctx{};
    ctx.emulation = detail::emulation_state{
      claimed_, responses_, cursor_, epoch_, static_cast<std::uint32_t>(clusters), spurious_, seed_};
    ctx.sink = sink;
    return ctx;
  }
};

} // namespace clc
PTXW_NAMESPACE_END