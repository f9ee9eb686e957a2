// ptxw/tasks/host/method_memory.h: a method's device memory for pool_host (tasks/host/pool_host.h),
// owned: its arrays for a grid and a capacity, the kernel's view of them, and how seeds are placed in
// them -- one implementation per memory layout, which the method's row picks (its `memory` column,
// tasks/method_table.h) and which reads the rest from the method's backend (memory_layout says what).
// A method lists nothing here; one whose memory is none of the layouts specialises host_memory<T, Method>.
#pragma once

#include <ptxw/core/checked_host.h>
#include <ptxw/core/device_array.h>
#include <ptxw/tasks.h>
#include <ptxw/tasks/method_table.h>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

PTXW_NAMESPACE_BEGIN
namespace detail::tasks {
// A layout's device memory, owned (one specialisation per memory_layout, below).
template <class T, class Method, memory_layout Layout>
struct layout_memory;

inline void refuse_seeds(std::size_t seeds, std::size_t room, const char* where)
{
  throw std::runtime_error(std::string(PTXW_RULE(R23)) + std::to_string(seeds) + " seeds do not fit " + where
                           + ", which holds " + std::to_string(room));
}

// What every method's memory is: `ends` (a deque's or the queue's ends, the lists' state) and
// `cells` (the entries), for a grid and a capacity; the kernel's view of them.
template <class T, class Method, class Ends, class Cell>
struct pool_arrays
{
  using memory = typename backend<T, Method>::memory;
  std::uint32_t queues, capacity;
  device_array<Ends> ends;
  device_array<Cell> cells;

  pool_arrays(std::uint32_t grid, std::uint32_t cap, std::size_t ends_n, std::size_t cells_n, const char* what)
      : queues(grid)
      , capacity(cap)
      , ends(ends_n, what)
      , cells(cells_n, what)
  {}

  memory view() const
  {
    return {ends.get(), cells.get(), capacity};
  }
};

// deque_per_block (both kinds of deque): one per block, seeded by the kind's ends (backend::seeded).
template <class T, class Method>
struct layout_memory<T, Method, memory_layout::deque_per_block>
    : pool_arrays<T, Method, typename backend<T, Method>::ends_t, entry<T>>
{
  using kind   = backend<T, Method>;
  using ends_t = typename kind::ends_t;

  layout_memory(std::uint32_t grid, std::uint32_t cap)
      : pool_arrays<T, Method, ends_t, entry<T>>(grid, checked_capacity(cap), grid, std::size_t(grid) * cap,
                                                 "allocating a task pool's deques")
  {}

  static std::uint32_t checked_capacity(std::uint32_t cap)
  {
    if (cap > kind::max_capacity)
    {
      throw std::runtime_error(std::string(PTXW_RULE(R23)) + "this kind of deque holds at most "
                               + std::to_string(kind::max_capacity) + " tasks, not " + std::to_string(cap));
    }
    return cap;
  }

  // Seed i goes to deque i % queues, as its (i / queues)-th task.
  void place(const std::vector<T>& seeds, cudaStream_t stream)
  {
    const std::uint32_t queues = this->queues, capacity = this->capacity;
    const std::size_t rows     = (seeds.size() + queues - 1) / queues;
    if (rows > capacity)
    {
      refuse_seeds(seeds.size(), std::size_t(queues) * capacity, "into the grid's deques");
    }
    std::vector<ends_t> e(queues);
    std::vector<entry<T>> staged(rows * queues);
    for (std::size_t i = 0; i < seeds.size(); ++i)
    {
      staged[(i % queues) * rows + i / queues] = seed_entry(seeds[i], i);
    }
    for (std::uint32_t q = 0; q < queues; ++q)
    {
      e[q] = kind::seeded(static_cast<std::uint32_t>(seeds.size() / queues + (q < seeds.size() % queues)));
    }
    cuda_check(cudaMemcpyAsync(this->ends.get(), e.data(), sizeof(ends_t) * queues, cudaMemcpyHostToDevice, stream),
               "seeding a task pool");
    if (rows != 0)
    {
      cuda_check(cudaMemcpy2DAsync(this->cells.get(), sizeof(entry<T>) * capacity, staged.data(),
                                   sizeof(entry<T>) * rows, sizeof(entry<T>) * rows, queues, cudaMemcpyHostToDevice,
                                   stream),
                 "seeding a task pool");
    }
    cuda_check(cudaStreamSynchronize(stream), "seeding a task pool"); // `staged` dies here
  }
};

// one_queue (the methods with one queue): `cells` slots, position i (0 <= i < capacity) in slot
// Slot{}(i, capacity), filled by Fill{}(cell, i, seed i or nullptr) (tasks/shared_queue.h). The
// cells are filled on the device from a copy of the seeds, so a seeding copies the seeds, not the
// whole queue staged on the host.
template <class T, class Cell, class Fill, class Slot>
__global__ void fill_queue(Cell* cells, const T* seeds, std::uint32_t n, std::uint32_t capacity)
{
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < capacity; i += gridDim.x * blockDim.x)
  {
    Fill{}(cells[Slot{}(i, capacity)], i, i < n ? &seeds[i] : nullptr);
  }
}

template <class T, class Method, class Cell, class Fill, class Slot>
struct shared_queue_host : pool_arrays<T, Method, queue_ends, Cell>
{
  std::optional<device_array<T>> seeds_; // the last seeding's, kept for the next ones of at most as many

  shared_queue_host(std::uint32_t grid, std::uint32_t cap)
      : pool_arrays<T, Method, queue_ends, Cell>(grid, cap, 1, cap, "allocating a task queue")
  {}

  void place(const std::vector<T>& seeds, cudaStream_t stream)
  {
    const std::uint32_t capacity = this->capacity;
    if (seeds.size() > capacity)
    {
      refuse_seeds(seeds.size(), capacity, "into the queue");
    }
    if (!seeds_ || seeds.size() > seeds_->size())
    {
      seeds_.emplace(seeds.size(), "seeding a task queue");
    }
    queue_ends e{};
    e.tail  = seeds.size();
    e.count = static_cast<long long>(seeds.size());
    e.size  = static_cast<long long>(seeds.size());
    cuda_check(cudaMemcpyAsync(this->ends.get(), &e, sizeof e, cudaMemcpyHostToDevice, stream),
               "seeding a task queue");
    if (!seeds.empty())
    {
      cuda_check(cudaMemcpyAsync(seeds_->get(), seeds.data(), sizeof(T) * seeds.size(), cudaMemcpyHostToDevice, stream),
                 "seeding a task queue");
    }
    const std::uint32_t blocks = std::min(capacity / 256 + 1, 1024u);
    fill_queue<T, Cell, Fill, Slot><<<blocks, 256, 0, stream>>>(this->cells.get(), seeds.empty() ? nullptr : seeds_->get(),
                                                                static_cast<std::uint32_t>(seeds.size()), capacity);
    cuda_check(cudaGetLastError(), "seeding a task queue");
    cuda_check(cudaStreamSynchronize(stream), "seeding a task queue"); // `e` and `seeds` die after the return
  }
};

// A method's queue, as its backend describes its cells.
template <class T, class Method, class Backend = backend<T, Method>>
using queue_host_of = shared_queue_host<T, Method, typename Backend::cell, typename Backend::fill, typename Backend::slots>;

template <class T, class Method>
struct layout_memory<T, Method, memory_layout::one_queue> : queue_host_of<T, Method>
{
  using queue_host_of<T, Method>::shared_queue_host;
};

// round_lists (both forms of the static list): the seeds are round 0's `in` list (list 0).
template <class T, class Method>
struct layout_memory<T, Method, memory_layout::round_lists> : pool_arrays<T, Method, static_list_state, entry<T>>
{
  layout_memory(std::uint32_t grid, std::uint32_t cap)
      : pool_arrays<T, Method, static_list_state, entry<T>>(grid, cap, 1, 2 * std::size_t(cap),
                                                            "allocating a static task list")
  {}

  void place(const std::vector<T>& seeds, cudaStream_t stream)
  {
    if (seeds.size() > this->capacity)
    {
      refuse_seeds(seeds.size(), this->capacity, "into the first round's list");
    }
    static_list_state s{};
    s.size[0] = seeds.size();
    std::vector<entry<T>> staged(seeds.size());
    for (std::size_t i = 0; i < seeds.size(); ++i)
    {
      staged[i] = seed_entry(seeds[i], i);
    }
    cuda_check(cudaMemcpyAsync(this->ends.get(), &s, sizeof s, cudaMemcpyHostToDevice, stream),
               "seeding a static task list");
    if (!staged.empty())
    {
      cuda_check(cudaMemcpyAsync(this->cells.get(), staged.data(), sizeof(entry<T>) * staged.size(),
                                 cudaMemcpyHostToDevice, stream),
                 "seeding a static task list");
    }
    cuda_check(cudaStreamSynchronize(stream), "seeding a static task list");
  }
};

// A method's device memory: its layout's, as its row says. (A Method without a row is refused by
// pool_host, R10; the default row here keeps that the one error.)
template <class T, class Method>
struct host_memory : layout_memory<T, Method, row_or_default<Method>().memory>
{
  using layout_memory<T, Method, row_or_default<Method>().memory>::layout_memory;
};
} // namespace detail::tasks
PTXW_NAMESPACE_END
