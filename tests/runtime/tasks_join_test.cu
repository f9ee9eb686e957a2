// Joins (tasks/join.h) on every method: sums of ranges, each range split into chunk tasks at a
// join whose last arrival adds the chunks' partial sums (plain stores of the other blocks, read
// after the join) and pushes the range's halves as ranges of their own -- tasks that create tasks
// through joins, as the octree's chunked nodes do. Each join's continuation runs exactly once, with
// every part visible: its total is the host's sum of its range. Plain launches, then launches under
// each injected fault. (Checked mode's R26 reports: tasks_checked_test.cu.)
#include <ptxw/tasks/host/pool_host.h>

#include "gpu.h"
#include "task_faults.h"
#include "tasks_deques.h"

#include <cstdint>
#include <vector>

namespace {
namespace tasks = ptxw::tasks;

constexpr unsigned kWhole    = ~0u; // a job's join for a whole range (not a chunk)
constexpr unsigned kChunk    = 512; // values a chunk task sums
constexpr unsigned kMaxParts = 64; // chunks of the largest range (a root)
constexpr unsigned kRoot     = kChunk * kMaxParts;
constexpr unsigned kJoinsPerRoot = 63; // ranges of 32K, 16K, ... 1K values: 1 + 2 + ... + 32

struct job
{
  unsigned begin, count;
  unsigned join; // kWhole, or the chunk's join
  unsigned index; // the chunk's, in its join
};

struct sums
{
  const unsigned* values;
  tasks::join_point* joins;
  unsigned* joins_used;
  uint2* ranges; // per join: its range's begin, count
  unsigned long long* partials; // per join: kMaxParts chunk sums
  unsigned long long* totals; // per join: the range's sum, by the last arrival
  unsigned* runs; // per join: continuations run
  unsigned* dropped; // children neither pushed nor kept
};

template <class Kids>
__device__ void push_or_keep(Kids& kids, const job& c, unsigned* dropped)
{
  if (kids.push(c) == tasks::push_result::full && kids.keep(c) == tasks::push_result::full)
  {
    atomicAdd(dropped, 1u);
  }
}

template <class Method>
__global__ void sum_by_joins(tasks::pool<job, Method> p, sums s)
{
  __shared__ tasks::worker_slot<job, Method, 8> slot;
  __shared__ unsigned long long part;
  __shared__ unsigned opened;
  auto w = p.join(slot);
  while (auto t = w.next())
  {
    const job jb = *t;
    if (jb.join == kWhole) // a range: its chunks, at a join thread 0 opens before the barrier
    {
      const unsigned n = (jb.count + kChunk - 1) / kChunk;
      auto kids        = w.fork(t, n);
      if (threadIdx.x == 0)
      {
        opened = atomicAdd(s.joins_used, 1u);
        kids.open(s.joins[opened], n);
        s.ranges[opened] = make_uint2(jb.begin, jb.count);
      }
      __syncthreads();
      if (threadIdx.x < n)
      {
        const unsigned b = jb.begin + threadIdx.x * kChunk;
        push_or_keep(kids, job{b, min(kChunk, jb.begin + jb.count - b), opened, threadIdx.x}, s.dropped);
      }
      w.retire(std::move(t), std::move(kids));
      continue;
    }
    if (threadIdx.x == 0)
    {
      part = 0;
    }
    __syncthreads();
    unsigned long long mine = 0;
    for (unsigned i = threadIdx.x; i < jb.count; i += blockDim.x)
    {
      mine += s.values[jb.begin + i];
    }
    atomicAdd(&part, mine);
    __syncthreads();
    if (threadIdx.x == 0)
    {
      s.partials[jb.join * kMaxParts + jb.index] = part; // a plain store, read by the last arrival
    }
    if (!w.last_at(s.joins[jb.join], t))
    {
      w.retire(std::move(t));
      continue;
    }
    const uint2 r = s.ranges[jb.join];
    if (threadIdx.x == 0)
    {
      unsigned long long total = 0;
      for (unsigned i = 0; i < (r.y + kChunk - 1) / kChunk; ++i)
      {
        total += s.partials[jb.join * kMaxParts + i];
      }
      s.totals[jb.join] = total;
      atomicAdd(&s.runs[jb.join], 1u);
    }
    const bool halves = r.y > 2 * kChunk;
    auto kids         = w.fork(t, halves ? 2 : 0);
    if (halves && threadIdx.x < 2)
    {
      const unsigned h = r.y / 2;
      push_or_keep(kids, threadIdx.x == 0 ? job{r.x, h, kWhole, 0} : job{r.x + h, r.y - h, kWhole, 0}, s.dropped);
    }
    w.retire(std::move(t), std::move(kids));
  }
}

template <class Method>
class TasksJoin : public Gpu
{
protected:
  // `roots` ranges of kRoot values, `launches` times under f; every join checked against the host.
  void run(unsigned roots, int launches, const tasks::faults& f = {}, int grid = 0)
  {
    std::vector<unsigned> values(static_cast<std::size_t>(roots) * kRoot);
    for (std::size_t i = 0; i < values.size(); ++i)
    {
      values[i] = static_cast<unsigned>((i * 2654435761u) >> 12);
    }
    std::vector<unsigned long long> prefix(values.size() + 1, 0); // (std::partial_sum would add in unsigned)
    for (std::size_t i = 0; i < values.size(); ++i)
    {
      prefix[i + 1] = prefix[i] + values[i];
    }
    const unsigned joins = roots * kJoinsPerRoot;
    DeviceBuffer<unsigned> d_values, used, runs, dropped;
    DeviceBuffer<tasks::join_point> d_joins;
    DeviceBuffer<uint2> ranges;
    DeviceBuffer<unsigned long long> partials, totals;
    PTXW_CUDA_OK(d_values.assign(values));
    PTXW_CUDA_OK(d_joins.allocate(joins));
    PTXW_CUDA_OK(used.allocate(1));
    PTXW_CUDA_OK(runs.allocate(joins));
    PTXW_CUDA_OK(dropped.allocate(1));
    PTXW_CUDA_OK(ranges.allocate(joins));
    PTXW_CUDA_OK(partials.allocate(static_cast<std::size_t>(joins) * kMaxParts));
    PTXW_CUDA_OK(totals.allocate(joins));
    std::vector<job> seeds;
    for (unsigned i = 0; i < roots; ++i)
    {
      seeds.push_back(job{i * kRoot, kRoot, kWhole, 0});
    }
    ptxw::checked::diagnostics diag;
    tasks::pool_host<job, Method> pool(ptxw::tasks::is_stealing_v<Method> ? 256 : 4096);
    pool.attach(diag.device_sink());
    pool.seed(seeds);
    const sums s{d_values.get(), d_joins.get(), used.get(), ranges.get(), partials.get(), totals.get(), runs.get(),
                 dropped.get()};
    for (int launch = 0; launch < launches; ++launch)
    {
      tasks::faults fl = f;
      fl.seed          = f.seed + 7919u * static_cast<unsigned>(launch);
      pool.inject(fl);
      PTXW_CUDA_OK(used.fill_bytes(0));
      PTXW_CUDA_OK(runs.fill_bytes(0));
      PTXW_CUDA_OK(dropped.fill_bytes(0));
      PTXW_CUDA_OK(totals.fill_bytes(0xff));
      PTXW_CUDA_OK(d_joins.fill_bytes(0xff)); // open() must set both words
      if (grid == 0)
      {
        pool.launch(sum_by_joins<Method>, 128, 0, 0, s);
      }
      else
      {
        pool.launch(tasks::blocks{grid}, sum_by_joins<Method>, 128, 0, 0, s);
      }
      PTXW_LAUNCH_OK();
      std::vector<unsigned> u, r, d;
      std::vector<uint2> rg;
      std::vector<unsigned long long> tot;
      PTXW_CUDA_OK(used.download(u));
      PTXW_CUDA_OK(runs.download(r));
      PTXW_CUDA_OK(dropped.download(d));
      PTXW_CUDA_OK(ranges.download(rg));
      PTXW_CUDA_OK(totals.download(tot));
      ASSERT_EQ(d[0], 0u) << "children neither pushed nor kept, launch " << launch;
      ASSERT_EQ(u[0], joins) << "joins opened, launch " << launch;
      std::size_t wrong = 0, not_once = 0;
      for (unsigned j = 0; j < joins; ++j)
      {
        not_once += r[j] != 1;
        wrong += tot[j] != prefix[rg[j].x + rg[j].y] - prefix[rg[j].x];
      }
      ASSERT_EQ(not_once, 0u) << "joins whose continuation did not run exactly once, launch " << launch;
      ASSERT_EQ(wrong, 0u) << "joins whose last arrival missed a part, launch " << launch;
      ASSERT_EQ(pool.stats().live, 0u);
      ASSERT_EQ(diag.count(), 0u) << (diag.read().empty() ? "" : ptxw::checked::describe(diag.read()[0]));
    }
  }
};
TYPED_TEST_SUITE(TasksJoin, tasks_test::Methods);

// 16 roots: 1008 joins of 1 to 64 chunk tasks a launch, on the resident grid and on 4 blocks
// (several chunks of one join in one block).
TYPED_TEST(TasksJoin, LastOfEachJoinSeesEveryPart)
{
  this->run(16, 3);
  this->run(16, 3, {}, 4);
}

// Each injected fault, 20 launches of 2 roots on 16 blocks.
TYPED_TEST(TasksJoin, FaultInjectedLaunches)
{
  for (const tasks::faults& f : tasks_test::fault_kinds())
  {
    this->run(2, 20, f, 16);
  }
}
} // namespace
