// ptxw/tasks/host/pool_host.h: the host side of ptxw/tasks.h -- a task pool's memory, its seeds, its
// co-resident launch and its statistics.
//
//   ptxw::tasks::pool_host<node, ptxw::tasks::stealing> pool(256);  // capacity (see the method's unit)
//   pool.seed(root);                                                // or seed(vector), seed(span)
//   pool.launch(build<ptxw::tasks::stealing>, 256, 0, stream, out);  // the resident grid, cooperative
//   auto s = pool.stats();                                          // synchronises
//   pool.reset();                                                   // no seeds: ready for new ones
//
// What the host does for a method is what its row of the method table says (tasks/method_table.h):
// the memory and its seeding (its layout, tasks/host/method_memory.h), the capacity's unit -- tasks
// per block's deque (stealing_deques), per list (static_list), in the one queue (lockfree_queue,
// locked_queue) -- and the launch. A capacity is rounded up to a power of two (at least 2). Each
// launch starts from the seeds (live = their number) and zeroed counters. A cooperative method's
// grid is every block resident at once, or fewer: workers wait for each other's tasks, so a block
// that is not resident could make the others wait forever -- a grid over residency is refused
// (R24), and the launch is cooperative, which the driver refuses over residency too. A round-graph
// method (static_list_graph) instead runs one launch a round in a CUDA graph (a conditional WHILE node: the kernel, then the advance kernel;
// ptxw/tasks/host/round_graph.h), built once per kernel and shape; nothing waits, so its grid may be
// any size, and the graph is launched into `stream` like a kernel. Errors are
// std::runtime_error("ptxw: ..."); seeds beyond a capacity are R23; in checked builds, a seed that
// points to memory the device cannot read is R31 (tasks/host/payload_pointers.h says which pointers).
#pragma once

#include <ptxw/core/checked_host.h>
#include <ptxw/core/device_array.h>
#include <ptxw/tasks.h>
#include <ptxw/tasks/host/method_memory.h>
#include <ptxw/tasks/host/payload_pointers.h>
#include <ptxw/tasks/host/round_graph.h>

#include <cuda/std/span>

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

PTXW_NAMESPACE_BEGIN
namespace tasks {
// A grid of a given number of blocks, for pool_host::launch (at most the resident count).
struct blocks
{
  int count;
};

// What pool_host::stats() reads back after a launch.
struct pool_stats : counters
{
  // The most tasks any one queue held: the deques, an upper bound (bottom less a top read earlier,
  // at each publication); the shared queues and lists, sampled at every 64th push.
  unsigned long long max_occupancy;
  unsigned long long live; // 0 after a launch that finished
  // Where pushes were full: the largest occupancy one of them asked for (the deques and the NIL
  // slots: an upper bound, from a top or head read earlier); 0 where none was full.
  unsigned long long wanted;
};

template <class T, class Method>
class pool_host
{
  static_assert(detail::tasks::task_ok<T>, PTXW_RULE(R20) "a task is copied by cudaMemcpy and handed out by "
                                           "value: T must be trivially copyable and default-constructible");
  static_assert(detail::tasks::has_row<Method>, PTXW_TASK_METHOD_REFUSAL);
  static constexpr detail::tasks::method_row row = detail::tasks::row_or_default<Method>();
  std::size_t capacity_;
  std::vector<T> seeds_;
  faults faults_{};
  const checked::sink* sink_ = nullptr;
  detail::device_array<pool_state> state_;
  std::optional<detail::tasks::host_memory<T, Method>> memory_;
  // One launch a round in a graph, at any grid (R24 does not apply), or one cooperative launch.
  static constexpr bool rounds_in_graph = row.launch == detail::tasks::launch_form::round_graph;
  struct no_graph
  {};
  std::conditional_t<rounds_in_graph, detail::round_graph, no_graph> graph_;

  static std::size_t valid_capacity(std::size_t capacity)
  {
    if (capacity == 0 || capacity > (1u << 31))
    {
      throw std::runtime_error(std::string(PTXW_RULE(R23)) + "a task pool's capacity is 1 to 2^31 tasks, not "
                               + std::to_string(capacity));
    }
    return capacity;
  }

  // Rounded up to a power of two, at least 2: a queue's slot is a position's low bits.
  std::uint32_t capacity() const
  {
    const std::size_t asked = faults_.capacity != 0 ? faults_.capacity : capacity_;
    std::uint32_t c         = 2; // a ring needs two slots: "taken" and "published" differ
    while (c < asked)
    {
      c *= 2;
    }
    return c;
  }

public:
  // Bad input is refused before anything is allocated (R23).
  explicit pool_host(std::size_t capacity)
      : capacity_(valid_capacity(capacity))
      , state_(1, "allocating a task pool")
  {}
  pool_host(const pool_host&)            = delete;
  pool_host& operator=(const pool_host&) = delete;

  void seed(const T& task)
  {
    seeds_.push_back(task);
  }
  void seed(const std::vector<T>& tasks)
  {
    seeds_.insert(seeds_.end(), tasks.begin(), tasks.end());
  }
  void seed(::cuda::std::span<const T> tasks)
  {
    seeds_.insert(seeds_.end(), tasks.begin(), tasks.end());
  }
  // No seeds (the counters start over at the next launch).
  void reset()
  {
    seeds_.clear();
  }
  // Tests: faults injected from the next launch on.
  void inject(const faults& f)
  {
    faults_ = f;
  }
  // Checked mode reports into this sink instead of trapping. In either mode its timeout bounds every
  // wait of the pool's workers (R24): a launch whose task was lost returns, and stats().live counts
  // the tasks it left. Unchecked builds without a sink wait without a bound.
  void attach(const checked::sink* sink)
  {
    sink_ = sink;
  }

  // Blocks of `kernel` resident at once on the current device: the largest grid launch() takes.
  // Static: a capacity sized by the grid is known before the pool_host is made.
  template <class... Params>
  static int resident_grid(void (*kernel)(pool<T, Method>, Params...), int threads, std::size_t dynamic_smem)
  {
    int device = 0, sms = 0, per_sm = 0;
    detail::cuda_check(cudaGetDevice(&device), "sizing a task pool's grid");
    detail::cuda_check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
                       "sizing a task pool's grid");
    detail::cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, dynamic_smem),
                       "sizing a task pool's grid");
    return sms * per_sm;
  }

  // The pool's memory for a grid of `grid` blocks, seeded (stream-ordered, then synchronised), and
  // the kernel parameter for it. launch() does this; a launch of another grid is not co-resident-checked.
  // Checked builds refuse seeds that point to memory the device cannot read (R31) before anything is placed.
  pool<T, Method> prepare(int grid, cudaStream_t stream = 0)
  {
    if constexpr (checked::on)
    {
      detail::tasks::check_payload_pointers(seeds_);
    }
    if (!memory_ || memory_->queues != static_cast<std::uint32_t>(grid) || memory_->capacity != capacity())
    {
      memory_.reset();
      memory_.emplace(static_cast<std::uint32_t>(grid), capacity());
    }
    pool_state fresh{};
    fresh.live    = seeds_.size();
    fresh.tag     = detail::tasks::pool_tag;
    fresh.queues  = static_cast<std::uint32_t>(grid);
    fresh.next_id = seeds_.size();
    detail::cuda_check(cudaMemcpyAsync(state_.get(), &fresh, sizeof fresh, cudaMemcpyHostToDevice, stream),
                       "seeding a task pool");
    memory_->place(seeds_, stream);
    return pool<T, Method>(typename pool<T, Method>::from_host{}, state_.get(), memory_->view(), faults_, sink_);
  }

  // The kernel on the resident grid (every block resident at once), cooperatively -- or, for a
  // round-graph method (static_list_graph), as its rounds' graph; the pool is its first argument, `args` the rest.
  template <class... Params, class... Args>
  void launch(void (*kernel)(pool<T, Method>, Params...), int threads, std::size_t dynamic_smem, cudaStream_t stream,
              Args&&... args)
  {
    launch(blocks{resident_grid(kernel, threads, dynamic_smem)}, kernel, threads, dynamic_smem, stream,
           static_cast<Args&&>(args)...);
  }

  // The same on a grid of `grid.count` blocks: at most the resident count (R24), except for a
  // round-graph method, whose blocks never wait for each other (any grid of at least one block).
  template <class... Params, class... Args>
  void launch(blocks grid, void (*kernel)(pool<T, Method>, Params...), int threads, std::size_t dynamic_smem,
              cudaStream_t stream, Args&&... args)
  {
    const int resident = rounds_in_graph && grid.count >= 1 ? grid.count : resident_grid(kernel, threads, dynamic_smem);
    if (grid.count < 1 || grid.count > resident)
    {
      throw std::runtime_error(std::string(PTXW_RULE(R24)) + "a task pool's workers wait for each other's tasks, so "
                               "every block must be resident at once: " + std::to_string(grid.count)
                               + " blocks asked, " + std::to_string(resident) + " resident (" + std::to_string(threads)
                               + " threads, " + std::to_string(dynamic_smem) + " bytes of dynamic shared memory)");
    }
    launch(prepare(grid.count, stream), grid, kernel, threads, dynamic_smem, stream, static_cast<Args&&>(args)...);
  }

  // The launch alone, of the pool prepare() returned for `grid` (benchmarks time this part):
  // cooperative, or a round-graph method's graph. Not checked against residency, as prepare(); a
  // grid other than prepare()'s, or a pool another pool_host prepared, is refused (R22: every
  // block owns the worker memory prepare() made for it, and no other block's).
  template <class... Params, class... Args>
  void launch(const pool<T, Method>& prepared, blocks grid, void (*kernel)(pool<T, Method>, Params...), int threads,
              std::size_t dynamic_smem, cudaStream_t stream, Args&&... args)
  {
    if (prepared.state_ != state_.get() || !memory_)
    {
      throw std::runtime_error(std::string(PTXW_RULE(R22)) + "a prepared pool is launched by the pool_host "
                               "whose prepare() made it");
    }
    if (grid.count != static_cast<int>(memory_->queues))
    {
      throw std::runtime_error(std::string(PTXW_RULE(R22)) + "a prepared pool is launched on the grid prepare() "
                               "made its memory for: " + std::to_string(grid.count) + " blocks asked, prepared for "
                               + std::to_string(memory_->queues));
    }
    if constexpr (rounds_in_graph)
    {
      std::tuple<pool<T, Method>, Params...> values(prepared, static_cast<Args&&>(args)...);
      auto params = std::apply([](auto&... v) { return std::array<void*, sizeof...(Params) + 1>{&v...}; }, values);
      cudaKernelNodeParams work{};
      work.func           = reinterpret_cast<void*>(kernel);
      work.gridDim        = dim3(static_cast<unsigned>(grid.count));
      work.blockDim       = dim3(static_cast<unsigned>(threads));
      work.sharedMemBytes = static_cast<unsigned>(dynamic_smem);
      work.kernelParams   = params.data();
      graph_.launch(work, detail::tasks::backend<T, Method>::round_kernel(), &std::get<0>(values), stream);
    }
    else
    {
      cudaLaunchAttribute cooperative{};
      cooperative.id              = cudaLaunchAttributeCooperative;
      cooperative.val.cooperative = 1;
      cudaLaunchConfig_t config{};
      config.gridDim          = dim3(static_cast<unsigned>(grid.count));
      config.blockDim         = dim3(static_cast<unsigned>(threads));
      config.dynamicSmemBytes = dynamic_smem;
      config.stream           = stream;
      config.attrs            = &cooperative;
      config.numAttrs         = 1;
      detail::cuda_check(cudaLaunchKernelEx(&config, kernel, prepared, static_cast<Args&&>(args)...),
                         "launching a task pool");
    }
  }

  // After a launch (synchronises the device).
  pool_stats stats() const
  {
    pool_state s{};
    detail::cuda_check(cudaMemcpy(&s, state_.get(), sizeof s, cudaMemcpyDeviceToHost), "reading a task pool's stats");
    pool_stats out{};
    static_cast<counters&>(out) = s.sum;
    out.max_occupancy           = s.max_occupancy;
    out.live                    = s.live;
    out.wanted                  = s.wanted;
    return out;
  }

  // After a launch: empty where no push found its queue full, else R23's report -- how many did,
  // and the capacity that would have held what they asked for (a larger pool changes the run:
  // children kept by their block push later, so this is the least that would have been needed).
  std::string full_report() const
  {
    const pool_stats s = stats();
    if (s.full == 0)
    {
      return {};
    }
    std::size_t enough = capacity();
    while (enough < s.wanted)
    {
      enough *= 2;
    }
    return std::string(PTXW_RULE(R23)) + std::to_string(s.full) + " pushes found their queue full (capacity "
         + std::to_string(capacity()) + " " + row.unit + "; "
         + std::to_string(s.kept) + " of their children kept by their block); they asked for room for "
         + std::to_string(s.wanted) + ": a capacity of " + std::to_string(enough) + " would have held them";
  }

  std::size_t seeds() const noexcept
  {
    return seeds_.size();
  }
};
} // namespace tasks
PTXW_NAMESPACE_END
