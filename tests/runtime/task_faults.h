// The task pools' injected faults (ptxw::tasks::faults), one kind at a time: spurious CAS failures
// (p = 0.3), delayed publication, a stalled owner, pop's bottom store held until its fence, every
// task stolen, stalled thieves. The task-pool tests and the octree tests run launches under each.
// And the fault a user makes: a task lost by a block that ends its ticket without retire.
#pragma once

#include <ptxw/tasks.h>

#include <array>
#include <cstdint>
#include <utility>

namespace tasks_test {
inline constexpr std::uint32_t kCasFailures30 = static_cast<std::uint32_t>(0.3 * 4294967296.0); // p = 0.3

inline std::array<ptxw::tasks::faults, 6> fault_kinds()
{
  std::array<ptxw::tasks::faults, 6> f{};
  f[0].spurious_cas     = kCasFailures30;
  f[1].publish_delay_ns = 2000;
  f[2].owner_stall_ns   = 2000;
  f[3].late_store_ns    = 2000;
  f[4].steal_only       = 1;
  f[5].thief_stall_ns   = 2000;
  return f;
}

// The block that takes the task whose payload's id is `lost` ends its ticket without retire (a
// `continue`, R20); the others retire theirs without children.
template <class T, class Method>
__global__ void loses_a_task(ptxw::tasks::pool<T, Method> p, unsigned lost)
{
  __shared__ ptxw::tasks::worker_slot<T, Method> slot;
  auto w = p.join(slot);
  while (auto t = w.next())
  {
    if (t->id == lost)
    {
      continue; // R20: the ticket ends here, unretired
    }
    w.retire(std::move(t));
  }
}
} // namespace tasks_test
