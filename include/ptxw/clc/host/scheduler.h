// ptxw/clc/host/scheduler.h: the host side of cluster launch control -- what a launch of a work-stealing
// kernel needs beyond its arguments.
//
//   ptxw::clc::scheduler sched;                                   // once: a little device memory
//   auto l = sched.prepare(scale, dim3(blocks), dim3(256));       // before each launch
//   scale<<<l.grid, 256>>>(v, n, a, l.ctx);
//
// prepare(kernel, grid, block, ...) says which CTAs to launch (ptxw/clc/launch.h): the whole grid
// where the kernel runs hardware cluster launch control (sm_100 and newer) or the faithful
// emulation, and on Hopper's counter_t the prefix of the grid that fits on the GPU at once, so that
// the canceled blocks are never launched (as on hardware). prepare(grid, ...) makes the context for
// a launch of the whole grid, which every backend handles (counter_t then runs one block per CTA):
// the launch for blocks whose threads finish at very different times, since the GPU reuses the
// warps a CTA's early threads leave and a persistent CTA's never leave (docs/clc.md, "Which CTAs to
// launch").
//
// One scheduler serves one launch at a time, in the order prepared, so launches that may overlap
// need a scheduler each (R32). prepare() enqueues nothing on counter_t and the hardware: the launch
// before renews counter_t's cursor (ptxw/clc/counter_cursor.h); it clears the emulation's state,
// and a cursor captured into a CUDA graph, on `stream`. CUDA errors and bad arguments throw
// std::runtime_error("ptxw: ..."); the constructor allocates and clears device memory
// (cudaMemset, synchronous), injected_failures() copies to the host (synchronous).
#pragma once

#include <ptxw/clc/counter_cursor.h>
#include <ptxw/clc/launch.h>
#include <ptxw/core/checked_host.h>
#include <ptxw/core/device_array.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

PTXW_NAMESPACE_BEGIN
namespace clc {
class scheduler
{
  std::size_t capacity_;
  // Two pairs of [0] the cursor, [1] injected failures: launch e uses pair (e - 1) % 2, and its
  // first CTA renews the other pair's cursor for launch e + 1 (counter_t).
  ::ptxw::detail::device_array<unsigned long long> counters_;
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
      , counters_(4, "allocating the scheduler's counters")
      , claimed_(emulation_capacity, "allocating the emulation's claims")
      , responses_(emulation_capacity, "allocating the emulation's responses")
      , seed_(seed)
  {
    if (emulation_capacity > 0xfffffffeull)
    {
      throw std::runtime_error("ptxw: emulation capacity must be at most 2^32 - 2 clusters");
    }
    ::ptxw::detail::cuda_check(cudaMemset(counters_.get(), 0, 4 * sizeof(unsigned long long)), "clearing the counters");
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
    ::ptxw::detail::cuda_check(cudaMemcpy(&n, counters_of(epoch_) + 1, sizeof n, cudaMemcpyDeviceToHost),
                               "reading injected failures");
    return n;
  }

  // Before each launch of the whole `grid`, in clusters of `cluster`: a fresh cursor (and, for
  // emulated_t, a fresh epoch: no claim of an earlier launch counts).
  // `sink`: where checked mode reports (ptxw::checked::diagnostics::device_sink()), or null.
  template <class Backend = automatic_t>
  context<Backend> prepare(dim3 grid, dim3 cluster = dim3(1, 1, 1), cudaStream_t stream = 0,
                           const checked::sink* sink = nullptr)
  {
    return prepare_for<Backend>(grid, cluster, stream, sink, detail::id_of<Backend>);
  }

  // As above, and which CTAs to launch: the resident prefix of the grid for this kernel, block size
  // and dynamic shared memory where the backend that runs it launches one (counter_t; automatic_t
  // for code compiled below sm_100), the whole grid for the others (ptxw/clc/launch.h).
  template <class... Args>
  auto prepare(void (*kernel)(Args...), dim3 grid, dim3 block, std::size_t smem = 0, dim3 cluster = dim3(1, 1, 1),
               cudaStream_t stream = 0, const checked::sink* sink = nullptr)
    -> launch<typename detail::kernel_backend<Args...>::type>
  {
    static_assert(detail::kernel_backend<Args...>::contexts == 1,
                  "ptxw: prepare(kernel, ...) takes a kernel with exactly one ptxw::clc::context parameter");
    using Backend = typename detail::kernel_backend<Args...>::type;
    dim3 launched;
    backend_id runs = backend_id::automatic;
    ::ptxw::detail::cuda_check(detail::launch_grid<Backend>(kernel, grid, block, smem, cluster, launched, runs),
                               "sizing the launch to the kernel's occupancy");
    return {launched, prepare_for<Backend>(grid, cluster, stream, sink, runs)};
  }

private:
  template <class Backend>
  context<Backend> prepare_for(dim3 grid, dim3 cluster, cudaStream_t stream, const checked::sink* sink,
                               backend_id prepared)
  {
    if (const char* why = detail::grid_problem(grid, cluster))
    {
      throw std::runtime_error(std::string("ptxw: ") + why);
    }
    const unsigned long long units = detail::volume({grid.x / cluster.x, grid.y / cluster.y, grid.z / cluster.z});
    constexpr bool claims          = detail::row_of<detail::state_backend_t<Backend>>::value().claims_per_unit;
    if (claims && units > capacity_)
    {
      throw std::runtime_error("ptxw: the launch has " + std::to_string(units)
                               + " clusters; this scheduler's emulation holds " + std::to_string(capacity_));
    }
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    ::ptxw::detail::cuda_check(cudaStreamIsCapturing(stream, &capture), "asking whether the stream is captured");
    const bool wrapped = epoch_ == ~0u;
    epoch_             = following(epoch_);
    if (wrapped && capacity_ != 0)
    {
      ::ptxw::detail::cuda_check(cudaMemsetAsync(claimed_.get(), 0, sizeof(std::uint32_t) * capacity_, stream),
                                 "clearing the emulation's claims");
    }
    // A graph replays one context, so its cursor is cleared in the graph; so is the emulation's, and
    // both of counter_t's every 2^24 launches, when its tags start over (ptxw/clc/counter_cursor.h).
    const std::uint32_t tag = detail::cursor_tag(epoch_);
    const bool clear        = claims || capture != cudaStreamCaptureStatusNone || tag == 0;
    if (clear)
    {
      ::ptxw::detail::cuda_check(cudaMemsetAsync(tag == 0 ? counters_.get() : counters_of(epoch_), 0,
                                                 (tag == 0 ? 4 : 2) * sizeof(unsigned long long), stream),
                                 "resetting the scheduler's counters");
    }
    detail::launch_plan plan{counters_of(epoch_), claimed_.get(), responses_.get(), {grid.x, grid.y, grid.z},
                             {cluster.x, cluster.y, cluster.z}, epoch_, spurious_, seed_};
    // The next launch's cursor, which this one renews: none from a graph (replayed at any time) or
    // where the next launch clears it (its tag is 0).
    const std::uint32_t next = following(epoch_);
    const bool renews_none   = capture != cudaStreamCaptureStatusNone || detail::cursor_tag(next) == 0;
    plan.next_cursor         = renews_none ? nullptr : counters_of(next);
    plan.cursor_tag          = clear ? 0u : tag;
    return detail::make_context<Backend>(plan, prepared, sink);
  }

  // Epochs count launches from 1 and start over after 2^32 - 1: no claim of the emulation may carry
  // an epoch before its launch.
  static std::uint32_t following(std::uint32_t epoch)
  {
    return epoch == ~0u ? 1u : epoch + 1u;
  }

  unsigned long long* counters_of(std::uint32_t epoch) const
  {
    return counters_.get() + 2 * ((epoch - 1u) & 1u);
  }
};

} // namespace clc
PTXW_NAMESPACE_END
