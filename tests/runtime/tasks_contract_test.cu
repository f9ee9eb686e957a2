// The task pool's contract as a user meets it writing from docs/task-queues.md alone, one test a
// clause, each on every method.
#include <ptxw/host/tasks.h>

#include "gpu.h"
#include "tasks_deques.h"
#include "tasks_tree.h"

#include <algorithm>
#include <string>
#include <vector>

namespace {
using tasks_test::node;
namespace tasks = ptxw::tasks;

template <class Method>
class TasksContract : public Gpu
{};
TYPED_TEST_SUITE(TasksContract, tasks_test::Methods);

// R22: prepare() made memory for 4 blocks (the deques: one each); a launch of that pool on 5 is
// refused on the host, as is a pool another pool_host prepared; on 4 it runs.
TYPED_TEST(TasksContract, R22PreparedPoolOnAnotherGridIsRefused)
{
  auto kernel = tasks_test::run_tree<TypeParam, tasks::default_keep>;
  tasks::pool_host<node, TypeParam> pool(16), other(16);
  const auto p = pool.prepare(4);
  try
  {
    pool.launch(p, tasks::blocks{5}, kernel, 64, 0, 0, nullptr, nullptr, 0u);
    FAIL() << "a pool prepared for 4 blocks was launched on 5";
  }
  catch (const std::runtime_error& e)
  {
    EXPECT_EQ(std::string(e.what()), "ptxw: R22 owner and thief: a prepared pool is launched on the grid prepare() "
                                     "made its memory for: 5 blocks asked, prepared for 4");
  }
  try
  {
    other.launch(p, tasks::blocks{4}, kernel, 64, 0, 0, nullptr, nullptr, 0u);
    FAIL() << "a pool another pool_host prepared was launched";
  }
  catch (const std::runtime_error& e)
  {
    EXPECT_EQ(std::string(e.what()).rfind("ptxw: R22 owner and thief: a prepared pool is launched by the pool_host", 0),
              0u)
      << e.what();
  }
  pool.launch(p, tasks::blocks{4}, kernel, 64, 0, 0, nullptr, nullptr, 0u); // no seeds: finished at once
  PTXW_LAUNCH_OK();
  EXPECT_EQ(pool.stats().tasks_run, 0u);
}

// R23: a pool of capacity 0 is refused where it is made.
TEST(TasksContractHost, R23CapacityZeroIsRefused)
{
  try
  {
    tasks::pool_host<node, tasks::stealing> pool(0);
    FAIL() << "a pool of capacity 0 was made";
  }
  catch (const std::runtime_error& e)
  {
    EXPECT_EQ(std::string(e.what()), "ptxw: R23 no overwrite: a task pool's capacity is 1 to 2^31 tasks, not 0");
  }
}

} // namespace
