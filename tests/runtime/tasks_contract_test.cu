// The task pool's contract as a user meets it writing from docs/task-queues.md alone, one test a
// clause, each on every method.
#include <ptxw/tasks/host/pool_host.h>

#include "gpu.h"
#include "task_faults.h"
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

// The root forks 3 and pushes 4 children (one thread, in turn) into queues of 2: two pushed, two
// full and kept. A full push leaves its reservation: the fourth push is no push beyond the
// reservation (R21 reports none), and remaining() is 3 less the pushed children after each.
template <class Method>
__global__ void full_leaves_reservation(tasks::pool<node, Method> p, unsigned* counts, unsigned* left,
                                        unsigned* dropped)
{
  __shared__ tasks::worker_slot<node, Method, 4> slot;
  auto w = p.join(slot);
  while (auto t = w.next())
  {
    tasks_test::count_and_fork(w, std::move(t), 3, counts, [&](const node& n, auto& kids) {
      for (unsigned j = 0; threadIdx.x == 0 && n.depth == 0 && j < 4; ++j)
      {
        const node c{j + 1, 1};
        if (kids.push(c) == tasks::push_result::full && kids.keep(c) == tasks::push_result::full)
        {
          atomicAdd(dropped, 1u);
        }
        left[j] = kids.remaining();
      }
    });
  }
}

TYPED_TEST(TasksContract, FullPushLeavesItsReservation)
{
  DeviceBuffer<unsigned> counts, left, dropped;
  PTXW_CUDA_OK(counts.allocate_zeroed(5));
  PTXW_CUDA_OK(left.allocate_zeroed(4));
  PTXW_CUDA_OK(dropped.allocate_zeroed(1));
  ptxw::checked::diagnostics diag;
  tasks::pool_host<node, TypeParam> pool(2);
  pool.attach(diag.device_sink());
  pool.seed(node{0, 0});
  pool.launch(tasks::blocks{1}, full_leaves_reservation<TypeParam>, 64, 0, 0, counts.get(), left.get(), dropped.get());
  PTXW_LAUNCH_OK();
  std::vector<unsigned> got, l, d;
  PTXW_CUDA_OK(counts.download(got));
  PTXW_CUDA_OK(left.download(l));
  PTXW_CUDA_OK(dropped.download(d));
  EXPECT_EQ(got, std::vector<unsigned>(5, 1u));
  EXPECT_EQ(l, (std::vector<unsigned>{2, 1, 1, 1}));
  EXPECT_EQ(d[0], 0u);
  const tasks::pool_stats s = pool.stats();
  EXPECT_EQ(s.full, 2u);
  EXPECT_EQ(s.kept, 2u);
  EXPECT_EQ(diag.count(), 0u) << (diag.read().empty() ? "" : ptxw::checked::describe(diag.read()[0]));
}

// Sizing: the resident grid, from the kernel alone, before any pool_host is made; a capacity that
// depends on it; the pool made with it launches on that grid.
TYPED_TEST(TasksContract, ResidentGridBeforeThePool)
{
  auto kernel = tasks_test::run_tree<TypeParam, tasks::default_keep>;
  const int grid = tasks::pool_host<node, TypeParam>::resident_grid(kernel, 64, 0);
  ASSERT_GT(grid, 0);
  tasks::pool_host<node, TypeParam> pool(tasks::is_stealing_v<TypeParam> ? 64 : 64 * std::size_t(grid));
  EXPECT_EQ(pool.resident_grid(kernel, 64, 0), grid);
  const std::vector<unsigned> expected = tasks_test::expected_counts({{0, 0}}, 4);
  DeviceBuffer<unsigned> counts, dropped;
  PTXW_CUDA_OK(counts.allocate_zeroed(expected.size()));
  PTXW_CUDA_OK(dropped.allocate_zeroed(1));
  pool.seed(node{0, 0});
  pool.launch(tasks::blocks{grid}, kernel, 64, 0, 0, counts.get(), dropped.get(), 4u);
  PTXW_LAUNCH_OK();
  std::vector<unsigned> got;
  PTXW_CUDA_OK(counts.download(got));
  EXPECT_EQ(got, expected);
}

// Each block's worker index, in every thread: 0 .. workers() - 1, each once, the same for the
// launch (read before the loop and after it).
template <class Method>
__global__ void worker_index(tasks::pool<node, Method> p, unsigned* seen, unsigned* bad)
{
  __shared__ tasks::worker_slot<node, Method> slot;
  auto w                       = p.join(slot);
  const unsigned before        = w.worker();
  while (auto t = w.next())
  {
    w.retire(std::move(t));
  }
  if (w.worker() != before || w.workers() != gridDim.x || before != blockIdx.x)
  {
    atomicAdd(bad, 1u);
  }
  if (threadIdx.x == 0 && before < w.workers())
  {
    atomicAdd(&seen[before], 1u);
  }
}

TYPED_TEST(TasksContract, WorkerIndex)
{
  constexpr int kGrid = 5;
  DeviceBuffer<unsigned> seen, bad;
  PTXW_CUDA_OK(seen.allocate_zeroed(kGrid));
  PTXW_CUDA_OK(bad.allocate_zeroed(1));
  tasks::pool_host<node, TypeParam> pool(16);
  pool.seed(std::vector<node>(8, node{0, 0}));
  pool.launch(tasks::blocks{kGrid}, worker_index<TypeParam>, 64, 0, 0, seen.get(), bad.get());
  PTXW_LAUNCH_OK();
  std::vector<unsigned> s, b;
  PTXW_CUDA_OK(seen.download(s));
  PTXW_CUDA_OK(bad.download(b));
  EXPECT_EQ(s, std::vector<unsigned>(kGrid, 1u));
  EXPECT_EQ(b[0], 0u);
  EXPECT_EQ(pool.stats().tasks_run, 8u);
}

// Code after the next() loop: once per block and launch, except where the method says next() is
// empty at the end of every round (static_list_graph: once per block and round).
template <class Method>
__global__ void after_the_loop(tasks::pool<node, Method> p, unsigned* counts, unsigned* after, unsigned max_depth)
{
  __shared__ tasks::worker_slot<node, Method, 32> slot;
  auto w = p.join(slot);
  while (auto t = w.next())
  {
    tasks_test::run_task(w, std::move(t), counts, max_depth, [&](const node&) { atomicAdd(after, 1u << 16); });
  }
  if (threadIdx.x == 0)
  {
    atomicAdd(after, 1u);
  }
}

static_assert(tasks::ends_each_round_v<tasks::static_list_graph> && !tasks::ends_each_round_v<tasks::static_list>
              && !tasks::ends_each_round_v<tasks::stealing>);

TYPED_TEST(TasksContract, EmptyOncePerLaunchOrPerRound)
{
  constexpr int kGrid         = 4;
  constexpr unsigned kDepth   = 3;
  const std::vector<unsigned> expected = tasks_test::expected_counts({{0, 0}}, kDepth);
  DeviceBuffer<unsigned> counts, after;
  PTXW_CUDA_OK(counts.allocate_zeroed(expected.size()));
  PTXW_CUDA_OK(after.allocate_zeroed(1));
  tasks::pool_host<node, TypeParam> pool(256);
  pool.seed(node{0, 0});
  pool.launch(tasks::blocks{kGrid}, after_the_loop<TypeParam>, 64, 0, 0, counts.get(), after.get(), kDepth);
  PTXW_LAUNCH_OK();
  std::vector<unsigned> got, a;
  PTXW_CUDA_OK(counts.download(got));
  PTXW_CUDA_OK(after.download(a));
  EXPECT_EQ(got, expected);
  const unsigned rounds = tasks::ends_each_round_v<TypeParam> ? kDepth + 1 : 1u; // a level a round
  EXPECT_EQ(a[0], kGrid * rounds) << "(a child neither pushed nor kept adds 2^16)";
}

// The docs' pattern: push; if full, keep; if the slot is full too, spill the child where the host
// reads it and seeds it into the next launch -- full, never lost.
template <class Method>
__global__ void lossless(tasks::pool<node, Method> p, unsigned* counts, node* spill, unsigned* spilled,
                         unsigned max_depth)
{
  __shared__ tasks::worker_slot<node, Method, 1> slot;
  auto w = p.join(slot);
  while (auto t = w.next())
  {
    tasks_test::run_task(w, std::move(t), counts, max_depth, [&](const node& c) { spill[atomicAdd(spilled, 1u)] = c; });
  }
}

// A tree of 606 tasks through queues of 8 and a slot that keeps 1, on one block: the first launch
// spills (the queues and the slot overflow), the host seeds the spilled children, at most a
// capacity at a time, into launches until none spills; every task runs exactly once.
TYPED_TEST(TasksContract, OverflowingTreeIsFullNeverLost)
{
  constexpr unsigned kDepth = 6;
  constexpr std::size_t kCapacity = 8;
  const std::vector<unsigned> expected = tasks_test::expected_counts({{0, 0}}, kDepth);
  DeviceBuffer<unsigned> counts, spilled;
  DeviceBuffer<node> spill;
  PTXW_CUDA_OK(counts.allocate_zeroed(expected.size()));
  PTXW_CUDA_OK(spilled.allocate_zeroed(1));
  PTXW_CUDA_OK(spill.allocate(expected.size()));
  ptxw::checked::diagnostics diag;
  tasks::pool_host<node, TypeParam> pool(kCapacity);
  pool.attach(diag.device_sink());
  std::vector<node> pending{{0, 0}};
  unsigned long long run = 0;
  int launches = 0;
  for (; !pending.empty() && launches < 1000; ++launches)
  {
    const std::size_t n = std::min(pending.size(), kCapacity);
    pool.reset();
    pool.seed(std::vector<node>(pending.end() - n, pending.end()));
    pending.resize(pending.size() - n);
    PTXW_CUDA_OK(spilled.fill_bytes(0));
    pool.launch(tasks::blocks{1}, lossless<TypeParam>, 64, 0, 0, counts.get(), spill.get(), spilled.get(), kDepth);
    PTXW_LAUNCH_OK();
    run += pool.stats().tasks_run;
    std::vector<unsigned> k;
    std::vector<node> s;
    PTXW_CUDA_OK(spilled.download(k));
    PTXW_CUDA_OK(spill.download(s));
    if (launches == 0)
    {
      EXPECT_GT(k[0], 0u) << "the tree did not overflow: the test shows nothing";
    }
    pending.insert(pending.end(), s.begin(), s.begin() + k[0]);
  }
  EXPECT_TRUE(pending.empty()) << launches << " launches";
  std::vector<unsigned> got;
  PTXW_CUDA_OK(counts.download(got));
  EXPECT_EQ(got, expected);
  EXPECT_EQ(run, static_cast<unsigned long long>(std::count(expected.begin(), expected.end(), 1u)));
  EXPECT_EQ(diag.count(), 0u) << (diag.read().empty() ? "" : ptxw::checked::describe(diag.read()[0]));
}

// R25, block-wide: every thread writes its part of what the task's children read, then the block
// forks, and one thread that is not the leader pushes; each child's block reads every part (each
// thread another thread's) -- written before the fork, so visible to the child on every method.
constexpr unsigned kParts = 64;

// Every thread of a child's block: one part of its parent's (another thread's), counted in `bad`
// where it is not the value the parent wrote.
__device__ inline void check_parent_part(const node& n, const unsigned* parts, unsigned* bad)
{
  if (n.id != 0)
  {
    const unsigned parent = (n.id - 1) / 2, part = (threadIdx.x + 17) % kParts;
    if (parts[parent * kParts + part] != parent * 1000u + part + 1)
    {
      atomicAdd(bad, 1u);
    }
  }
}

template <class Method>
__global__ void written_before_fork(tasks::pool<node, Method> p, unsigned* parts, unsigned* bad, unsigned max_depth)
{
  __shared__ tasks::worker_slot<node, Method> slot;
  auto w = p.join(slot);
  while (auto t = w.next())
  {
    const node n = *t;
    check_parent_part(n, parts, bad);
    parts[n.id * kParts + threadIdx.x] = n.id * 1000u + threadIdx.x + 1;
    auto kids = w.fork(t, 2);
    if (threadIdx.x == kParts - 1 && n.depth < max_depth)
    {
      for (unsigned j = 1; j <= 2; ++j)
      {
        if (kids.push(node{2 * n.id + j, n.depth + 1}) == tasks::push_result::full)
        {
          (void) kids.keep(node{2 * n.id + j, n.depth + 1}); // 512 holds a level of this tree
        }
      }
    }
    w.retire(std::move(t), std::move(kids));
  }
}

// `launches` launches of a parts kernel (pool, parts, bad, max_depth) on the binary tree of depth
// `depth` through a queue of 512 (a level of it): every task once each time; `unseen` is how many
// parts the children read before they were visible.
template <class Method, class Kernel>
void run_parts_tree(Kernel kernel, unsigned depth, int launches, unsigned& unseen)
{
  DeviceBuffer<unsigned> parts, bad;
  PTXW_CUDA_OK(parts.allocate(std::size_t(1u << (depth + 1)) * kParts));
  PTXW_CUDA_OK(bad.allocate_zeroed(1));
  tasks::pool_host<node, Method> pool(512);
  pool.seed(node{0, 0});
  for (int launch = 0; launch < launches; ++launch)
  {
    PTXW_CUDA_OK(parts.fill_bytes(0));
    pool.launch(kernel, kParts, 0, 0, parts.get(), bad.get(), depth);
    PTXW_LAUNCH_OK();
    ASSERT_EQ(pool.stats().tasks_run, (1u << (depth + 1)) - 1) << "launch " << launch;
  }
  std::vector<unsigned> b;
  PTXW_CUDA_OK(bad.download(b));
  unseen = b[0];
}

TYPED_TEST(TasksContract, WrittenBeforeForkIsVisibleToTheChildren)
{
  unsigned unseen = 0;
  ASSERT_NO_FATAL_FAILURE(run_parts_tree<TypeParam>(written_before_fork<TypeParam>, 9, 10, unseen)); // 1023 tasks
  EXPECT_EQ(unseen, 0u) << "children read parts of their parent's data not yet visible";
}

// R25 for what the block writes after the fork: every thread writes its part of what the children
// read, the second warp late (after a sleep longer than a take by an idle block), and two threads
// that are not the leader push with push_synced, in the first warp. Each child's block reads every
// part: the barrier in push_synced makes them visible on every method (the shared queues' children
// start at their push: without it they would read the second warp's parts before they are written).
constexpr unsigned kLateWriteNs = 20000;

template <class Method>
__global__ void written_before_push_synced(tasks::pool<node, Method> p, unsigned* parts, unsigned* bad,
                                           unsigned max_depth)
{
  __shared__ tasks::worker_slot<node, Method> slot;
  auto w = p.join(slot);
  while (auto t = w.next())
  {
    const node n = *t;
    check_parent_part(n, parts, bad);
    auto kids = w.fork(t, 2);
    if (threadIdx.x >= 32)
    {
      __nanosleep(kLateWriteNs);
    }
    parts[n.id * kParts + threadIdx.x] = n.id * 1000u + threadIdx.x + 1;
    const bool has   = (threadIdx.x == 1 || threadIdx.x == 2) && n.depth < max_depth;
    const node child = {2 * n.id + threadIdx.x, n.depth + 1};
    if (kids.push_synced(has, child) == tasks::push_result::full)
    {
      (void) kids.keep(child); // 512 holds a level of this tree
    }
    w.retire(std::move(t), std::move(kids));
  }
}

TYPED_TEST(TasksContract, WrittenBeforePushSyncedIsVisibleToTheChildren)
{
  unsigned unseen = 0;
  ASSERT_NO_FATAL_FAILURE(run_parts_tree<TypeParam>(written_before_push_synced<TypeParam>, 8, 5, unseen)); // 511
  EXPECT_EQ(unseen, 0u) << "children read parts their parent's block wrote before push_synced, not yet visible";
}

// When a child may start (publication_v): the root pushes two children, calls publish(), and waits
// up to 200 ms for other blocks to run them before it retires. They do on the shared queues (each
// push published them) and on the deques (publish() did); the static lists publish at the round's
// end, which this task holds back, so there they have not run when it retires.
__device__ inline unsigned long long globaltimer_ns()
{
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

template <class Method>
__global__ void published_before_retire(tasks::pool<node, Method> p, unsigned* ran, unsigned* seen_before_retire)
{
  __shared__ tasks::worker_slot<node, Method> slot;
  auto w = p.join(slot);
  while (auto t = w.next())
  {
    const node n = *t;
    auto kids    = w.fork(t, 2);
    if (n.id == 0 && threadIdx.x < 2)
    {
      (void) kids.push(node{1 + threadIdx.x, 1}); // a queue of 16 has room
    }
    w.publish(kids);
    if (n.id == 0 && threadIdx.x == 0)
    {
      const unsigned long long start = globaltimer_ns();
      const volatile unsigned* v     = ran;
      while ((v[1] == 0 || v[2] == 0) && globaltimer_ns() - start < 200'000'000ull)
      {
        __nanosleep(1000);
      }
      *seen_before_retire = v[1] + v[2];
    }
    if (n.id != 0 && threadIdx.x == 0)
    {
      atomicExch(&ran[n.id], 1u);
    }
    w.retire(std::move(t), std::move(kids));
  }
}

TYPED_TEST(TasksContract, PublishedChildrenRunBeforeTheirParentRetires)
{
  DeviceBuffer<unsigned> ran, seen;
  PTXW_CUDA_OK(ran.allocate_zeroed(3));
  PTXW_CUDA_OK(seen.allocate_zeroed(1));
  tasks::pool_host<node, TypeParam> pool(16);
  pool.seed(node{0, 0});
  pool.launch(published_before_retire<TypeParam>, 64, 0, 0, ran.get(), seen.get());
  PTXW_LAUNCH_OK();
  EXPECT_EQ(pool.stats().tasks_run, 3u);
  std::vector<unsigned> r, s;
  PTXW_CUDA_OK(ran.download(r));
  PTXW_CUDA_OK(seen.download(s));
  EXPECT_EQ(r[1] + r[2], 2u) << "a child did not run";
  const bool at_round_end = tasks::publication_v<TypeParam> == tasks::publication::at_round_end;
  EXPECT_EQ(s[0], at_round_end ? 0u : 2u)
    << (at_round_end ? "a static list's children ran before the round's end"
                     : "children pushed and published did not run in other blocks while their parent waited");
}

// The publication of each method, as docs/task-queues.md states it.
TEST(TasksContractHost, PublicationPerMethod)
{
  using tasks::publication;
  static_assert(tasks::publication_v<tasks::stealing> == publication::at_publish);
  static_assert(tasks::publication_v<tasks::stealing_deques<tasks::one_word>> == publication::at_publish);
  static_assert(tasks::publication_v<tasks::lockfree_queue<tasks::ticket_ring>> == publication::at_push);
  static_assert(tasks::publication_v<tasks::lockfree_queue<tasks::nil_slots>> == publication::at_push);
  static_assert(tasks::publication_v<tasks::locked_queue> == publication::at_push);
  static_assert(tasks::publication_v<tasks::static_list> == publication::at_round_end);
  static_assert(tasks::publication_v<tasks::static_list_graph> == publication::at_round_end);
  SUCCEED();
}

// R24 in either build: block 0 loses a task (its ticket ends unretired), which stays live. With a
// sink attached every wait of the other workers ends at its bound, the launch returns, and live
// counts the lost task (checked builds also report it: TasksChecked/*.R20TicketEndedWithoutRetire). The
// static lists count no live tasks: a lost task ends nothing but itself there, so they finish.
TYPED_TEST(TasksContract, ALostTaskEndsTheLaunchAtTheSinksBound)
{
  ptxw::checked::diagnostics diag(256, 20'000'000); // waits of 20 ms
  tasks::pool_host<node, TypeParam> pool(16);
  pool.attach(diag.device_sink());
  for (unsigned i = 0; i < 8; ++i)
  {
    pool.seed(node{i, 0});
  }
  pool.launch(tasks::blocks{4}, tasks_test::loses_a_task<node, TypeParam>, 64, 0, 0, 5u);
  PTXW_LAUNCH_OK();
  EXPECT_EQ(pool.stats().tasks_run, 8u);
  EXPECT_EQ(pool.stats().live, tasks::publication_v<TypeParam> == tasks::publication::at_round_end ? 0u : 1u);
}
} // namespace
