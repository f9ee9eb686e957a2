// The Chase-Lev race, as a litmus test: chains of tasks (each pushes exactly one child), fewer
// chains than blocks, so every owner's deque holds one task at a time and pops it while idle
// blocks try to steal that same task. Pop's fence.sc.gpu (store bottom -> load top) decides who
// gets it; without it owner and thief can both take it (a duplicate: the chain forks) and the live
// count drops twice (the pool ends early: losses). Over many launches: 0 duplicates, 0 losses.
// Dropping the fence from tasks/deque.h makes this fail on an H100 (docs/task-queues.md).
#include <ptxw/host/tasks.h>

#include "gpu.h"

#include <vector>

namespace {
namespace tasks = ptxw::tasks;

struct link
{
  unsigned id; // chain * length + position
  unsigned left; // links after this one
};

__global__ void chains(tasks::pool<link, tasks::stealing> p, unsigned* counts)
{
  __shared__ tasks::worker_slot<link, tasks::stealing> slot;
  auto w = p.join(slot);
  while (auto t = w.next())
  {
    const link l = *t;
    auto kids    = w.fork(t, 1);
    if (threadIdx.x == 0)
    {
      atomicAdd(&counts[l.id], 1u);
      if (l.left != 0 && kids.push(link{l.id + 1, l.left - 1}) == tasks::push_result::full)
      {
        atomicAdd(&counts[l.id], 1000u); // a one-element deque is never full: fails the test
      }
    }
    w.retire(std::move(t), std::move(kids));
  }
}

class TasksLitmus : public Gpu
{};

TEST_F(TasksLitmus, OwnerAndThievesOnOneElementDeques)
{
  int sms = 0;
  PTXW_CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const unsigned length = 2000, chains_n = static_cast<unsigned>(sms) / 4 + 1, launches = 30;
  DeviceBuffer<unsigned> counts;
  PTXW_CUDA_OK(counts.allocate(std::size_t(length) * chains_n));
  ptxw::checked::diagnostics diag;
  tasks::pool_host<link, tasks::stealing> pool(4);
  pool.attach(diag.device_sink());
  for (unsigned c = 0; c < chains_n; ++c)
  {
    pool.seed(link{c * length, length - 1});
  }
  std::size_t duplicates = 0, losses = 0;
  unsigned long long steals = 0, races = 0;
  for (unsigned launch = 0; launch < launches; ++launch)
  {
    PTXW_CUDA_OK(counts.fill_bytes(0));
    pool.launch(chains, 32, 0, 0, counts.get());
    PTXW_LAUNCH_OK();
    std::vector<unsigned> got;
    PTXW_CUDA_OK(counts.download(got));
    for (unsigned n : got)
    {
      duplicates += n > 1 ? n - 1 : 0;
      losses += n == 0;
    }
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
} // namespace
