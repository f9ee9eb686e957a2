// The block work queue on the GPU (checked mode on): every item handed to exactly one block, once,
// under skewed item costs, for both forms (fetch, and the prefetching for_each_item) and batches of
// 1 to 8, on a persistent grid and on more blocks than fit; the item's index; the explicit end (an
// exhausted queue hands out nothing, a reset one everything again); filling from the host and from
// device memory, and the capacity error. A conforming kernel makes no report. Planted misuse is
// reported with its rule: a fetch not every thread makes (R15), an uninitialised queue (R17), the
// read of "no item" (R19).
#include <ptxw/inter_block/host/work_queue.h>

#include "clc_launch.h"
#include "gpu.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <random>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

constexpr unsigned kThreads = 128;

struct job
{
  unsigned id; // which item (an index into hits)
  unsigned ns; // how long it takes
};

__device__ void spin_ns(unsigned ns)
{
  const unsigned long long start = ptxw::checked::now_ns();
  while (ptxw::checked::now_ns() - start < ns)
  {
  }
}

// One item's work: thread 0 spins for its cost and counts it; the others wait at the queue's
// barrier. index_ok records whether the item's index() is where the host put it.
__device__ void run(const job& j, unsigned long long index, const unsigned* position, unsigned* hits,
                    unsigned* bad_index)
{
  if (threadIdx.x == 0)
  {
    spin_ns(j.ns);
    atomicAdd(&hits[j.id], 1u);
    if (index != ~0ull && position[j.id] != index)
    {
      atomicAdd(bad_index, 1u);
    }
  }
}

template <unsigned K>
__global__ void by_fetch(ptxw::work_queue<job> q, const unsigned* position, unsigned* hits, unsigned* bad_index)
{
  __shared__ ptxw::queue_slot slot;
  auto c = ptxw::open_queue<K>(slot, q);
  while (auto it = c.fetch())
  {
    run(*it, it.index(), position, hits, bad_index);
  }
  // Once it said "no item", the queue stays at its end.
  if (auto again = c.fetch())
  {
    atomicAdd(bad_index, 1000u);
  }
}

template <unsigned K>
__global__ void by_for_each(ptxw::work_queue<job> q, const unsigned* position, unsigned* hits, unsigned* bad_index)
{
  ptxw::for_each_item<K>(q, [&](const job& j) {
    run(j, ~0ull, position, hits, bad_index);
  });
}

// Planted misuse. mode 1: the upper half of block 0 returns before fetching (R15). mode 2: after
// the loop, the empty item is read (R19).
__global__ void misuse(ptxw::work_queue<job> q, unsigned* hits, int mode, unsigned* read)
{
  __shared__ ptxw::queue_slot slot;
  if (mode == 1 && blockIdx.x == 0 && threadIdx.x >= blockDim.x / 2)
  {
    return;
  }
  auto c = ptxw::open_queue<1>(slot, q);
  auto it = c.fetch();
  for (; it; it = c.fetch())
  {
    if (threadIdx.x == 0)
    {
      atomicAdd(&hits[it->id], 1u);
    }
  }
  if (mode == 2 && threadIdx.x == 0 && blockIdx.x == 0)
  {
    *read = (*it).id; // R19: no item; checked mode reports and reads T{}
  }
}

unsigned sms()
{
  cudaDeviceProp prop{};
  (void) cudaGetDeviceProperties(&prop, 0);
  return static_cast<unsigned>(prop.multiProcessorCount);
}

// n jobs in a shuffled order, costs skewed: mostly 0.2-2 us, 1% of them 50-100 us.
std::vector<job> skewed_jobs(unsigned n, unsigned seed)
{
  std::mt19937 rng(seed);
  std::vector<job> jobs(n);
  for (unsigned i = 0; i < n; ++i)
  {
    const bool heavy = rng() % 100 == 0;
    jobs[i]          = {i, static_cast<unsigned>(heavy ? 50000u + rng() % 50000u : 200u + rng() % 1800u)};
  }
  std::shuffle(jobs.begin(), jobs.end(), rng);
  return jobs;
}

class WorkQueue : public Gpu
{
protected:
  void SetUp() override
  {
    Gpu::SetUp();
    if (!IsSkipped() && !HasFatalFailure())
    {
      diag_.emplace(256);
    }
  }

  // Launches `kernel` on `blocks` blocks over `jobs`; every job exactly once, indices right.
  template <class Kernel>
  void expect_each_once(Kernel kernel, unsigned blocks, const std::vector<job>& jobs, const char* what)
  {
    const unsigned n = static_cast<unsigned>(jobs.size());
    ptxw::work_queue_host<job> q(n);
    q.fill(jobs);
    std::vector<unsigned> position(n);
    for (unsigned i = 0; i < n; ++i)
    {
      position[jobs[i].id] = i;
    }
    DeviceBuffer<unsigned> pos, hits, bad;
    PTXW_CUDA_OK(pos.allocate(n));
    PTXW_CUDA_OK(pos.upload(position));
    PTXW_CUDA_OK(hits.allocate(n));
    PTXW_CUDA_OK(hits.fill_bytes(0));
    PTXW_CUDA_OK(bad.allocate(1));
    PTXW_CUDA_OK(bad.fill_bytes(0));
    kernel<<<blocks, kThreads>>>(q.view(diag_->device_sink()), pos.get(), hits.get(), bad.get());
    PTXW_LAUNCH_OK();
    std::vector<unsigned> h, b;
    PTXW_CUDA_OK(hits.download(h));
    PTXW_CUDA_OK(bad.download(b));
    unsigned wrong = 0;
    for (unsigned x : h)
    {
      wrong += x != 1;
    }
    EXPECT_EQ(wrong, 0u) << what << " on " << blocks << " blocks: items not run exactly once, of " << n;
    EXPECT_EQ(b[0], 0u) << what << ": items with the wrong index(), or a fetch after the end that gave an item";
    const auto reports = ptxw_test::read_reports(*diag_);
    EXPECT_EQ(reports.total, 0u) << what << ": a conforming kernel made reports:\n" << reports.text;
  }

  std::optional<ptxw::checked::diagnostics> diag_;
};

// f(std::integral_constant<unsigned, K>) for K = 1 .. N.
template <class F, unsigned... K>
void for_batches(F&& f, std::integer_sequence<unsigned, K...>)
{
  (f(std::integral_constant<unsigned, K + 1>{}), ...);
}

TEST_F(WorkQueue, ExactlyOnceUnderSkewedCostsBatchesOneToEight)
{
  const auto jobs = skewed_jobs(30000, 7);
  for (unsigned blocks : {4 * sms(), 40 * sms()}) // persistent; more blocks than fit (they queue up)
  {
    for_batches(
      [&](auto k) {
        constexpr unsigned K = decltype(k)::value;
        SCOPED_TRACE(::testing::Message() << "batches of up to " << K);
        expect_each_once(by_fetch<K>, blocks, jobs, "fetch");
        expect_each_once(by_for_each<K>, blocks, jobs, "for_each_item");
      },
      std::make_integer_sequence<unsigned, 8>{});
  }
}

TEST_F(WorkQueue, AnExhaustedQueueHandsOutNothingUntilReset)
{
  const auto jobs = skewed_jobs(5000, 3);
  ptxw::work_queue_host<job> q(8000);
  q.fill(jobs);
  std::vector<unsigned> position(5000);
  for (unsigned i = 0; i < 5000; ++i)
  {
    position[jobs[i].id] = i;
  }
  DeviceBuffer<unsigned> pos, hits, bad;
  PTXW_CUDA_OK(pos.allocate(5000));
  PTXW_CUDA_OK(pos.upload(position));
  PTXW_CUDA_OK(hits.allocate(5000));
  PTXW_CUDA_OK(hits.fill_bytes(0));
  PTXW_CUDA_OK(bad.allocate(1));
  PTXW_CUDA_OK(bad.fill_bytes(0));
  auto count = [&](unsigned expected) {
    std::vector<unsigned> h;
    PTXW_CUDA_OK(hits.download(h));
    unsigned wrong = 0;
    for (unsigned x : h)
    {
      wrong += x != expected;
    }
    EXPECT_EQ(wrong, 0u) << "items not run " << expected << " times";
  };
  by_for_each<4><<<64, kThreads>>>(q.view(diag_->device_sink()), pos.get(), hits.get(), bad.get());
  by_fetch<2><<<64, kThreads>>>(q.view(diag_->device_sink()), pos.get(), hits.get(), bad.get()); // exhausted
  PTXW_LAUNCH_OK();
  count(1);
  q.reset();
  by_fetch<3><<<64, kThreads>>>(q.view(diag_->device_sink()), pos.get(), hits.get(), bad.get());
  PTXW_LAUNCH_OK();
  count(2);
  std::vector<unsigned> b;
  PTXW_CUDA_OK(bad.download(b));
  EXPECT_EQ(b[0], 0u) << "an item with the wrong index(), or a fetch after the end that gave an item";
  EXPECT_EQ(ptxw_test::read_reports(*diag_).total, 0u);
}

TEST_F(WorkQueue, FillsFromHostAndDeviceAndRefusesMoreThanItsCapacity)
{
  ptxw::work_queue_host<job> q(1000);
  EXPECT_EQ(q.capacity(), 1000u);
  EXPECT_EQ(q.size(), 0u);
  try
  {
    q.fill(std::vector<job>(1001));
    ADD_FAILURE() << "no exception for 1001 items in a queue of 1000";
  }
  catch (const std::runtime_error& e)
  {
    EXPECT_NE(std::string(e.what()).find("ptxw: R18"), std::string::npos) << e.what();
  }
  // From device memory: the items of another queue.
  const auto jobs = skewed_jobs(1000, 5);
  ptxw::work_queue_host<job> source(1000);
  source.fill(jobs);
  q.fill(cuda::std::span<const job>(source.items(), 1000));
  EXPECT_EQ(q.size(), 1000u);
  std::vector<job> back(1000);
  PTXW_CUDA_OK(cudaMemcpy(back.data(), q.items(), sizeof(job) * 1000, cudaMemcpyDeviceToHost));
  for (unsigned i = 0; i < 1000; ++i)
  {
    ASSERT_EQ(back[i].id, jobs[i].id);
  }
  try
  {
    ptxw::work_queue_host<job> small(10);
    small.fill(cuda::std::span<const job>(source.items(), 1000));
    ADD_FAILURE() << "no exception for 1000 device items in a queue of 10";
  }
  catch (const std::runtime_error& e)
  {
    EXPECT_NE(std::string(e.what()).find("ptxw: R18"), std::string::npos) << e.what();
  }
  // An empty queue: no items, no reports.
  ptxw::work_queue_host<job> empty(0);
  empty.fill(std::vector<job>{});
  DeviceBuffer<unsigned> hits, bad;
  PTXW_CUDA_OK(hits.allocate(1));
  PTXW_CUDA_OK(hits.fill_bytes(0));
  PTXW_CUDA_OK(bad.allocate(1));
  PTXW_CUDA_OK(bad.fill_bytes(0));
  by_fetch<1><<<8, kThreads>>>(empty.view(diag_->device_sink()), hits.get(), hits.get(), bad.get());
  by_for_each<8><<<8, kThreads>>>(empty.view(diag_->device_sink()), hits.get(), hits.get(), bad.get());
  PTXW_LAUNCH_OK();
  std::vector<unsigned> h;
  PTXW_CUDA_OK(hits.download(h));
  EXPECT_EQ(h[0], 0u) << "an empty queue handed out an item";
  EXPECT_EQ(ptxw_test::read_reports(*diag_).total, 0u);
}

class WorkQueueChecked : public WorkQueue
{
protected:
  void SetUp() override
  {
    PTXW_SKIP_UNLESS_CHECKED();
    WorkQueue::SetUp();
  }
};

TEST_F(WorkQueueChecked, R15AFetchNotEveryThreadMakes)
{
  const auto jobs = skewed_jobs(2000, 11);
  ptxw::work_queue_host<job> q(2000);
  q.fill(jobs);
  DeviceBuffer<unsigned> hits, read;
  PTXW_CUDA_OK(hits.allocate(2000));
  PTXW_CUDA_OK(hits.fill_bytes(0));
  PTXW_CUDA_OK(read.allocate(1));
  misuse<<<8, kThreads>>>(q.view(diag_->device_sink()), hits.get(), 1, read.get());
  PTXW_LAUNCH_OK();
  const auto reports = ptxw_test::read_reports(*diag_);
  EXPECT_TRUE(reports.has(15)) << reports.text;
  EXPECT_EQ(reports.total, 2u) << "one report per calling warp of block 0:\n" << reports.text;
  for (const auto& d : diag_->read())
  {
    EXPECT_EQ(d.rule, 15u);
    EXPECT_EQ(d.block[0], 0u);
    EXPECT_EQ(d.detail, kThreads / 2) << "threads that fetched";
  }
  std::vector<unsigned> h;
  PTXW_CUDA_OK(hits.download(h));
  unsigned twice = 0;
  for (unsigned x : h)
  {
    twice += x > 1;
  }
  EXPECT_EQ(twice, 0u) << "an item ran twice";
}

TEST_F(WorkQueueChecked, R17UninitialisedQueue)
{
  const auto jobs = skewed_jobs(2000, 13);
  ptxw::work_queue_host<job> q(2000);
  q.fill(jobs);
  PTXW_CUDA_OK(cudaMemset(q.state(), 0xab, sizeof(ptxw::work_queue_state)));
  DeviceBuffer<unsigned> hits, bad;
  PTXW_CUDA_OK(hits.allocate(2000));
  PTXW_CUDA_OK(hits.fill_bytes(0));
  PTXW_CUDA_OK(bad.allocate(1));
  PTXW_CUDA_OK(bad.fill_bytes(0));
  by_fetch<1><<<8, kThreads>>>(q.view(diag_->device_sink()), hits.get(), hits.get(), bad.get());
  by_for_each<2><<<8, kThreads>>>(q.view(diag_->device_sink()), hits.get(), hits.get(), bad.get());
  PTXW_LAUNCH_OK();
  const auto reports = ptxw_test::read_reports(*diag_);
  EXPECT_EQ(reports.total, 16u) << "each block's leader of both launches:\n" << reports.text;
  for (const auto& d : diag_->read())
  {
    EXPECT_EQ(d.rule, 17u);
    EXPECT_EQ(d.detail, 0xababababu) << "the tag found";
  }
  std::vector<unsigned> h;
  PTXW_CUDA_OK(hits.download(h));
  EXPECT_EQ(std::accumulate(h.begin(), h.end(), 0u), 0u) << "items handed out from garbage";
}

TEST_F(WorkQueueChecked, R19ReadOfNoItem)
{
  const auto jobs = skewed_jobs(500, 17);
  ptxw::work_queue_host<job> q(500);
  q.fill(jobs);
  DeviceBuffer<unsigned> hits, read;
  PTXW_CUDA_OK(hits.allocate(500));
  PTXW_CUDA_OK(hits.fill_bytes(0));
  PTXW_CUDA_OK(read.allocate(1));
  PTXW_CUDA_OK(read.fill_bytes(0xff));
  misuse<<<8, kThreads>>>(q.view(diag_->device_sink()), hits.get(), 2, read.get());
  PTXW_LAUNCH_OK();
  const auto reports = ptxw_test::read_reports(*diag_);
  EXPECT_EQ(reports.total, 1u) << reports.text;
  EXPECT_TRUE(reports.has(19)) << reports.text;
  std::vector<unsigned> r, h;
  PTXW_CUDA_OK(read.download(r));
  EXPECT_EQ(r[0], 0u) << "no item reads as a value-initialised item";
  PTXW_CUDA_OK(hits.download(h));
  unsigned wrong = 0;
  for (unsigned x : h)
  {
    wrong += x != 1;
  }
  EXPECT_EQ(wrong, 0u);
}

} // namespace
