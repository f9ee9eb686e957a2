// ptxw/tasks/task.h: what a block holds of a task -- the move-only ticket next() hands out (R20),
// and the result of a push (R23).
#pragma once

#include <ptxw/tasks/checks.h>

PTXW_NAMESPACE_BEGIN
namespace tasks {
// A push's result. A full queue is never overwritten: the child was not pushed, and the caller
// decides (forked::keep runs it in this block). Discarding it does not compile (`-Werror` builds;
// a warning otherwise).
enum class [[nodiscard(PTXW_RULE(R23) "a push's result says whether the child was pushed; a full queue is "
                                      "never overwritten: look at it (e.g. keep() the child when full)")]] push_result
  : unsigned
{
  pushed,
  full
};

// One task, as every thread of the block holds it: the value (a copy, the same in every thread),
// or none -- the pool is finished. Move-only; it ends in owner_end::retire, exactly once (R20).
// Checked mode reports a ticket that ends otherwise (a lost task) with the task's id.
template <class T>
class task : checked::carried_sink
{
  T value_{};
  unsigned long long id_ = 0;
  bool present_          = false;

  template <class U, class M, unsigned K>
  friend class owner_end;
  __device__ explicit task(const checked::sink* sink)
      : carried_sink(sink)
  {}

public:
  __device__ task(task&& other) noexcept
      : carried_sink(other)
      , value_(other.value_)
      , id_(other.id_)
      , present_(other.present_)
  {
    other.present_ = false;
  }
  PTXW_REFUSED(PTXW_RULE(R20) "a task's ticket is not copied (a copy would be a second way to end one task): "
               "move it, std::move(t), into owner_end::retire")
  task(const task&);
  PTXW_REFUSED(PTXW_RULE(R20) "a task's ticket is not assigned (the ticket it replaced would be lost): end "
               "each ticket in owner_end::retire")
  task& operator=(const task&);
  __device__ ~task()
  {
    detail::tasks::lost_ticket(present_, id_, carried());
  }

  __device__ explicit operator bool() const noexcept
  {
    return present_;
  }
  __device__ const T& operator*() const noexcept
  {
    return value_;
  }
  __device__ const T* operator->() const noexcept
  {
    return &value_;
  }
  // Checked builds: the task's id (seeds 0..n-1, then in push order); 0 otherwise. ~0: a kept child.
  __device__ unsigned long long id() const noexcept
  {
    return id_;
  }
};
} // namespace tasks
PTXW_NAMESPACE_END
