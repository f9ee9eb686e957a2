// ptxw/inter_block/host/work_queue.h: the host side of ptxw/inter_block/work_queue.h -- the queue's
// items and cursor.
//
//   ptxw::work_queue_host<job> q(capacity);          // allocates, initialises (R17)
//   q.fill(jobs);                                    // from a host vector, or fill(span) from device memory
//   run<<<blocks, threads>>>(q.view());              // each block takes items until none are left
//   q.reset();                                       // before the next launch takes them all again
//
// More items than the capacity is an error (R18). One launch at a time drains a queue; a launch
// that finds it exhausted (no reset() since the last) gets no items. CUDA errors and bad arguments
// throw std::runtime_error("ptxw: ..."); the constructor synchronises its stream (the queue is
// initialised before it returns), fill() and reset() do not.
#pragma once

#include <ptxw/core/checked_host.h>
#include <ptxw/core/device_array.h>
#include <ptxw/inter_block/work_queue.h>

#include <cuda/std/span>

#include <cstddef>
#include <string>
#include <vector>

PTXW_NAMESPACE_BEGIN
template <class T>
class work_queue_host
{
  static_assert(detail::queue_item_ok<T>, PTXW_RULE(R18) "a queue's items are copied by cudaMemcpy and "
                                          "returned by value: T must be trivially copyable and default-constructible");
  std::size_t capacity_;
  std::size_t size_ = 0;
  detail::device_array<T> items_;
  detail::device_array<work_queue_state> state_;

  void check_capacity(std::size_t n, const char* what) const
  {
    if (n > capacity_)
    {
      throw std::runtime_error(std::string(PTXW_RULE(R18)) + what + " " + std::to_string(n)
                               + " items into a work queue of capacity " + std::to_string(capacity_));
    }
  }

public:
  explicit work_queue_host(std::size_t capacity, cudaStream_t stream = 0)
      : capacity_(capacity)
      , items_(capacity, "allocating a work queue")
      , state_(1, "allocating a work queue")
  {
    const work_queue_state fresh{0ull, detail::queue_tag, 0u};
    detail::cuda_check(cudaMemcpyAsync(state_.get(), &fresh, sizeof fresh, cudaMemcpyHostToDevice, stream),
                       "initialising a work queue");
    detail::cuda_check(cudaStreamSynchronize(stream), "initialising a work queue");
  }

  // The items, from host memory; the cursor starts over.
  void fill(const std::vector<T>& items, cudaStream_t stream = 0)
  {
    check_capacity(items.size(), "filling");
    if (!items.empty())
    {
      detail::cuda_check(
        cudaMemcpyAsync(items_.get(), items.data(), sizeof(T) * items.size(), cudaMemcpyHostToDevice, stream),
        "filling a work queue");
    }
    size_ = items.size();
    reset(stream);
  }

  // The items, from device memory (stream-ordered: the source may come from an earlier kernel).
  void fill(::cuda::std::span<const T> device_items, cudaStream_t stream = 0)
  {
    check_capacity(device_items.size(), "filling");
    if (!device_items.empty())
    {
      detail::cuda_check(cudaMemcpyAsync(items_.get(), device_items.data(), sizeof(T) * device_items.size(),
                                         cudaMemcpyDeviceToDevice, stream),
                         "filling a work queue");
    }
    size_ = device_items.size();
    reset(stream);
  }

  // Every item is to be handed out again, from the first (stream-ordered; no host wait).
  void reset(cudaStream_t stream = 0)
  {
    detail::cuda_check(cudaMemsetAsync(&state_.get()->cursor, 0, sizeof(unsigned long long), stream),
                       "resetting a work queue");
  }

  // The queue for a launch; with a sink, checked mode reports there instead of trapping.
  work_queue<T> view(const checked::sink* sink = nullptr) const noexcept
  {
    return work_queue<T>(typename work_queue<T>::from_host{}, items_.get(), size_, state_.get(), sink);
  }

  std::size_t size() const noexcept
  {
    return size_;
  }
  std::size_t capacity() const noexcept
  {
    return capacity_;
  }
  // The queue's device memory: the items, and the cursor and tag (work_queue_state).
  T* items() const noexcept
  {
    return items_.get();
  }
  work_queue_state* state() const noexcept
  {
    return state_.get();
  }
};

PTXW_NAMESPACE_END
