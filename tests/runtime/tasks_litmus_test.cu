// The owner-and-thieves races, as litmus tests, on both kinds of deque (tasks_deques.h). Chase-Lev:
// pop's fence.sc.gpu orders its store of bottom before its load of top; without it the owner can
// read a top older than a thief's steal and take the last task without the CAS that decides a last
// task, while a second thief -- which does not see the new bottom yet -- steals the same task (a
// duplicate). One word: owner and thieves CAS the same word, and its pop count keeps a thief that
// read the word before the owner popped and pushed again from succeeding with a stale entry (ABA).
// 1. Through the pool: chains of tasks (each pushes exactly one child), fewer chains than blocks,
//    so every owner's deque holds one or two tasks and pops while idle blocks steal.
// 2. The deque alone: groups of one owner and three thieves; per round the owner pushes two tasks
//    and pops until its deque is empty while the thieves steal; every task counted once.
// 3. The deque alone again, with thieves held up between the entry's read and their CAS
//    (faults::thief_stall_ns): the ABA window of the one_word deque, which its pop count closes.
// 4. The Chase-Lev deque alone again, with pop's store of bottom held as a store buffer may hold it
//    (faults::late_store_ns): the store->load reordering that the fence forbids, made to happen
//    where the PTX model allows it, since hardware shows it too rarely to be seen here.
// Over many rounds: 0 duplicates, 0 losses (docs/task-queues.md says what the fence-drop mutant did).
#include <ptxw/tasks/host/pool_host.h>

#include "gpu.h"
#include "tasks_deques.h"
#include "tasks_tree.h"

#include <vector>

namespace {
namespace tasks = ptxw::tasks;

struct chain_link
{
  unsigned id; // chain * length + position
  unsigned left; // links after this one
};

template <class Method>
__global__ void chains(tasks::pool<chain_link, Method> p, unsigned* counts)
{
  __shared__ tasks::worker_slot<chain_link, Method> slot;
  auto w = p.join(slot);
  while (auto t = w.next())
  {
    tasks_test::count_and_fork(w, std::move(t), 1, counts, [&](const chain_link& l, auto& kids) {
      if (threadIdx.x == 0 && l.left != 0 && kids.push(chain_link{l.id + 1, l.left - 1}) == tasks::push_result::full)
      {
        atomicAdd(&counts[l.id], 1000u); // a one-element deque is never full: fails the test
      }
    });
  }
}

// 2: block 4g owns deque 4g; blocks 4g + 1 .. 4g + 3 steal from it. Task ids: group * 2 * rounds + i.
template <class Method>
__global__ void owner_and_thieves(tasks::pool<chain_link, Method> p, unsigned* counts, unsigned* done, unsigned rounds)
{
  using backend           = ptxw::detail::tasks::backend<chain_link, Method>;
  const unsigned group    = blockIdx.x / 4;
  const unsigned owner    = group * 4;
  if (threadIdx.x != 0)
  {
    return;
  }
  typename backend::local l{};
  backend::open(p, l);
  tasks::counters c{};
  ptxw::detail::tasks::entry<chain_link> e;
  if (blockIdx.x == owner)
  {
    for (unsigned r = 0; r < rounds; ++r)
    {
      const typename backend::room room = backend::reserve(p, l);
      for (unsigned k = 0; k < 2; ++k)
      {
        if (!backend::push(p, room, k, chain_link{group * 2 * rounds + 2 * r + k, 0}))
        {
          atomicAdd(&counts[group * 2 * rounds + 2 * r + k], 1000u); // never full: fails the test
        }
      }
      backend::publish(p, l, 2);
      while (backend::pop(p, l, e, c))
      {
        atomicAdd(&counts[e.value.id], 1u);
      }
    }
    atomicExch(&done[group], 1u);
    return;
  }
  for (;;)
  {
    const bool finished = ptxw::detail::isa::ld_acquire(&done[group]) != 0; // before the last steals
    if (backend::steal(p, l, owner, e, c))
    {
      atomicAdd(&counts[e.value.id], 1u);
    }
    else if (finished)
    {
      return;
    }
  }
}

class TasksLitmus : public Gpu
{};

template <class Method>
class TasksDequeLitmus : public Gpu
{};
TYPED_TEST_SUITE(TasksDequeLitmus, tasks_test::Deques, tasks_test::deque_names);

// Each id's count: above 1 is a duplicate, 0 a loss.
void tally(const std::vector<unsigned>& counts, std::size_t& duplicates, std::size_t& losses)
{
  for (unsigned n : counts)
  {
    duplicates += n > 1 ? n - 1 : 0;
    losses += n == 0;
  }
}

TYPED_TEST(TasksDequeLitmus, OwnerAndThievesOnOneElementDeques)
{
  int sms = 0;
  PTXW_CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const unsigned length = 2000, chains_n = static_cast<unsigned>(sms) / 4 + 1, launches = 30;
  DeviceBuffer<unsigned> counts;
  PTXW_CUDA_OK(counts.allocate(std::size_t(length) * chains_n));
  ptxw::checked::diagnostics diag;
  tasks::pool_host<chain_link, TypeParam> pool(4);
  pool.attach(diag.device_sink());
  for (unsigned c = 0; c < chains_n; ++c)
  {
    pool.seed(chain_link{c * length, length - 1});
  }
  std::size_t duplicates = 0, losses = 0;
  unsigned long long steals = 0, races = 0;
  for (unsigned launch = 0; launch < launches; ++launch)
  {
    PTXW_CUDA_OK(counts.fill_bytes(0));
    pool.launch(chains<TypeParam>, 32, 0, 0, counts.get());
    PTXW_LAUNCH_OK();
    std::vector<unsigned> got;
    PTXW_CUDA_OK(counts.download(got));
    tally(got, duplicates, losses);
    const tasks::pool_stats s = pool.stats();
    steals += s.steals_won;
    races += s.failed_cas;
  }
  std::printf("  %u launches x %u chains x %u links: %llu steals won, %llu CAS lost; %zu duplicates, %zu losses\n",
              launches, chains_n, length, steals, races, duplicates, losses);
  EXPECT_GT(steals, 0u) << "no steal happened: the test raced nothing";
  EXPECT_EQ(duplicates, 0u);
  EXPECT_EQ(losses, 0u);
  if (ptxw::checked::on)
  {
    EXPECT_EQ(diag.count(), 0u) << (diag.read().empty() ? "" : ptxw::checked::describe(diag.read()[0]));
  }
}
// Groups of one owner and three thieves on a deque of capacity 4, `rounds` rounds each, `launches`
// launches: 0 duplicates and 0 losses, under `f`.
template <class Method>
void deque_alone(const tasks::faults& f, unsigned rounds, unsigned launches)
{
  int sms = 0;
  PTXW_CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const unsigned groups = static_cast<unsigned>(sms);
  DeviceBuffer<unsigned> counts, done;
  PTXW_CUDA_OK(counts.allocate(std::size_t(groups) * 2 * rounds));
  PTXW_CUDA_OK(done.allocate(groups));
  ptxw::checked::diagnostics diag;
  tasks::pool_host<chain_link, Method> pool(4);
  pool.attach(diag.device_sink());
  pool.inject(f);
  std::size_t duplicates = 0, losses = 0;
  for (unsigned launch = 0; launch < launches; ++launch)
  {
    PTXW_CUDA_OK(counts.fill_bytes(0));
    PTXW_CUDA_OK(done.fill_bytes(0));
    const auto p = pool.prepare(static_cast<int>(4 * groups));
    owner_and_thieves<Method><<<4 * groups, 32>>>(p, counts.get(), done.get(), rounds);
    PTXW_LAUNCH_OK();
    std::vector<unsigned> got;
    PTXW_CUDA_OK(counts.download(got));
    tally(got, duplicates, losses);
  }
  std::printf("  %u launches x %u groups (1 owner, 3 thieves) x %u rounds of 2 tasks: %zu duplicates, %zu losses\n",
              launches, groups, rounds, duplicates, losses);
  EXPECT_EQ(duplicates, 0u);
  EXPECT_EQ(losses, 0u);
  if (ptxw::checked::on)
  {
    EXPECT_EQ(diag.count(), 0u) << (diag.read().empty() ? "" : ptxw::checked::describe(diag.read()[0]));
  }
}

TYPED_TEST(TasksDequeLitmus, OwnerAndThievesOnTheDequeAlone)
{
  deque_alone<TypeParam>(tasks::faults{}, 20000, 5);
}

// Thieves held up between their read of the entry and their CAS (faults::thief_stall_ns), while
// the owner pops its two tasks and pushes two more: the one_word deque's word is then what the
// thief loaded but for the pop count, and without that count the thief's CAS would succeed with
// the entry of a task the owner already ran (the mutant in tools/mutation/mutants.txt). Chase-Lev's
// positions only grow: its top CAS fails there anyway.
TYPED_TEST(TasksDequeLitmus, OwnerAndThievesWithStalledThieves)
{
  tasks::faults f{};
  f.thief_stall_ns = 20000; // several of the owner's rounds (two pushes, a publish, two pops: ~7 us)
  deque_alone<TypeParam>(f, 2000, 3);
}

// Chase-Lev (the one_word deque stores nothing before a fence: the fault has no step there).
// Pop's store of bottom held as a store buffer may hold it (faults::late_store_ns): the fence
// drains it before top is read. Without the fence the store lands 2 us after that read, and a
// thief that steals in between takes the task the owner is popping (the mutant in
// tools/mutation/mutants.txt: thousands of duplicates).
TEST_F(TasksLitmus, OwnerAndThievesWithLateStores)
{
  tasks::faults f{};
  f.late_store_ns = 2000;
  deque_alone<tasks::stealing>(f, 2000, 3);
}
} // namespace
