// Checked mode on the task pools: for R20, R21, R22 and R24 a kernel that breaks the rule through
// the typed API, and the report that must come of it -- with the rule id, never a hang. (That
// conforming kernels make no report is asserted by every TasksTree test.) A task taken twice needs
// a broken protocol, which the API cannot write: that test takes a task by the deque's own pop and
// then marks its entry taken a second time, as a second taker would. Each test runs on both kinds
// of deque (tasks_deques.h).
#include <ptxw/host/tasks.h>

#include "gpu.h"
#include "tasks_deques.h"

#include <vector>

namespace {
namespace tasks = ptxw::tasks;

struct job
{
  unsigned id;
};

// R20: the block that takes task `lost` ends its ticket without retire (a `continue`).
template <class Method>
__global__ void loses_a_ticket(tasks::pool<job, Method> p, unsigned lost)
{
  __shared__ tasks::worker_slot<job, Method> slot;
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

// R21: a fork of 1 that pushes 2; the second push is refused (full) and kept instead.
template <class Method>
__global__ void pushes_beyond_the_reservation(tasks::pool<job, Method> p, unsigned* kept)
{
  __shared__ tasks::worker_slot<job, Method> slot;
  auto w = p.join(slot);
  while (auto t = w.next())
  {
    auto kids = w.fork(t, 1);
    if (threadIdx.x == 0 && t->id == 0)
    {
      (void) kids.push(job{1});
      if (kids.push(job{2}) == tasks::push_result::full) // R21
      {
        *kept = kids.keep(job{2}) == tasks::push_result::pushed;
      }
    }
    w.retire(std::move(t), std::move(kids));
  }
}

// R21: a fork whose reservation ends without retire (the task is retired without it).
template <class Method>
__global__ void drops_a_fork(tasks::pool<job, Method> p)
{
  __shared__ tasks::worker_slot<job, Method> slot;
  auto w = p.join(slot);
  while (auto t = w.next())
  {
    auto kids = w.fork(t, 3);
    w.retire(std::move(t)); // R21: `kids` ends unretired
  }
}

// R22: a second owner end of the block's deque.
template <class Method>
__global__ void joins_twice(tasks::pool<job, Method> p)
{
  __shared__ tasks::worker_slot<job, Method> slot, second;
  auto w  = p.join(slot);
  auto w2 = p.join(second); // R22
  while (auto t = w.next())
  {
    w.retire(std::move(t));
  }
  (void) w2;
}

// R24: the block that takes task 0 holds it for `hold_ns` before retiring; the others' wait for
// work outlives the sink's bound.
template <class Method>
__global__ void holds_a_task(tasks::pool<job, Method> p, unsigned long long hold_ns)
{
  __shared__ tasks::worker_slot<job, Method> slot;
  auto w = p.join(slot);
  while (auto t = w.next())
  {
    if (t->id == 0 && threadIdx.x == 0)
    {
      const unsigned long long start = ptxw::checked::now_ns();
      while (ptxw::checked::now_ns() - start < hold_ns)
      {
      }
    }
    __syncthreads();
    w.retire(std::move(t));
  }
}

// R20 (taken twice): the owner pops deque 0's newest task (position 3 of 4), then a second taker
// marks the same entry.
template <class Method>
__global__ void takes_twice(tasks::pool<job, Method> p, const ptxw::checked::sink* sink, unsigned* got)
{
  using backend = ptxw::detail::tasks::backend<job, Method>;
  if (threadIdx.x != 0)
  {
    return;
  }
  typename backend::local l{};
  backend::open(p, l);
  tasks::counters c{};
  ptxw::detail::tasks::entry<job> e;
  *got = backend::pop(p, l, e, c) ? e.value.id : ~0u;
  ptxw::detail::tasks::mark_taken(backend::slot(p, 0, 3), sink); // the second taker
}

template <class Method>
class TasksChecked : public Gpu
{
protected:
  void SetUp() override
  {
    Gpu::SetUp();
    if (!IsSkipped())
    {
      PTXW_SKIP_UNLESS_CHECKED();
    }
  }

  static std::vector<ptxw::checked::diagnostic> of_rule(const std::vector<ptxw::checked::diagnostic>& all, ptxw::rule r)
  {
    std::vector<ptxw::checked::diagnostic> out;
    for (const auto& d : all)
    {
      if (d.rule == static_cast<unsigned>(r))
      {
        out.push_back(d);
      }
    }
    return out;
  }
};
TYPED_TEST_SUITE(TasksChecked, tasks_test::Deques, tasks_test::deque_names);

TYPED_TEST(TasksChecked, R20TicketEndedWithoutRetire)
{
  ptxw::checked::diagnostics diag(256, 50'000'000); // waits are bounded at 50 ms
  tasks::pool_host<job, TypeParam> pool(16);
  pool.attach(diag.device_sink());
  for (unsigned i = 0; i < 8; ++i)
  {
    pool.seed(job{i});
  }
  pool.launch(tasks::blocks{4}, loses_a_ticket<TypeParam>, 64, 0, 0, 5u);
  PTXW_LAUNCH_OK();
  const auto all  = diag.read();
  const auto lost = this->of_rule(all, ptxw::rule::exactly_once);
  ASSERT_EQ(lost.size(), 1u) << (all.empty() ? "no report" : ptxw::checked::describe(all[0]));
  EXPECT_EQ(lost[0].phase, 5u) << "the lost task's id (seed 5)";
  EXPECT_EQ(lost[0].thread[0], 0u);
  // The lost task stays live, so the other blocks' wait for work ends in R24 reports, not a hang.
  EXPECT_FALSE(this->of_rule(all, ptxw::rule::resident_workers).empty());
}

TYPED_TEST(TasksChecked, R20TaskTakenTwice)
{
  ptxw::checked::diagnostics diag;
  DeviceBuffer<unsigned> got;
  PTXW_CUDA_OK(got.allocate_zeroed(1));
  tasks::pool_host<job, TypeParam> pool(16);
  pool.attach(diag.device_sink());
  for (unsigned i = 0; i < 4; ++i)
  {
    pool.seed(job{i});
  }
  const auto p = pool.prepare(1);
  takes_twice<TypeParam><<<1, 32>>>(p, diag.device_sink(), got.get());
  PTXW_LAUNCH_OK();
  std::vector<unsigned> g;
  PTXW_CUDA_OK(got.download(g));
  ASSERT_EQ(g[0], 3u) << "the pop got the newest task";
  const auto all = diag.read();
  ASSERT_EQ(all.size(), 1u) << (all.empty() ? "no report" : ptxw::checked::describe(all[0]));
  EXPECT_EQ(all[0].rule, static_cast<unsigned>(ptxw::rule::exactly_once)) << ptxw::checked::describe(all[0]);
  EXPECT_EQ(all[0].phase, 3u) << "the task's id (seed 3)";
}

TYPED_TEST(TasksChecked, R21PushBeyondTheReservation)
{
  ptxw::checked::diagnostics diag;
  DeviceBuffer<unsigned> kept;
  PTXW_CUDA_OK(kept.allocate_zeroed(1));
  tasks::pool_host<job, TypeParam> pool(16);
  pool.attach(diag.device_sink());
  pool.seed(job{0});
  pool.launch(tasks::blocks{2}, pushes_beyond_the_reservation<TypeParam>, 64, 0, 0, kept.get());
  PTXW_LAUNCH_OK();
  const auto all = diag.read();
  ASSERT_EQ(all.size(), 1u) << (all.empty() ? "no report" : ptxw::checked::describe(all[0]));
  EXPECT_EQ(all[0].rule, static_cast<unsigned>(ptxw::rule::exact_termination)) << ptxw::checked::describe(all[0]);
  EXPECT_EQ(all[0].phase, 2u) << "the push's number";
  EXPECT_EQ(all[0].detail, 1u) << "the reservation";
  std::vector<unsigned> k;
  PTXW_CUDA_OK(kept.download(k));
  EXPECT_EQ(k[0], 1u) << "the refused child was kept instead";
  EXPECT_EQ(pool.stats().tasks_run, 3u) << "the root, its pushed child and the kept one";
  EXPECT_EQ(pool.stats().live, 0u);
}

TYPED_TEST(TasksChecked, R21ForkEndedWithoutRetire)
{
  ptxw::checked::diagnostics diag;
  tasks::pool_host<job, TypeParam> pool(16);
  pool.attach(diag.device_sink());
  pool.seed(job{0});
  pool.launch(tasks::blocks{2}, drops_a_fork<TypeParam>, 64, 0, 0);
  PTXW_LAUNCH_OK();
  const auto all = diag.read();
  ASSERT_EQ(all.size(), 1u) << (all.empty() ? "no report" : ptxw::checked::describe(all[0]));
  EXPECT_EQ(all[0].rule, static_cast<unsigned>(ptxw::rule::exact_termination)) << ptxw::checked::describe(all[0]);
  EXPECT_EQ(all[0].phase, 3u) << "the reservation";
}

TYPED_TEST(TasksChecked, R22SecondOwnerOfADeque)
{
  ptxw::checked::diagnostics diag;
  tasks::pool_host<job, TypeParam> pool(16);
  pool.attach(diag.device_sink());
  pool.seed(job{0});
  pool.launch(tasks::blocks{3}, joins_twice<TypeParam>, 64, 0, 0);
  PTXW_LAUNCH_OK();
  const auto all = diag.read();
  ASSERT_EQ(all.size(), 3u) << "one report per block";
  for (const auto& d : all)
  {
    EXPECT_EQ(d.rule, static_cast<unsigned>(ptxw::rule::owner_and_thief)) << ptxw::checked::describe(d);
    EXPECT_EQ(d.phase, d.block[0]) << "the deque";
  }
}

TYPED_TEST(TasksChecked, R24WaitForWorkOutlivesItsBound)
{
  ptxw::checked::diagnostics diag(256, 20'000'000); // 20 ms
  tasks::pool_host<job, TypeParam> pool(16);
  pool.attach(diag.device_sink());
  pool.seed(job{0});
  pool.launch(tasks::blocks{4}, holds_a_task<TypeParam>, 64, 0, 0, 200'000'000ull); // held 200 ms
  PTXW_LAUNCH_OK();
  const auto all = diag.read();
  ASSERT_EQ(all.size(), 3u) << "the three blocks without the task";
  for (const auto& d : all)
  {
    EXPECT_EQ(d.rule, static_cast<unsigned>(ptxw::rule::resident_workers)) << ptxw::checked::describe(d);
    EXPECT_EQ(d.detail, 1u) << "the one live task";
  }
  EXPECT_EQ(pool.stats().tasks_run, 1u);
}
} // namespace
