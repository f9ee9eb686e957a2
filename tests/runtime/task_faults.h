// The task pools' injected faults (ptxw::tasks::faults), one kind at a time: spurious CAS failures
// (p = 0.3), delayed publication, a stalled owner, pop's bottom store held until its fence, every
// task stolen, stalled thieves. The task-pool tests and the octree tests run launches under each.
#pragma once

#include <ptxw/tasks.h>

#include <array>
#include <cstdint>

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
} // namespace tasks_test
