// examples/octree/timeline.h: per-SM timelines of the dynamic builder -- one span per task (the
// SM that ran it, what kind of task, its start and end on the global timer), recorded by the
// block's thread 0 when the builder is given a timeline, nothing otherwise. Where the SMs wait
// between spans is where the scheduling costs: the picture is plot.py's (--timeline).
#pragma once

#include <ptxw/core/checked.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "device.h"

namespace octree
{

enum class span_kind : std::uint32_t
{
  finish, // a node finished in shared memory
  split, // a node split by one block
  count, // a chunk counted into its node's join
  scatter, // a chunk scattered through its node's join
  range // a range of chunks split in parts
};

struct task_span
{
  std::uint32_t sm;
  span_kind kind;
  std::uint64_t start, end; // ns, global timer
};

struct timeline_view
{
  task_span* spans = nullptr; // nullptr: record nothing
  std::uint32_t* used = nullptr;
  std::uint32_t capacity = 0;
};

// Thread 0's record of the task it is running: started at construction, written at the end of
// the task's scope (the loop's `continue`s included) with the kind the task turned out to be.
class span_scope
{
  const timeline_view& tl_;
  std::uint64_t start_ = 0;

public:
  span_kind kind = span_kind::split;

  __device__ explicit span_scope(const timeline_view& tl)
      : tl_(tl)
  {
    if (tl_.spans != nullptr && threadIdx.x == 0)
    {
      start_ = ptxw::checked::now_ns();
    }
  }
  __device__ ~span_scope()
  {
    if (tl_.spans != nullptr && threadIdx.x == 0)
    {
      const std::uint32_t i = atomicAdd(tl_.used, 1u);
      if (i < tl_.capacity)
      {
        std::uint32_t sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        tl_.spans[i] = task_span{sm, kind, start_, ptxw::checked::now_ns()};
      }
    }
  }
};

// The host's buffer: give view() to a build, then read its spans.
class timeline
{
  device_array<task_span> spans_;
  device_array<std::uint32_t> used_;
  std::uint32_t capacity_;

public:
  explicit timeline(std::uint32_t capacity)
      : capacity_(capacity)
  {
    spans_.reserve(capacity);
    used_.reserve(1);
  }
  timeline_view view()
  {
    PTXW_OCTREE_CHECK(cudaMemset(used_.get(), 0, sizeof(std::uint32_t)));
    return {spans_.get(), used_.get(), capacity_};
  }
  // The spans of the last build (all of them, or a failure if the buffer was too small).
  std::vector<task_span> read() const
  {
    const std::uint32_t used = used_.download(1)[0];
    if (used > capacity_)
    {
      throw std::runtime_error("octree timeline: " + std::to_string(used) + " spans, room for " +
                               std::to_string(capacity_));
    }
    return spans_.download(used);
  }
};

} // namespace octree
