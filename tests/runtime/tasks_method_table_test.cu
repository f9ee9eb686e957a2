// The method table (ptxw/tasks/method_table.h): a task-pool method added by this file alone -- its
// tag, its protocol (a detail::tasks::backend<> specialisation built from the locked queue's steps,
// tasks/locked_queue.h) and one PTXW_TASK_METHOD row -- runs through every path: pool_host's memory
// and seeding (the one_queue layout its row names), its cooperative launch and R24's refusal of a
// grid over residency, join/next/fork/retire on the tree of tasks whose exact set is known
// (tasks_tree.h: each task once, the pool finished), keep() behind full pushes and R23's report in
// the row's capacity unit, and checked mode's exact-once marks (no report on a correct run; a task
// taken twice is reported, R20). It is a stack under a lock: the newest task is taken first, so a
// launch of one block shows that its take ran.
#include <ptxw/tasks/host/pool_host.h>
#include <ptxw/tasks/locked_queue.h>

#include "gpu.h"
#include "tasks_tree.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace table_test {
struct locked_stack
{};
} // namespace table_test

PTXW_NAMESPACE_BEGIN
namespace detail::tasks {
// One array of `capacity` entries under a spin lock, built from the locked queue's steps
// (tasks/locked_queue.h): queue_ends::tail is the top (the host's seeding puts seed i in slot i and
// the top at the seeds' number), head stays 0. Its push is theirs, at the top; its take works at the
// top too, where the queue's works at the head.
template <class T>
struct backend<T, ::table_test::locked_stack> : locked_steps<T, ::table_test::locked_stack>
{
  using pool_t = ::ptxw::tasks::pool<T, ::table_test::locked_stack>;
  using steps  = locked_steps<T, ::table_test::locked_stack>;
  using local  = typename steps::local;
  using cell   = entry<T>;
  using memory = shared_queue_memory<cell>;
  using fill   = entry_fill; // position i: seed i (the layout's default slots: position i in slot i)

  __device__ static taken take(const pool_t& p, local&, entry<T>& out, ::ptxw::tasks::counters& c)
  {
    return steps::template take_at<take_end::tail>(p, out, c);
  }
};

//               tag                         memory     capacity unit          launch       stealing
PTXW_TASK_METHOD(::table_test::locked_stack, one_queue, "tasks on the stack", cooperative, false);
} // namespace detail::tasks
PTXW_NAMESPACE_END

namespace {
namespace tasks = ptxw::tasks;
using table_test::locked_stack;
using tasks_test::node;

// What the row says, as the public traits and the device side read it; and the library's rows.
static_assert(ptxw::detail::tasks::has_row<locked_stack>);
static_assert(!tasks::is_stealing_v<locked_stack> && !tasks::ends_each_round_v<locked_stack>);
static_assert(tasks::is_stealing_v<tasks::stealing> && tasks::is_stealing_v<tasks::stealing_deques<tasks::one_word>>);
static_assert(!tasks::is_stealing_v<tasks::locked_queue> && !tasks::is_stealing_v<tasks::static_list>);
static_assert(tasks::ends_each_round_v<tasks::static_list_graph> && !tasks::ends_each_round_v<tasks::static_list>);
static_assert(!tasks::is_stealing_v<int> && !tasks::ends_each_round_v<int>, "a type without a row: false");

// Each task's id, in the order the block ran them.
__global__ void records_order(tasks::pool<node, locked_stack> p, unsigned* order, unsigned* ran)
{
  __shared__ tasks::worker_slot<node, locked_stack> slot;
  auto w = p.join(slot);
  while (auto t = w.next())
  {
    if (threadIdx.x == 0)
    {
      order[atomicAdd(ran, 1u)] = t->id;
    }
    w.retire(std::move(t));
  }
}

// R20 (taken twice): the leader takes the newest task by the protocol's own take, then a second
// taker marks the same entry.
__global__ void takes_twice(tasks::pool<node, locked_stack> p, const ptxw::checked::sink* sink, unsigned* got)
{
  using backend = ptxw::detail::tasks::backend<node, locked_stack>;
  if (threadIdx.x != 0)
  {
    return;
  }
  typename backend::local l{};
  backend::open(p, l);
  tasks::counters c{};
  ptxw::detail::tasks::entry<node> e;
  *got = backend::take(p, l, e, c) == ptxw::detail::tasks::taken::got ? e.value.id : ~0u;
  ptxw::detail::tasks::mark_taken(backend::at(p, 3), sink); // the second taker of position 3
}

class TasksMethodTable : public Gpu
{
protected:
  // The tree under `roots` to max_depth on `grid` blocks (0: the resident grid): every task once,
  // the pool finished, no report.
  void run_tree(const std::vector<node>& roots, unsigned max_depth, std::size_t capacity, const tasks::faults& f,
                int grid, tasks::pool_stats& s, std::string& report)
  {
    tasks_test::tree_launch tree(roots, max_depth);
    ASSERT_NO_FATAL_FAILURE(tree.allocate());
    ptxw::checked::diagnostics diag;
    tasks::pool_host<node, locked_stack> pool(capacity);
    pool.attach(diag.device_sink());
    pool.inject(f);
    pool.seed(roots);
    ASSERT_NO_FATAL_FAILURE(tree.launch<32>(pool, grid, 64));
    tasks_test::tree_tally t;
    ASSERT_NO_FATAL_FAILURE(tree.read(t));
    EXPECT_EQ(t.dropped, 0u) << "children neither pushed nor kept";
    EXPECT_EQ(t.lost, 0u) << "tasks lost";
    EXPECT_EQ(t.twice, 0u) << "tasks run twice";
    s = pool.stats();
    EXPECT_EQ(s.tasks_run, tree.total());
    EXPECT_EQ(s.live, 0u);
    EXPECT_EQ(diag.count(), 0u) << (diag.read().empty() ? "" : ptxw::checked::describe(diag.read()[0]));
    report = pool.full_report();
  }
};

// One root, a tree of 23987 tasks, on the resident grid; then many roots on one block.
TEST_F(TasksMethodTable, AddedMethodRunsEveryTaskOnce)
{
  tasks::pool_stats s{};
  std::string report;
  ASSERT_NO_FATAL_FAILURE(run_tree({{0, 0}}, 10, 1u << 16, {}, 0, s, report));
  EXPECT_EQ(s.full, 0u);
  EXPECT_TRUE(report.empty()) << report;
  ASSERT_NO_FATAL_FAILURE(run_tree(std::vector<node>(64, node{0, 0}), 6, 1u << 16, {}, 1, s, report));
}

// A stack of 2 (the capacity fault): most pushes are full, their children kept by the pushing
// block, and R23's report counts the capacity in the row's unit.
TEST_F(TasksMethodTable, AddedMethodFullPushesAreKeptAndReportedInItsUnit)
{
  tasks::faults f{};
  f.capacity = 2;
  tasks::pool_stats s{};
  std::string report;
  ASSERT_NO_FATAL_FAILURE(run_tree({{0, 0}}, 6, 256, f, 16, s, report));
  ASSERT_GT(s.full, 0u);
  EXPECT_GT(s.kept, 0u);
  EXPECT_EQ(report.rfind("ptxw: R23 no overwrite: " + std::to_string(s.full) + " pushes found their queue full "
                         "(capacity 2 tasks on the stack;", 0),
            0u)
    << report;
}

// The added protocol is the one that runs: one block takes 16 seeds newest first.
TEST_F(TasksMethodTable, AddedMethodsProtocolRuns)
{
  constexpr unsigned n = 16;
  DeviceBuffer<unsigned> order, ran;
  PTXW_CUDA_OK(order.allocate_zeroed(n));
  PTXW_CUDA_OK(ran.allocate_zeroed(1));
  ptxw::checked::diagnostics diag;
  tasks::pool_host<node, locked_stack> pool(n);
  pool.attach(diag.device_sink());
  for (unsigned i = 0; i < n; ++i)
  {
    pool.seed(node{i, 0});
  }
  pool.launch(tasks::blocks{1}, records_order, 64, 0, 0, order.get(), ran.get());
  PTXW_LAUNCH_OK();
  std::vector<unsigned> got;
  PTXW_CUDA_OK(order.download(got));
  std::vector<unsigned> newest_first(n);
  for (unsigned i = 0; i < n; ++i)
  {
    newest_first[i] = n - 1 - i;
  }
  EXPECT_EQ(got, newest_first) << "the added method's order (newest first) did not show";
  EXPECT_EQ(pool.stats().tasks_run, n);
  EXPECT_EQ(diag.count(), 0u);
}

// R24, as the row's launch column says (cooperative): a grid over the resident count is refused.
TEST_F(TasksMethodTable, R24AddedMethodsGridOverResidencyIsRefused)
{
  tasks::pool_host<node, locked_stack> pool(16);
  pool.seed(node{0, 0});
  const int resident = pool.resident_grid(records_order, 1024, 0);
  try
  {
    pool.launch(tasks::blocks{resident + 1}, records_order, 1024, 0, 0, nullptr, nullptr);
    FAIL() << "a grid over residency was launched";
  }
  catch (const std::runtime_error& e)
  {
    EXPECT_EQ(std::string(e.what()).rfind("ptxw: R24 resident workers:", 0), 0u) << e.what();
  }
}

// R20: checked mode's taken mark catches a second taker of the added method's entry.
TEST_F(TasksMethodTable, R20AddedMethodsTaskTakenTwiceIsReported)
{
  PTXW_SKIP_UNLESS_CHECKED();
  ptxw::checked::diagnostics diag;
  tasks::pool_host<node, locked_stack> pool(16);
  pool.attach(diag.device_sink());
  for (unsigned i = 0; i < 4; ++i)
  {
    pool.seed(node{i, 0});
  }
  const tasks::pool<node, locked_stack> p = pool.prepare(1);
  DeviceBuffer<unsigned> got;
  PTXW_CUDA_OK(got.allocate_zeroed(1));
  takes_twice<<<1, 32>>>(p, diag.device_sink(), got.get());
  PTXW_LAUNCH_OK();
  std::vector<unsigned> g;
  PTXW_CUDA_OK(got.download(g));
  EXPECT_EQ(g[0], 3u) << "the stack's take is the newest seed's";
  const auto all = diag.read();
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].rule, static_cast<unsigned>(ptxw::rule::exactly_once)) << ptxw::checked::describe(all[0]);
}
} // namespace
