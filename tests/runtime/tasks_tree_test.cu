// Every task-pool method on trees of tasks whose exact set is known (tasks_tree.h): each task runs
// exactly once, the pool finishes (next() empty only when no task is live), the statistics agree.
// Then the same under injected faults -- spurious CAS failures, delayed publication, an owner
// stalled between its bottom store and its fence, its bottom store held until the fence, every
// task stolen, thieves stalled before their CAS, tiny queues -- over 1000 small launches per
// method: 0 lost, 0 run twice.
#include <ptxw/tasks/host/pool_host.h>

#include "gpu.h"
#include "task_faults.h"
#include "tasks_deques.h"
#include "tasks_tree.h"

#include <cstdint>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

namespace {
using tasks_test::node;
namespace tasks = ptxw::tasks;

template <class Method>
class TasksTree : public Gpu
{
protected:
  // Runs the tree under `roots` to max_depth, `launches` times, and checks every run. Capacity:
  // of the shared queues and lists; a deque gets at most 256.
  template <unsigned Keep = tasks::default_keep>
  void run(const std::vector<node>& roots, unsigned max_depth, std::size_t capacity, int launches,
           const tasks::faults& f = {}, int grid = 0, int threads = 64)
  {
    tasks_test::tree_launch tree(roots, max_depth);
    ASSERT_NO_FATAL_FAILURE(tree.allocate());
    ptxw::checked::diagnostics diag;
    // A deque holds one block's tasks (depth-first: a few per level); a shared queue or list a level.
    tasks::pool_host<node, Method> pool(ptxw::tasks::is_stealing_v<Method> && capacity > 256 ? 256 : capacity);
    pool.attach(diag.device_sink());
    pool.seed(roots);
    for (int launch = 0; launch < launches; ++launch)
    {
      tasks::faults fl = f;
      fl.seed          = f.seed + 7919u * static_cast<unsigned>(launch);
      pool.inject(fl);
      ASSERT_NO_FATAL_FAILURE(tree.template launch<Keep>(pool, grid, threads));
      tasks_test::tree_tally t;
      ASSERT_NO_FATAL_FAILURE(tree.read(t));
      ASSERT_EQ(t.dropped, 0u) << "children neither pushed nor kept, launch " << launch;
      ASSERT_EQ(t.lost, 0u) << "tasks lost, launch " << launch << " of " << launches;
      ASSERT_EQ(t.twice, 0u) << "tasks run twice, launch " << launch << " of " << launches;
      const tasks::pool_stats s = pool.stats();
      ASSERT_EQ(s.tasks_run, tree.total()) << "launch " << launch;
      ASSERT_EQ(s.live, 0u);
      ASSERT_EQ(diag.count(), 0u) << (diag.read().empty() ? "" : ptxw::checked::describe(diag.read()[0]));
      // R23's report: only where a push was full; each full push asked for more than the capacity.
      const std::string report = pool.full_report();
      ASSERT_EQ(report.empty(), s.full == 0) << report;
      if (s.full != 0)
      {
        EXPECT_GT(s.wanted, f.capacity) << report; // where the test forces it; else more than 0
        EXPECT_EQ(report.rfind("ptxw: R23 no overwrite: " + std::to_string(s.full) + " pushes found their queue full", 0), 0u)
          << report;
      }
      if (launch == 0)
      {
        std::printf("  %llu tasks, %llu steals tried, %llu won, %llu failed CAS, %llu kept, %llu full, max "
                    "occupancy %llu\n",
                    s.tasks_run, s.steals_tried, s.steals_won, s.failed_cas, s.kept, s.full, s.max_occupancy);
      }
    }
  }
};

TYPED_TEST_SUITE(TasksTree, tasks_test::Methods);

// One root, a tree of 23987 tasks, the resident grid.
TYPED_TEST(TasksTree, OneRootEveryTaskOnce)
{
  this->run({{0, 0}}, 10, 1u << 16, 3);
}

// Many roots (64 copies of one) spread over the queues, and a grid of one block (no thieves: the pool still ends).
TYPED_TEST(TasksTree, ManyRootsAndOneBlock)
{
  this->run(std::vector<node>(64, node{0, 0}), 6, 1u << 16, 2); // each id 64 times
  this->run({{0, 0}}, 6, 4096, 2, {}, 1);
}

// Queues of capacity 2 (the least): most pushes are full, their children kept and run by the
// pushing block; R23's report names a capacity that would have held them.
TYPED_TEST(TasksTree, TinyQueuesKeepChildren)
{
  tasks::faults f{};
  f.capacity = 2;
  this->template run<32>({{0, 0}}, 6, 256, 3, f);
}

// >= 1000 fault-injected launches of small trees: spurious CAS failures (p = 0.3), delayed
// publication, stalled owners, pop's bottom store held until its fence, every task stolen, thieves
// stalled before their CAS, tiny queues -- 0 lost, 0 run twice.
TYPED_TEST(TasksTree, FaultInjectedLaunches)
{
  tasks::faults tiny{};
  tiny.capacity     = 2;
  tiny.spurious_cas = tasks_test::kCasFailures30;
  for (const tasks::faults& f : tasks_test::fault_kinds())
  {
    this->run({{0, 0}}, 5, 256, 200, f, 16);
  }
  this->template run<32>({{0, 0}}, 5, 256, 200, tiny, 16);
}
} // namespace

namespace {
// Every block first steals once from block 0's deque through a thief end, then runs the tree.
template <class Method>
__global__ void steal_first(tasks::pool<node, Method> p, unsigned* counts, unsigned* stolen, unsigned max_depth)
{
  __shared__ tasks::worker_slot<node, Method, 32> slot;
  auto w   = p.join(slot);
  auto run = [&](tasks::task<node>&& t) {
    // Keep = 32 holds a depth-first path of this tree: none is neither pushed nor kept (the counts say).
    tasks_test::run_task(w, std::move(t), counts, max_depth, [](const node&) {});
  };
  if (auto t = w.victim(0).steal())
  {
    if (threadIdx.x == 0)
    {
      atomicAdd(stolen, 1u);
    }
    run(static_cast<tasks::task<node>&&>(t));
  }
  while (auto t = w.next())
  {
    run(static_cast<tasks::task<node>&&>(t));
  }
}

class TasksHost : public Gpu
{};

// What only the deques have: thief ends, R23's report in tasks per block's deque; both kinds.
template <class Method>
class TasksDequeHost : public Gpu
{};
TYPED_TEST_SUITE(TasksDequeHost, tasks_test::Deques, tasks_test::deque_names);

// A thief end steals: the seeds of block 0's deque are taken by thief ends (and by block 0's
// own next()), each task still once.
TYPED_TEST(TasksDequeHost, ThiefEndSteals)
{
  const std::vector<node> roots(8, node{0, 0});
  const std::vector<unsigned> expected = tasks_test::expected_counts(roots, 4);
  DeviceBuffer<unsigned> counts, stolen;
  PTXW_CUDA_OK(counts.allocate_zeroed(expected.size()));
  PTXW_CUDA_OK(stolen.allocate_zeroed(1));
  ptxw::checked::diagnostics diag;
  tasks::pool_host<node, TypeParam> pool(64);
  pool.attach(diag.device_sink());
  pool.seed(roots);
  pool.launch(tasks::blocks{1}, steal_first<TypeParam>, 64, 0, 0, counts.get(), stolen.get(), 4u); // all 8 in deque 0
  PTXW_LAUNCH_OK();
  std::vector<unsigned> got, s;
  PTXW_CUDA_OK(counts.download(got));
  PTXW_CUDA_OK(stolen.download(s));
  EXPECT_EQ(got, expected);
  EXPECT_EQ(s[0], 1u) << "the one block stole one seed from its own deque";
  EXPECT_EQ(pool.stats().steals_won, 1u);
  EXPECT_EQ(diag.count(), 0u);
}

// R24: a grid over the resident count is refused on the host, with the resident count.
TEST_F(TasksHost, R24GridOverResidencyIsRefused)
{
  tasks::pool_host<node, tasks::stealing> pool(16);
  pool.seed(node{0, 0});
  auto kernel        = tasks_test::run_tree<tasks::stealing, tasks::default_keep>;
  const int resident = pool.resident_grid(kernel, 1024, 0);
  try
  {
    pool.launch(tasks::blocks{resident + 1}, kernel, 1024, 0, 0, nullptr, nullptr, 0u);
    FAIL() << "a grid over residency was launched";
  }
  catch (const std::runtime_error& e)
  {
    EXPECT_EQ(std::string(e.what()).rfind("ptxw: R24 resident workers:", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find(std::to_string(resident) + " resident"), std::string::npos) << e.what();
  }
}

// R23's report, whole: a deque of 2 and a root with 4 children (tasks_tree.h's rule), one block:
// the first two pushes fit, the next two are full and kept, asking for room for 3 and 4.
TYPED_TEST(TasksDequeHost, R23FullPushesReportTheCapacityThatWouldHaveHeldThem)
{
  ASSERT_EQ(tasks_test::children(0, 0, 1), 4u);
  tasks::pool_host<node, TypeParam> pool(2);
  DeviceBuffer<unsigned> counts, dropped;
  PTXW_CUDA_OK(counts.allocate_zeroed(8));
  PTXW_CUDA_OK(dropped.allocate_zeroed(1));
  pool.seed(node{0, 0});
  pool.launch(tasks::blocks{1}, tasks_test::run_tree<TypeParam, 32>, 64, 0, 0, counts.get(), dropped.get(), 1u);
  PTXW_LAUNCH_OK();
  const tasks::pool_stats s = pool.stats();
  EXPECT_EQ(s.tasks_run, 5u);
  EXPECT_EQ(s.full, 2u);
  EXPECT_EQ(s.wanted, 4u);
  EXPECT_EQ(pool.full_report(), "ptxw: R23 no overwrite: 2 pushes found their queue full (capacity 2 tasks per block's "
                                "deque; 2 of their children kept by their block); they asked for room for 4: a "
                                "capacity of 4 would have held them");
}

// R23: a one_word deque counts its occupancy mod 2^24, so a capacity above 2^23 is refused where
// the pool's memory is made, before anything is launched.
TEST_F(TasksHost, R23OneWordCapacityAbove2To23IsRefused)
{
  using method = tasks::stealing_deques<tasks::one_word>;
  tasks::pool_host<node, method> pool((1u << 23) + 1);
  pool.seed(node{0, 0});
  try
  {
    (void) pool.prepare(1);
    FAIL() << "a one_word deque of 2^24 tasks was made";
  }
  catch (const std::runtime_error& e)
  {
    EXPECT_EQ(std::string(e.what()), "ptxw: R23 no overwrite: this kind of deque holds at most 8388608 tasks, not 16777216");
  }
}

// static_list_graph: the rounds' graph on a non-default stream, on a grid over the resident count
// (nothing waits: R24 does not apply); then reset, seeded anew and relaunched with another output
// (the cached graph's parameters are set again), and on another grid (a graph of that shape).
TEST_F(TasksHost, GraphRoundsOnAStreamResetAndRelaunched)
{
  using method = tasks::static_list_graph;
  cudaStream_t stream;
  PTXW_CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  auto kernel = tasks_test::run_tree<method, tasks::default_keep>;
  tasks::pool_host<node, method> pool(1024);
  const int over = pool.resident_grid(kernel, 64, 0) + 7;
  const std::vector<node> first{{0, 0}}, second(3, node{1, 1});
  const std::vector<unsigned> expect_first = tasks_test::expected_counts(first, 6),
                              expect_second = tasks_test::expected_counts(second, 6);
  DeviceBuffer<unsigned> a, b, dropped;
  PTXW_CUDA_OK(a.allocate_zeroed(expect_first.size()));
  PTXW_CUDA_OK(b.allocate_zeroed(expect_second.size()));
  PTXW_CUDA_OK(dropped.allocate_zeroed(1));
  PTXW_CUDA_OK(cudaDeviceSynchronize());
  std::vector<unsigned> got;
  auto run_tasks = [](const std::vector<unsigned>& e) { return std::accumulate(e.begin(), e.end(), 0ull); };

  pool.seed(first);
  pool.launch(tasks::blocks{over}, kernel, 64, 0, stream, a.get(), dropped.get(), 6u);
  PTXW_CUDA_OK(cudaStreamSynchronize(stream));
  PTXW_CUDA_OK(a.download(got));
  EXPECT_EQ(got, expect_first);
  EXPECT_EQ(pool.stats().tasks_run, run_tasks(expect_first));
  EXPECT_EQ(pool.stats().live, 0u);

  pool.reset();
  pool.seed(second);
  pool.launch(tasks::blocks{over}, kernel, 64, 0, stream, b.get(), dropped.get(), 6u);
  PTXW_CUDA_OK(cudaStreamSynchronize(stream));
  PTXW_CUDA_OK(b.download(got));
  EXPECT_EQ(got, expect_second) << "the relaunch ran the new seeds into the new output";
  PTXW_CUDA_OK(a.download(got));
  EXPECT_EQ(got, expect_first) << "the relaunch wrote into the first launch's output";
  EXPECT_EQ(pool.stats().tasks_run, run_tasks(expect_second));

  pool.launch(tasks::blocks{2}, kernel, 64, 0, stream, b.get(), dropped.get(), 6u);
  PTXW_CUDA_OK(cudaStreamSynchronize(stream));
  PTXW_CUDA_OK(b.download(got));
  for (std::size_t id = 0; id < got.size(); ++id)
  {
    ASSERT_EQ(got[id], 2 * expect_second[id]) << "id " << id;
  }
  std::vector<unsigned> drops;
  PTXW_CUDA_OK(dropped.download(drops));
  EXPECT_EQ(drops[0], 0u);
  PTXW_CUDA_OK(cudaStreamDestroy(stream));
}

// R23: seeds beyond the capacity are refused at the launch that would place them.
TEST_F(TasksHost, R23SeedsBeyondTheCapacityAreRefused)
{
  tasks::pool_host<node, tasks::lockfree_queue<tasks::ticket_ring>> pool(4);
  pool.seed(std::vector<node>(5, node{0, 0}));
  auto kernel = tasks_test::run_tree<tasks::lockfree_queue<tasks::ticket_ring>, tasks::default_keep>;
  EXPECT_THROW(
    {
      try
      {
        pool.launch(tasks::blocks{1}, kernel, 64, 0, 0, nullptr, nullptr, 0u);
      }
      catch (const std::runtime_error& e)
      {
        EXPECT_EQ(std::string(e.what()).rfind("ptxw: R23 no overwrite: 5 seeds do not fit", 0), 0u) << e.what();
        throw;
      }
    },
    std::runtime_error);
}
} // namespace
