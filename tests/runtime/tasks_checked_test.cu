// Checked mode on the task pools: for R15, R20, R21, R22, R24 and R26 a kernel that breaks the rule
// through the typed API, and the report that must come of it -- with the rule id, never a hang. (That
// conforming kernels make no report is asserted by every TasksTree test.) A task taken twice needs
// a broken protocol, which the API cannot write: that test takes a task by the deque's own pop and
// then marks its entry taken a second time, as a second taker would. The TasksChecked tests run on
// both kinds of deque (tasks_deques.h). R24 is also asserted for every other wait on one word of a
// pool: for work (the shared queues), at the static list's barrier, on a ticket ring slot whose
// push never published and on a lock never released (those two plant the broken step).
#include <ptxw/tasks/host/pool_host.h>

#include "gpu.h"
#include "task_faults.h"
#include "tasks_deques.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace {
namespace tasks = ptxw::tasks;

struct job
{
  unsigned id;
};
using Ring = tasks::lockfree_queue<tasks::ticket_ring>;

// Passes when `all` is exactly one report, of rule `r`; a failure describes what came instead.
::testing::AssertionResult one_report_of(const std::vector<ptxw::checked::diagnostic>& all, ptxw::rule r)
{
  if (all.size() == 1 && all[0].rule == static_cast<unsigned>(r))
  {
    return ::testing::AssertionSuccess();
  }
  auto failure = ::testing::AssertionFailure() << all.size() << " reports where one of R" << static_cast<unsigned>(r)
                                               << " was expected";
  for (const auto& d : all)
  {
    failure << "\n  " << ptxw::checked::describe(d);
  }
  return failure;
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

// R24 on the ticket ring: position 0's push stopped between drawing its position and publishing
// it -- its sequence is put back to "free for the push of position 0" -- so the take of position 0
// waits for a publication that never comes. `seq` gets the word's address (low bits).
__global__ void takes_an_unpublished_slot(tasks::pool<job, Ring> p, unsigned* seq)
{
  if (threadIdx.x == 0)
  {
    auto& x = ptxw::detail::tasks::backend<job, Ring>::at(p, 0);
    *seq    = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(&x.seq));
    x.seq   = 0;
  }
  __syncthreads();
  __shared__ tasks::worker_slot<job, Ring> slot;
  auto w = p.join(slot);
  while (auto t = w.next())
  {
    w.retire(std::move(t));
  }
}

// R24 on the locked queue: a holder that never unlocks (thread 0 takes the lock and keeps it), so
// the leader's take waits for the lock.
__global__ void takes_a_held_lock(tasks::pool<job, tasks::locked_queue> p)
{
  if (threadIdx.x == 0)
  {
    unsigned long long failed = 0;
    (void) ptxw::detail::tasks::backend<job, tasks::locked_queue>::lock(p, failed);
  }
  __syncthreads();
  __shared__ tasks::worker_slot<job, tasks::locked_queue> slot;
  auto w = p.join(slot);
  while (auto t = w.next())
  {
    w.retire(std::move(t));
  }
}

// R26: every task arrives at `join` (`how`: 1 twice, 2 once more after its retire); `lasts`
// counts the arrivals that were the last.
__global__ void arrives(tasks::pool<job, Ring> p, tasks::join_point* join, unsigned* lasts, unsigned how)
{
  __shared__ tasks::worker_slot<job, Ring> slot;
  auto w = p.join(slot);
  while (auto t = w.next())
  {
    bool last = w.last_at(*join, t);
    if (how == 1)
    {
      last = w.last_at(*join, t) || last; // R26: the task's second arrival
    }
    if (last && threadIdx.x == 0)
    {
      atomicAdd(lasts, 1u);
    }
    w.retire(std::move(t));
    if (how == 2 && w.last_at(*join, t)) // R26: an arrival after retire, without a task
    {
      atomicAdd(lasts, 1u);
    }
  }
}

// R26, fewer arrivals than opened for: task 0 opens `join` for its k children and `missing` more
// (through its fork, one thread), pushes the k; each child arrives. `lasts` counts the last arrivals.
template <class Method>
__global__ void opens_for_more(tasks::pool<job, Method> p, tasks::join_point* join, unsigned k, unsigned missing,
                               unsigned* lasts)
{
  __shared__ tasks::worker_slot<job, Method> slot;
  auto w = p.join(slot);
  while (auto t = w.next())
  {
    if (t->id == 0)
    {
      auto kids = w.fork(t, k);
      if (threadIdx.x == 0)
      {
        kids.open(*join, k + missing);
      }
      __syncthreads();
      if (threadIdx.x < k)
      {
        (void) kids.push(job{1 + threadIdx.x});
      }
      w.retire(std::move(t), std::move(kids));
      continue;
    }
    if (w.last_at(*join, t) && threadIdx.x == 0)
    {
      atomicAdd(lasts, 1u);
    }
    w.retire(std::move(t));
  }
}

// R15: the upper half of block 0 returns before it joins the pool; the other half's next() is
// reported and that block stops. `ran` counts each task's runs.
template <class Method>
__global__ void half_a_block(tasks::pool<job, Method> p, unsigned* ran)
{
  if (blockIdx.x == 0 && threadIdx.x >= blockDim.x / 2)
  {
    return;
  }
  __shared__ tasks::worker_slot<job, Method> slot;
  auto w = p.join(slot);
  while (auto t = w.next())
  {
    if (threadIdx.x == 0)
    {
      atomicAdd(&ran[t->id], 1u);
    }
    w.retire(std::move(t));
  }
}

// R15 on the task's collective calls: the second warp of the one block leaves holding the task,
// and the first calls publish() (Synced: push_synced) alone -- reported, as is the next() after it.
template <class Method, bool Synced>
__global__ void half_a_block_publishes(tasks::pool<job, Method> p)
{
  __shared__ tasks::worker_slot<job, Method> slot;
  auto w = p.join(slot);
  while (auto t = w.next())
  {
    auto kids = w.fork(t, 1);
    if (threadIdx.x >= 32)
    {
      return;
    }
    if constexpr (Synced)
    {
      (void) kids.push_synced(false, job{1});
    }
    else
    {
      w.publish(kids);
    }
    w.retire(std::move(t), std::move(kids));
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

  // How every test's pool starts: `capacity` tasks, seeded with jobs 0 .. seeds - 1, reporting to a
  // sink of its own (diag_) whose checked waits are bounded by `wait_ns`.
  void make_pool(unsigned seeds, std::uint64_t wait_ns = PTXW_CHECKED_TIMEOUT_NS, unsigned capacity = 16)
  {
    pool_.reset();
    diag_.emplace(256, wait_ns);
    pool_.emplace(capacity);
    pool_->attach(diag_->device_sink());
    for (unsigned i = 0; i < seeds; ++i)
    {
      pool_->seed(job{i});
    }
  }

  // `kernel` over the pool on `blocks` blocks of 64 threads, waited for (a failed launch is a fatal
  // failure: call through ASSERT_NO_FATAL_FAILURE).
  template <class Kernel, class... Args>
  void launch(int blocks, Kernel kernel, Args... args)
  {
    pool_->launch(tasks::blocks{blocks}, kernel, 64, 0, 0, args...);
    PTXW_LAUNCH_OK();
  }

  std::optional<ptxw::checked::diagnostics> diag_;
  std::optional<tasks::pool_host<job, Method>> pool_;

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

// The methods whose workers wait for each other: all but static_list_graph.
template <class Method>
class TasksCheckedWaits : public TasksChecked<Method>
{};
using Waiting = ::testing::Types<tasks::stealing, tasks::stealing_deques<tasks::one_word>, Ring,
                                 tasks::lockfree_queue<tasks::nil_slots>, tasks::locked_queue, tasks::static_list>;
TYPED_TEST_SUITE(TasksCheckedWaits, Waiting);

// Every method: where the pool ends (a retire, or the static list's last round) it checks the joins.
template <class Method>
class TasksCheckedOwed : public TasksChecked<Method>
{};
TYPED_TEST_SUITE(TasksCheckedOwed, tasks_test::Methods);

TYPED_TEST(TasksChecked, R20TicketEndedWithoutRetire)
{
  this->make_pool(8, 50'000'000); // waits are bounded at 50 ms
  ASSERT_NO_FATAL_FAILURE(this->launch(4, tasks_test::loses_a_task<job, TypeParam>, 5u));
  const auto all  = this->diag_->read();
  const auto lost = this->of_rule(all, ptxw::rule::exactly_once);
  ASSERT_EQ(lost.size(), 1u) << (all.empty() ? "no report" : ptxw::checked::describe(all[0]));
  EXPECT_EQ(lost[0].phase, 5u) << "the lost task's id (seed 5)";
  EXPECT_EQ(lost[0].thread[0], 0u);
  // The lost task stays live, so the other blocks' wait for work ends in R24 reports, not a hang.
  EXPECT_FALSE(this->of_rule(all, ptxw::rule::resident_workers).empty());
}

TYPED_TEST(TasksChecked, R20TaskTakenTwice)
{
  DeviceBuffer<unsigned> got;
  PTXW_CUDA_OK(got.allocate_zeroed(1));
  this->make_pool(4);
  takes_twice<TypeParam><<<1, 32>>>(this->pool_->prepare(1), this->diag_->device_sink(), got.get());
  PTXW_LAUNCH_OK();
  std::vector<unsigned> g;
  PTXW_CUDA_OK(got.download(g));
  ASSERT_EQ(g[0], 3u) << "the pop got the newest task";
  const auto all = this->diag_->read();
  ASSERT_TRUE(one_report_of(all, ptxw::rule::exactly_once));
  EXPECT_EQ(all[0].phase, 3u) << "the task's id (seed 3)";
}

TYPED_TEST(TasksChecked, R21PushBeyondTheReservation)
{
  DeviceBuffer<unsigned> kept;
  PTXW_CUDA_OK(kept.allocate_zeroed(1));
  this->make_pool(1);
  ASSERT_NO_FATAL_FAILURE(this->launch(2, pushes_beyond_the_reservation<TypeParam>, kept.get()));
  const auto all = this->diag_->read();
  ASSERT_TRUE(one_report_of(all, ptxw::rule::exact_termination));
  EXPECT_EQ(all[0].phase, 2u) << "the push's number";
  EXPECT_EQ(all[0].detail, 1u) << "the reservation";
  std::vector<unsigned> k;
  PTXW_CUDA_OK(kept.download(k));
  EXPECT_EQ(k[0], 1u) << "the refused child was kept instead";
  EXPECT_EQ(this->pool_->stats().tasks_run, 3u) << "the root, its pushed child and the kept one";
  EXPECT_EQ(this->pool_->stats().live, 0u);
}

TYPED_TEST(TasksChecked, R21ForkEndedWithoutRetire)
{
  this->make_pool(1);
  ASSERT_NO_FATAL_FAILURE(this->launch(2, drops_a_fork<TypeParam>));
  const auto all = this->diag_->read();
  ASSERT_TRUE(one_report_of(all, ptxw::rule::exact_termination));
  EXPECT_EQ(all[0].phase, 3u) << "the reservation";
}

TYPED_TEST(TasksChecked, R22SecondOwnerOfADeque)
{
  this->make_pool(1);
  ASSERT_NO_FATAL_FAILURE(this->launch(3, joins_twice<TypeParam>));
  const auto all = this->diag_->read();
  ASSERT_EQ(all.size(), 3u) << "one report per block";
  for (const auto& d : all)
  {
    EXPECT_EQ(d.rule, static_cast<unsigned>(ptxw::rule::owner_and_thief)) << ptxw::checked::describe(d);
    EXPECT_EQ(d.phase, d.block[0]) << "the deque";
  }
}

// Block 0's deque holds half the seeds: the other blocks steal them once block 0 stops.
TYPED_TEST(TasksChecked, R15NextNotEveryThreadMade)
{
  DeviceBuffer<unsigned> ran;
  PTXW_CUDA_OK(ran.allocate_zeroed(8));
  this->make_pool(8);
  ASSERT_NO_FATAL_FAILURE(this->launch(2, half_a_block<TypeParam>, ran.get()));
  const auto all = this->diag_->read();
  ASSERT_EQ(all.size(), 1u) << "one report: block 0's one calling warp";
  EXPECT_EQ(all[0].rule, static_cast<unsigned>(ptxw::rule::uniform_call)) << ptxw::checked::describe(all[0]);
  EXPECT_EQ(all[0].block[0], 0u);
  EXPECT_EQ(all[0].detail, 32u) << "the threads that called";
  std::vector<unsigned> r;
  PTXW_CUDA_OK(ran.download(r));
  EXPECT_EQ(r, std::vector<unsigned>(8, 1u)) << "every task once, by block 1";
  EXPECT_EQ(this->pool_->stats().live, 0u);
}

TYPED_TEST(TasksChecked, R15PublishAndPushSyncedNotEveryThreadMade)
{
  for (bool synced : {false, true})
  {
    this->make_pool(1);
    ASSERT_NO_FATAL_FAILURE(this->launch(1, synced ? half_a_block_publishes<TypeParam, true>
                                                   : half_a_block_publishes<TypeParam, false>));
    const auto all = this->diag_->read();
    ASSERT_EQ(all.size(), 2u) << (synced ? "push_synced" : "publish") << ": its report, then next()'s";
    for (const auto& d : all)
    {
      EXPECT_EQ(d.rule, static_cast<unsigned>(ptxw::rule::uniform_call)) << ptxw::checked::describe(d);
      EXPECT_EQ(d.detail, 32u) << "the threads that called";
    }
  }
}

// The deques and shared queues wait for work while a task is live; the static list's blocks wait
// at the round's barrier for the block that holds the task.
TYPED_TEST(TasksCheckedWaits, R24WaitForWorkOutlivesItsBound)
{
  this->make_pool(1, 20'000'000); // waits of 20 ms
  ASSERT_NO_FATAL_FAILURE(this->launch(4, holds_a_task<TypeParam>, 200'000'000ull)); // held 200 ms
  const auto all = this->diag_->read();
  ASSERT_EQ(all.size(), 3u) << "the three blocks without the task";
  for (const auto& d : all)
  {
    EXPECT_EQ(d.rule, static_cast<unsigned>(ptxw::rule::resident_workers)) << ptxw::checked::describe(d);
    if constexpr (std::is_same_v<TypeParam, tasks::static_list>)
    {
      EXPECT_NE(d.address, 0u) << "the round's generation word";
      EXPECT_EQ(d.phase, 1u) << "the round awaited";
      EXPECT_EQ(d.detail, 0u) << "the round seen";
    }
    else
    {
      EXPECT_EQ(d.address, 0u) << "a wait for work";
      EXPECT_EQ(d.detail, 1u) << "the one live task";
    }
  }
  EXPECT_EQ(this->pool_->stats().tasks_run, 1u);
}

using TasksCheckedRing = TasksChecked<Ring>;
TEST_F(TasksCheckedRing, R24SlotNeverPublished)
{
  DeviceBuffer<unsigned> seq;
  PTXW_CUDA_OK(seq.allocate_zeroed(1));
  make_pool(1, 20'000'000);
  ASSERT_NO_FATAL_FAILURE(launch(1, takes_an_unpublished_slot, seq.get())); // ends: the take gave up
  std::vector<unsigned> address;
  PTXW_CUDA_OK(seq.download(address));
  const auto all = diag_->read();
  ASSERT_TRUE(one_report_of(all, ptxw::rule::resident_workers));
  EXPECT_EQ(all[0].address, address[0]) << "position 0's sequence word";
  EXPECT_EQ(all[0].phase, 1u) << "the take's turn: position 0 published";
  EXPECT_EQ(all[0].detail, 0u) << "the sequence seen: free for a push";
  EXPECT_EQ(all[0].thread[0], 0u);
  EXPECT_EQ(pool_->stats().tasks_run, 0u);
}

using TasksCheckedLock = TasksChecked<tasks::locked_queue>;
TEST_F(TasksCheckedLock, R24LockNeverReleased)
{
  make_pool(1, 20'000'000);
  ASSERT_NO_FATAL_FAILURE(launch(1, takes_a_held_lock)); // ends: the take gave up
  const auto all = diag_->read();
  ASSERT_TRUE(one_report_of(all, ptxw::rule::resident_workers));
  EXPECT_NE(all[0].address, 0u) << "the lock word";
  EXPECT_EQ(all[0].phase, 0u) << "awaited: unlocked";
  EXPECT_EQ(all[0].detail, 1u) << "seen: held";
  EXPECT_EQ(pool_->stats().tasks_run, 0u);
}

// R26, on the ticket ring: `seeds` tasks arrive at one join opened (on the host, before the
// launch) for `n`, each as `how` says; one block, so the order is known. Each test expects its
// number of reports, each an R26 at the join by thread 0 (arrive() checks that much).
class TasksCheckedJoin : public TasksChecked<Ring>
{
protected:
  struct outcome
  {
    std::vector<ptxw::checked::diagnostic> reports;
    unsigned lasts;
    unsigned address; // the join's, low bits
  };
  void arrive(unsigned seeds, unsigned n, unsigned how, std::size_t reports, outcome& o)
  {
    DeviceBuffer<tasks::join_point> join;
    DeviceBuffer<unsigned> lasts;
    PTXW_CUDA_OK(join.assign(std::vector<tasks::join_point>{{0, n}}));
    PTXW_CUDA_OK(lasts.allocate_zeroed(1));
    make_pool(seeds);
    ASSERT_NO_FATAL_FAILURE(launch(1, arrives, join.get(), lasts.get(), how));
    std::vector<unsigned> l;
    PTXW_CUDA_OK(lasts.download(l));
    o = {diag_->read(), l[0], static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(join.get()))};
    for (const auto& d : o.reports)
    {
      EXPECT_EQ(d.rule, static_cast<unsigned>(ptxw::rule::one_arrival)) << ptxw::checked::describe(d);
      EXPECT_EQ(d.address, o.address) << "the join";
      EXPECT_EQ(d.thread[0], 0u);
    }
    ASSERT_EQ(o.reports.size(), reports);
  }
};

TEST_F(TasksCheckedJoin, R26ArrivalAtAJoinNotOpened)
{
  outcome o;
  ASSERT_NO_FATAL_FAILURE(arrive(1, 0, 0, 1, o));
  EXPECT_EQ(o.reports[0].detail, 0u) << "opened for 0";
  EXPECT_EQ(o.lasts, 0u);
}

TEST_F(TasksCheckedJoin, R26SecondArrivalOfOneTask)
{
  outcome o;
  ASSERT_NO_FATAL_FAILURE(arrive(2, 2, 1, 2, o)); // one per task
  for (const auto& d : o.reports)
  {
    EXPECT_EQ(d.phase, 0u) << "refused before it counted (a counted arrival beyond n has its number)";
    EXPECT_EQ(d.detail, 2u) << "opened for 2";
  }
  EXPECT_EQ(o.lasts, 1u) << "the second arrivals are not counted: the second task's first is the last";
}

TEST_F(TasksCheckedJoin, R26MoreArrivalsThanOpenedFor)
{
  outcome o;
  ASSERT_NO_FATAL_FAILURE(arrive(3, 2, 0, 1, o));
  EXPECT_EQ(o.reports[0].phase, 3u) << "the third arrival";
  EXPECT_EQ(o.reports[0].detail, 2u) << "opened for 2";
  EXPECT_EQ(o.lasts, 1u) << "the second arrival was the last, the third none";
}

TEST_F(TasksCheckedJoin, R26ArrivalAfterRetire)
{
  outcome o;
  ASSERT_NO_FATAL_FAILURE(arrive(1, 1, 2, 1, o));
  EXPECT_EQ(o.lasts, 1u) << "the arrival with the task was the last; the one after retire is not";
}

// A join opened on the device for 3 more arrivals than it gets ends the pool with a report (and
// no hang); opened for exactly its arrivals, none.
TYPED_TEST(TasksCheckedOwed, R26FewerArrivalsThanOpenedFor)
{
  constexpr unsigned k = 5;
  for (const unsigned missing : {3u, 0u})
  {
    DeviceBuffer<tasks::join_point> join;
    DeviceBuffer<unsigned> lasts;
    PTXW_CUDA_OK(join.allocate_zeroed(1));
    PTXW_CUDA_OK(lasts.allocate_zeroed(1));
    this->make_pool(1, PTXW_CHECKED_TIMEOUT_NS, 64);
    ASSERT_NO_FATAL_FAILURE(this->launch(4, opens_for_more<TypeParam>, join.get(), k, missing, lasts.get()));
    std::vector<unsigned> l;
    PTXW_CUDA_OK(lasts.download(l));
    EXPECT_EQ(this->pool_->stats().tasks_run, 1 + k) << "missing " << missing;
    const auto all = this->diag_->read();
    if (missing == 0)
    {
      EXPECT_EQ(all.size(), 0u) << ptxw::checked::describe(all[0]);
      EXPECT_EQ(l[0], 1u) << "the k-th arrival is the last";
      continue;
    }
    ASSERT_TRUE(one_report_of(all, ptxw::rule::one_arrival));
    EXPECT_EQ(all[0].detail, missing) << "the arrivals missing";
    EXPECT_EQ(l[0], 0u) << "no arrival was the last";
  }
}

// R31: seeds that point into memory the device cannot read are refused on the host before anything
// is placed or launched; live ones (device and pinned host memory) are read by the tasks. Both ways
// a task names its pointers: a pointer task, and a task with pointers().
struct cell
{
  float* value;
  std::array<const float*, 1> pointers() const
  {
    return {value};
  }
};

template <class T>
__device__ const float* target_of(const T& t)
{
  if constexpr (std::is_pointer_v<T>)
  {
    return t;
  }
  else
  {
    return t.value;
  }
}

template <class T>
__global__ void sums_what_tasks_point_to(tasks::pool<T, Ring> p, float* sum)
{
  __shared__ tasks::worker_slot<T, Ring> slot;
  auto w = p.join(slot);
  while (auto t = w.next())
  {
    if (threadIdx.x == 0)
    {
      atomicAdd(sum, *target_of(*t));
    }
    w.retire(std::move(t));
  }
}

template <class T>
class TasksCheckedPayloads : public Gpu
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
  static T task(float* p)
  {
    if constexpr (std::is_pointer_v<T>)
    {
      return p;
    }
    else
    {
      return T{p};
    }
  }
};
using PayloadKinds = ::testing::Types<float*, cell>;
TYPED_TEST_SUITE(TasksCheckedPayloads, PayloadKinds);

TYPED_TEST(TasksCheckedPayloads, R31SeedIntoFreedMemoryIsRefusedBeforeTheLaunch)
{
  DeviceBuffer<float> live, sum;
  PTXW_CUDA_OK(live.assign(std::vector<float>{1.f, 2.f}));
  PTXW_CUDA_OK(sum.allocate_zeroed(1));
  float* pinned = nullptr;
  PTXW_CUDA_OK(cudaMallocHost(&pinned, sizeof(float)));
  *pinned = 4.f;
  std::vector<float> pageable(1, 8.f);

  tasks::pool_host<TypeParam, Ring> pool(8);
  const auto seed_live = [&] {
    pool.reset();
    pool.seed(this->task(live.get()));
    pool.seed(this->task(live.get() + 1)); // inside an allocation
    pool.seed(this->task(pinned));
  };
  seed_live();
  pool.launch(tasks::blocks{2}, sums_what_tasks_point_to<TypeParam>, 64, 0, 0, sum.get());
  PTXW_LAUNCH_OK();
  std::vector<float> got;
  PTXW_CUDA_OK(sum.download(got));
  EXPECT_EQ(got[0], 7.f) << "the live seeds were read";

  // Freed after every allocation of the pool and the test, so that no later one reuses its addresses.
  float* freed = nullptr;
  PTXW_CUDA_OK(cudaMalloc(&freed, 1024 * sizeof(float)));
  PTXW_CUDA_OK(cudaFree(freed));
  for (float* bad : {freed + 3, pageable.data()})
  {
    pool.seed(this->task(bad)); // seed 3
    try
    {
      pool.launch(tasks::blocks{2}, sums_what_tasks_point_to<TypeParam>, 64, 0, 0, sum.get());
      FAIL() << "a seed pointing to " << bad << " was launched";
    }
    catch (const std::runtime_error& e)
    {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("ptxw: R31 live payload: seed 3 points to ", 0), 0u) << what;
    }
    seed_live();
  }
  EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "the refusal left no error behind";
  PTXW_CUDA_OK(sum.download(got));
  EXPECT_EQ(got[0], 7.f) << "nothing ran after a refusal";
  PTXW_CUDA_OK(cudaFreeHost(pinned));
}
} // namespace
