// Every task-pool method on trees of tasks whose exact set is known (tasks_tree.h): each task runs
// exactly once, the pool finishes (next() empty only when no task is live), the statistics agree.
// Then the same under injected faults -- spurious CAS failures, delayed publication, an owner
// stalled between its bottom store and its fence, every task stolen, tiny queues -- over 1000
// small launches per method: 0 lost, 0 run twice.
#include <ptxw/host/tasks.h>

#include "gpu.h"
#include "tasks_tree.h"

#include <cstdint>
#include <string>
#include <vector>

namespace {
using tasks_test::node;
namespace tasks = ptxw::tasks;

template <class Method>
class TasksTree : public Gpu
{
protected:
  // Runs the tree under `roots` to max_depth, `launches` times, and checks every run.
  template <unsigned Keep = tasks::default_keep>
  void run(const std::vector<node>& roots, unsigned max_depth, std::size_t capacity, int launches,
           const tasks::faults& f = {}, int grid = 0, int threads = 64)
  {
    const std::vector<unsigned> expected = tasks_test::expected_counts(roots, max_depth);
    unsigned long long total = 0;
    for (unsigned c : expected)
    {
      total += c;
    }
    DeviceBuffer<unsigned> counts, dropped;
    PTXW_CUDA_OK(counts.allocate_zeroed(expected.size()));
    PTXW_CUDA_OK(dropped.allocate_zeroed(1));
    ptxw::checked::diagnostics diag;
    tasks::pool_host<node, Method> pool(capacity);
    pool.attach(diag.device_sink());
    pool.seed(roots);
    for (int launch = 0; launch < launches; ++launch)
    {
      tasks::faults fl = f;
      fl.seed          = f.seed + 7919u * static_cast<unsigned>(launch);
      pool.inject(fl);
      PTXW_CUDA_OK(counts.fill_bytes(0));
      auto kernel = tasks_test::run_tree<Method, Keep>;
      if (grid == 0)
      {
        pool.launch(kernel, threads, 0, 0, counts.get(), dropped.get(), max_depth);
      }
      else
      {
        pool.launch(tasks::blocks{grid}, kernel, threads, 0, 0, counts.get(), dropped.get(), max_depth);
      }
      PTXW_LAUNCH_OK();
      std::vector<unsigned> got, drops;
      PTXW_CUDA_OK(counts.download(got));
      PTXW_CUDA_OK(dropped.download(drops));
      ASSERT_EQ(drops[0], 0u) << "children neither pushed nor kept, launch " << launch;
      std::size_t lost = 0, twice = 0;
      for (std::size_t id = 0; id < got.size(); ++id)
      {
        lost += got[id] < expected[id];
        twice += got[id] > expected[id];
      }
      ASSERT_EQ(lost, 0u) << "tasks lost, launch " << launch << " of " << launches;
      ASSERT_EQ(twice, 0u) << "tasks run twice, launch " << launch << " of " << launches;
      const tasks::pool_stats s = pool.stats();
      ASSERT_EQ(s.tasks_run, total) << "launch " << launch;
      ASSERT_EQ(s.live, 0u);
      ASSERT_EQ(diag.count(), 0u) << (diag.read().empty() ? "" : ptxw::checked::describe(diag.read()[0]));
      if (launch == 0)
      {
        std::printf("  %llu tasks, %llu steals tried, %llu won, %llu failed CAS, %llu kept, %llu full, max "
                    "occupancy %llu\n",
                    s.tasks_run, s.steals_tried, s.steals_won, s.failed_cas, s.kept, s.full, s.max_occupancy);
      }
    }
  }
};

using Methods = ::testing::Types<tasks::stealing>;
TYPED_TEST_SUITE(TasksTree, Methods);

// One root, a tree of about 10^4 tasks, the resident grid.
TYPED_TEST(TasksTree, OneRootEveryTaskOnce)
{
  this->run({{0, 0}}, 8, 256, 3);
}

// Many roots (64 copies of one) spread over the queues, and a grid of one block (no thieves: the pool still ends).
TYPED_TEST(TasksTree, ManyRootsAndOneBlock)
{
  this->run(std::vector<node>(64, node{0, 0}), 6, 4096, 2); // each id 64 times
  this->run({{0, 0}}, 6, 4096, 2, {}, 1);
}

// Queues of capacity 1: most pushes are full, their children kept and run by the pushing block.
TYPED_TEST(TasksTree, TinyQueuesKeepChildren)
{
  tasks::faults f{};
  f.capacity = 1;
  this->template run<32>({{0, 0}}, 6, 256, 3, f);
}

// >= 1000 fault-injected launches of small trees: spurious CAS failures (p = 0.3), delayed
// publication, stalled owners, every task stolen, tiny queues -- 0 lost, 0 run twice.
TYPED_TEST(TasksTree, FaultInjectedLaunches)
{
  const std::uint32_t p30 = static_cast<std::uint32_t>(0.3 * 4294967296.0);
  tasks::faults cas{}, delay{}, stall{}, steal{}, tiny{};
  cas.spurious_cas       = p30;
  delay.publish_delay_ns = 2000;
  stall.owner_stall_ns   = 2000;
  steal.steal_only       = 1;
  tiny.capacity          = 2;
  tiny.spurious_cas      = p30;
  for (const tasks::faults& f : {cas, delay, stall, steal})
  {
    this->run({{0, 0}}, 5, 64, 200, f, 16);
  }
  this->template run<32>({{0, 0}}, 5, 64, 200, tiny, 16);
}
} // namespace
