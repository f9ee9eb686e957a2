// The last-block guard on the GPU (checked mode on): one-launch integer reductions whose last block
// merges the partials, exact against a host sum, from 10^3 to 10^8 elements and from one block to
// ~98 000 of them; 10 000 consecutive launches on one ticket with no memset; 2D and 3D grids,
// clusters (last_cluster), a 64-bit ticket. A conforming kernel makes no report. And each planted
// misuse reported with its rule, nobody merging where the merge would be wrong, the ticket free
// again afterwards: threads of a block that do not all call (R15), a block that calls twice (R15),
// two launches on one ticket at once (R16), an uninitialised ticket (R17), a grid larger than the
// count type counts (R18, on the device and on the host).
#include <ptxw/inter_block/host/last_block.h>

#include "clc_launch.h"
#include "gpu.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

namespace {

constexpr unsigned kThreads = 256;

__device__ unsigned linear_thread()
{
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

// The block's sum, in every thread.
__device__ long long block_sum(long long v)
{
  __shared__ long long warp_sums[32];
  __shared__ long long total;
  const unsigned t = linear_thread(), threads = blockDim.x * blockDim.y * blockDim.z;
  for (int offset = 16; offset > 0; offset /= 2)
  {
    v += __shfl_down_sync(~0u, v, offset);
  }
  if (t % 32 == 0)
  {
    warp_sums[t / 32] = v;
  }
  __syncthreads();
  if (t == 0)
  {
    long long s = 0;
    for (unsigned w = 0; w < (threads + 31) / 32; ++w)
    {
      s += warp_sums[w];
    }
    total = s;
  }
  __syncthreads();
  return total;
}

__host__ __device__ int value_at(unsigned long long i)
{
  unsigned long long x = i * 0x9e3779b97f4a7c15ull;
  x ^= x >> 29;
  return static_cast<int>(x & 0x1fffff) - (1 << 20); // [-2^20, 2^20)
}

__global__ void fill(int* in, unsigned long long n)
{
  for (unsigned long long i = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<unsigned long long>(gridDim.x) * blockDim.x)
  {
    in[i] = value_at(i);
  }
}

// What the reduction kernels share: each block sums its grid-stride share, and its LAST thread
// (another warp than the leader's) publishes the partial; the merging block sums the partials.
__device__ long long block_part(const int* in, unsigned long long n, unsigned block, unsigned blocks)
{
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  long long sum          = 0;
  for (unsigned long long i = static_cast<unsigned long long>(block) * threads + linear_thread(); i < n;
       i += static_cast<unsigned long long>(blocks) * threads)
  {
    sum += in[i];
  }
  return block_sum(sum);
}

__device__ long long merge(const long long* partials, unsigned blocks)
{
  long long sum = 0;
  for (unsigned i = linear_thread(); i < blocks; i += blockDim.x * blockDim.y * blockDim.z)
  {
    sum += partials[i];
  }
  return block_sum(sum);
}

template <class Count>
__global__ void reduce(const int* in, unsigned long long n, long long* partials, long long* out,
                       ptxw::last_block_ticket<Count> ticket)
{
  const unsigned blocks = gridDim.x * gridDim.y * gridDim.z;
  const unsigned block  = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const long long part  = block_part(in, n, block, blocks);
  if (linear_thread() == blockDim.x * blockDim.y * blockDim.z - 1)
  {
    partials[block] = part;
  }
  if (ptxw::last_block(ticket))
  {
    const long long sum = merge(partials, blocks);
    if (linear_thread() == 0)
    {
      *out = sum;
    }
  }
}

// reduce() in a 1D grid whose blocks first read every partial (into `early`), block 0 publishing
// its own `late_ns` after the others. The merge waits for block 0 (the ticket's count), and reads
// no line of partials that its SM loaded before they were written (the acquire of the last
// ticket: CCTL.IVALL in SASS).
__global__ void reduce_late(const int* in, unsigned long long n, long long* partials, long long* early,
                            long long* out, unsigned long long late_ns, ptxw::last_block_ticket<> ticket)
{
  const long long before = merge(partials, gridDim.x);
  const long long part   = block_part(in, n, blockIdx.x, gridDim.x);
  const unsigned long long start = ptxw::checked::now_ns();
  while (blockIdx.x == 0 && ptxw::checked::now_ns() - start < late_ns)
  {
  }
  if (linear_thread() == 0)
  {
    early[blockIdx.x] = before;
  }
  if (linear_thread() == blockDim.x - 1)
  {
    partials[blockIdx.x] = part;
  }
  if (ptxw::last_block(ticket))
  {
    const long long sum = merge(partials, gridDim.x);
    if (linear_thread() == 0)
    {
      *out = sum;
    }
  }
}

// The cluster form: CTAs publish as above, the last cluster's rank-0 CTA merges.
__global__ void reduce_clusters(const int* in, unsigned long long n, long long* partials, long long* out,
                                ptxw::last_block_ticket<> ticket)
{
  const unsigned blocks = gridDim.x * gridDim.y * gridDim.z;
  const unsigned block  = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const long long part  = block_part(in, n, block, blocks);
  if (linear_thread() == blockDim.x * blockDim.y * blockDim.z - 1)
  {
    partials[block] = part;
  }
  if (ptxw::last_cluster(ticket) && ptxw::ptx::get_sreg_cluster_ctarank() == 0)
  {
    const long long sum = merge(partials, blocks);
    if (linear_thread() == 0)
    {
      *out = sum;
    }
  }
}

// Planted misuse. mode 1: block 1's upper half returns before the guard (R15). mode 2: every block
// calls twice (R15). Otherwise like reduce(), with *merges counting the blocks that merged.
__global__ void misuse(const int* in, unsigned long long n, long long* partials, long long* out, unsigned* merges,
                       ptxw::last_block_ticket<> ticket, int mode)
{
  const unsigned blocks = gridDim.x;
  const long long part  = block_part(in, n, blockIdx.x, blocks);
  if (threadIdx.x == blockDim.x - 1)
  {
    partials[blockIdx.x] = part;
  }
  if (mode == 1 && blockIdx.x == 1 && threadIdx.x >= blockDim.x / 2)
  {
    return;
  }
  bool last = ptxw::last_block(ticket);
  if (mode == 2)
  {
    last |= ptxw::last_block(ticket);
  }
  if (last && threadIdx.x == 0)
  {
    long long sum = 0;
    for (unsigned i = 0; i < blocks; ++i)
    {
      sum += partials[i];
    }
    *out = sum;
    atomicAdd(merges, 1u);
  }
}

// R16: two launches on one ticket at once. In launch A, block 0 takes its ticket and says so
// (*started); B's two blocks wait for that, take theirs and count themselves (*went); A's block 1
// waits for both. Waits are bounded (1 s): launches that do not overlap fail the test, not hang it.
__device__ bool wait_for(const unsigned* flag, unsigned value)
{
  const unsigned long long start = ptxw::checked::now_ns();
  while (*static_cast<const volatile unsigned*>(flag) < value)
  {
    if (ptxw::checked::now_ns() - start > 1000000000ull)
    {
      return false;
    }
  }
  return true;
}

__global__ void overlapping(long long* out, unsigned* started, unsigned* went, bool second, // started[2]: time-outs
                            ptxw::last_block_ticket<> ticket)
{
  if (threadIdx.x == 0 && (second || blockIdx.x == 1) && !wait_for(second ? started : went, second ? 1u : 2u))
  {
    atomicAdd(started + 2, 1u); // timed out: the launches did not overlap
  }
  __syncthreads();
  const bool last = ptxw::last_block(ticket);
  if (threadIdx.x == 0 && (second || blockIdx.x == 0))
  {
    __threadfence();
    atomicAdd(second ? went : started, 1u);
  }
  if (last && threadIdx.x == 0)
  {
    *out = second ? 2 : 1;
  }
}

// R18: more blocks than a 32-bit ticket counts; the guard says no, block (0,0,0) reports.
__global__ void too_many(unsigned* merges, ptxw::last_block_ticket<> ticket)
{
  if (ptxw::last_block(ticket) && threadIdx.x == 0)
  {
    atomicAdd(merges, 1u);
  }
}

unsigned resident_blocks()
{
  cudaDeviceProp prop{};
  (void) cudaGetDeviceProperties(&prop, 0);
  return static_cast<unsigned>(prop.multiProcessorCount) * 4;
}

class LastBlock : public Gpu
{
protected:
  void SetUp() override
  {
    Gpu::SetUp();
    if (!IsSkipped() && !HasFatalFailure())
    {
      diag_.emplace(256);
      sum_.emplace();
      EXPECT_EQ(sum_->allocate(1), cudaSuccess);
    }
  }

  // The input: n values on the device and their exact sum, computed on the host; and room for the
  // partials of up to `blocks` blocks.
  long long input(unsigned long long n, unsigned blocks)
  {
    partials(blocks);
    return input(n);
  }
  long long input(unsigned long long n)
  {
    if (!in_ || in_->size() < n)
    {
      in_.emplace();
      EXPECT_EQ(in_->allocate(n), cudaSuccess);
      fill<<<1024, 256>>>(in_->get(), n);
      EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    }
    long long sum = 0;
    for (unsigned long long i = 0; i < n; ++i)
    {
      sum += value_at(i);
    }
    return sum;
  }

  void partials(unsigned blocks)
  {
    if (!partials_ || partials_->size() < blocks)
    {
      partials_.emplace();
      EXPECT_EQ(partials_->allocate(blocks), cudaSuccess);
    }
  }

  // `reduce` over the first n inputs into out, on ticket.
  template <class Count>
  void launch_reduce(dim3 grid, dim3 block, unsigned long long n, long long* out,
                     const ptxw::last_block_ticket_host<Count>& ticket)
  {
    reduce<<<grid, block>>>(in_->get(), n, partials_->get(), out, ticket.view(diag_->device_sink()));
  }

  // `reps` launches of launch(out) in a row, each merging `expected` (what: the launch's shape).
  template <class Launch>
  void expect_sums(int reps, long long expected, Launch launch, const std::string& what)
  {
    for (int rep = 0; rep < reps; ++rep)
    {
      long long sum = 0;
      ASSERT_NO_FATAL_FAILURE(merged_sum(launch, sum));
      ASSERT_EQ(sum, expected) << what << ", launch " << rep;
    }
  }

  // The sum that launch(out) merged into out, a slot filled with 0xff bytes before it: a launch that
  // merged nowhere leaves a value that no sum here has.
  template <class Launch>
  void merged_sum(Launch launch, long long& sum)
  {
    PTXW_CUDA_OK(sum_->fill_bytes(0xff));
    launch(sum_->get());
    PTXW_LAUNCH_OK();
    std::vector<long long> got;
    PTXW_CUDA_OK(sum_->download(got));
    sum = got[0];
  }

  void expect_no_reports()
  {
    const auto reports = ptxw_test::read_reports(*diag_);
    EXPECT_EQ(reports.total, 0u) << "a conforming kernel made reports:\n" << reports.text;
  }

  // The ticket is free: count 0, not poisoned, no owner.
  template <class Count>
  void expect_free(const ptxw::last_block_ticket_host<Count>& t)
  {
    ptxw::last_block_ticket_state<Count> s{};
    ASSERT_EQ(cudaMemcpy(&s, t.state(), sizeof s, cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(s.arrived, Count(0));
    EXPECT_EQ(s.poisoned, 0u);
    EXPECT_EQ(s.owner, 0ull);
  }

  // A conforming run: no report, and the ticket free again.
  template <class Count>
  void expect_clean(const ptxw::last_block_ticket_host<Count>& t)
  {
    expect_no_reports();
    expect_free(t);
  }

  std::optional<ptxw::checked::diagnostics> diag_;
  std::optional<DeviceBuffer<int>> in_;
  std::optional<DeviceBuffer<long long>> partials_;
  std::optional<DeviceBuffer<long long>> sum_; // merged_sum's slot
};

// Grids for n elements: few blocks that loop (at most 4 per SM), and one block per 1024 elements.
std::vector<unsigned> grids_for(unsigned long long n)
{
  const unsigned long long per_tile = kThreads * 4ull;
  const unsigned tiles              = static_cast<unsigned>((n + per_tile - 1) / per_tile);
  const unsigned persistent         = tiles < resident_blocks() ? tiles : resident_blocks();
  return {persistent, tiles};
}

TEST_F(LastBlock, ExactSumsFromOneBlockToTensOfThousands)
{
  ptxw::last_block_ticket_host<> ticket;
  for (unsigned long long n : {1000ull, 10007ull, 100000ull, 1000003ull, 10000000ull, 100000000ull})
  {
    const long long expected = input(n);
    for (unsigned blocks : grids_for(n))
    {
      partials(blocks);
      long long sum = 0;
      ASSERT_NO_FATAL_FAILURE(
        merged_sum([&](long long* out) { launch_reduce(blocks, kThreads, n, out, ticket); }, sum));
      EXPECT_EQ(sum, expected) << n << " elements, " << blocks << " blocks";
    }
  }
  expect_clean(ticket);
}

// 10 000 launches back to back on one ticket, never reset by the host: sizes and grids change
// from launch to launch, each launch's sum lands in its own slot and is checked.
TEST_F(LastBlock, TenThousandLaunchesWithoutAMemset)
{
  const std::vector<unsigned long long> sizes{1000, 10007, 100000, 1000003, 10000000, 100000000};
  std::vector<long long> expected;
  for (auto n : sizes)
  {
    expected.push_back(input(n));
  }
  partials(static_cast<unsigned>((sizes.back() + kThreads * 4 - 1) / (kThreads * 4)));
  constexpr unsigned kLaunches = 10000;
  DeviceBuffer<long long> out;
  PTXW_CUDA_OK(out.allocate(kLaunches));
  PTXW_CUDA_OK(out.fill_bytes(0xff));
  ptxw::last_block_ticket_host<> ticket;
  for (unsigned k = 0; k < kLaunches; ++k)
  {
    const unsigned long long n = sizes[k % sizes.size()];
    const auto grids           = grids_for(n);
    launch_reduce(grids[(k / sizes.size()) % 2], kThreads, n, out.get() + k, ticket);
  }
  PTXW_LAUNCH_OK();
  std::vector<long long> got;
  PTXW_CUDA_OK(out.download(got));
  unsigned wrong = 0;
  for (unsigned k = 0; k < kLaunches; ++k)
  {
    wrong += got[k] != expected[k % sizes.size()];
  }
  EXPECT_EQ(wrong, 0u) << "launches whose merged sum is wrong (or missing), of " << kLaunches;
  expect_clean(ticket);
}

// The merge sees every partial: that of a block 50 us later than the others, and those its block
// read before they were written (stale values: 0xff bytes).
TEST_F(LastBlock, MergeSeesALateBlocksPartialAndNoneItsBlockReadBefore)
{
  const unsigned long long n = 1000003;
  const unsigned blocks      = 1024;
  const long long expected   = input(n, blocks);
  DeviceBuffer<long long> early;
  PTXW_CUDA_OK(early.allocate(blocks));
  ptxw::last_block_ticket_host<> ticket;
  for (unsigned long long late_ns : {0ull, 50000ull})
  {
    for (int rep = 0; rep < 10; ++rep)
    {
      PTXW_CUDA_OK(partials_->fill_bytes(0xff));
      long long sum = 0;
      ASSERT_NO_FATAL_FAILURE(merged_sum(
        [&](long long* out) {
          reduce_late<<<blocks, kThreads>>>(in_->get(), n, partials_->get(), early.get(), out, late_ns,
                                            ticket.view(diag_->device_sink()));
        },
        sum));
      ASSERT_EQ(sum, expected) << "block 0 " << late_ns << " ns late, launch " << rep;
    }
  }
  expect_clean(ticket);
}

TEST_F(LastBlock, TwoAndThreeDimensionalGrids)
{
  const unsigned long long n = 1000003;
  const long long expected   = input(n, 1024);
  ptxw::last_block_ticket_host<> ticket;
  for (dim3 grid : {dim3(7, 5, 1), dim3(4, 3, 6), dim3(1, 9, 1), dim3(1, 1, 1), dim3(16, 8, 8)})
  {
    ASSERT_NO_FATAL_FAILURE(expect_sums(
      50, expected, [&](long long* out) { launch_reduce(grid, dim3(32, 2, 2), n, out, ticket); },
      "grid " + std::to_string(grid.x) + "x" + std::to_string(grid.y) + "x" + std::to_string(grid.z)));
  }
  expect_clean(ticket);
}

TEST_F(LastBlock, U64TicketCounts)
{
  const unsigned long long n = 10000000;
  const long long expected   = input(n, 4096);
  ptxw::last_block_ticket_host<unsigned long long> ticket;
  DeviceBuffer<long long> out;
  PTXW_CUDA_OK(out.allocate(1000));
  for (unsigned k = 0; k < 1000; ++k)
  {
    launch_reduce(k % 2 ? 4096u : 300u, kThreads, n, out.get() + k, ticket);
  }
  PTXW_LAUNCH_OK();
  std::vector<long long> got;
  PTXW_CUDA_OK(out.download(got));
  for (unsigned k = 0; k < 1000; ++k)
  {
    ASSERT_EQ(got[k], expected) << "launch " << k;
  }
  expect_clean(ticket);
}

TEST_F(LastBlock, LastClusterOfClustersOfTwoAndFour)
{
  const unsigned long long n = 1000003;
  const long long expected   = input(n, 512);
  ptxw::last_block_ticket_host<> ticket;
  struct Shape
  {
    dim3 grid, cluster;
  };
  for (Shape s : {Shape{dim3(64), dim3(2)}, Shape{dim3(256), dim3(4)}, Shape{dim3(8, 4), dim3(2, 2)},
                  Shape{dim3(2), dim3(2)}})
  {
    ASSERT_NO_FATAL_FAILURE(expect_sums(
      100, expected,
      [&](long long* out) {
        PTXW_CUDA_OK(ptxw::clc::launch_in_clusters(reduce_clusters, s.grid, dim3(kThreads), s.cluster, 0, 0,
                                                    in_->get(), n, partials_->get(), out,
                                                    ticket.view(diag_->device_sink())));
      },
      "grid " + std::to_string(s.grid.x) + "x" + std::to_string(s.grid.y) + " in clusters of "
        + std::to_string(s.cluster.x) + "x" + std::to_string(s.cluster.y)));
  }
  expect_clean(ticket);
}

TEST(LastBlockHost, GridLargerThanTheCountIsAnError)
{
  EXPECT_NO_THROW(ptxw::last_block_ticket_host<>::check_grid(dim3(65537, 65535, 1))); // 2^32 - 1 blocks
  try
  {
    ptxw::last_block_ticket_host<>::check_grid(dim3(65538, 65535, 1));
    ADD_FAILURE() << "no exception for 2^32 + 65534 blocks on a 32-bit ticket";
  }
  catch (const std::runtime_error& e)
  {
    EXPECT_NE(std::string(e.what()).find("ptxw: R18"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(ptxw::last_block_ticket_host<unsigned long long>::check_grid(dim3(65538, 65535, 1)));
  // In clusters of 2 the ticket counts clusters: 2^32 - 1 of them fit, one row more does not.
  EXPECT_NO_THROW(ptxw::last_block_ticket_host<>::check_grid(dim3(131074, 65535, 1), dim3(2, 1, 1)));
  EXPECT_THROW(ptxw::last_block_ticket_host<>::check_grid(dim3(131076, 65535, 1), dim3(2, 1, 1)), std::runtime_error);
}

class LastBlockChecked : public LastBlock
{
protected:
  static constexpr unsigned long long kItems = 100000;

  void SetUp() override
  {
    PTXW_SKIP_UNLESS_CHECKED();
    LastBlock::SetUp();
    if (!IsSkipped() && !HasFatalFailure())
    {
      expected_ = input(kItems, 64);
    }
  }

  // What a launch of `misuse` on 8 blocks left: the merges and the sum the merge wrote (0 if none).
  struct merged
  {
    unsigned merges = 0;
    long long sum   = 0;
  };

  // `misuse` on the fixture's items into `r`; mode 0: every thread calls once, 1: half of block 1's
  // threads do not call, 2: every block calls twice.
  void run_misuse(ptxw::last_block_ticket_host<>& ticket, int mode, merged& r)
  {
    DeviceBuffer<long long> out;
    DeviceBuffer<unsigned> merges;
    PTXW_CUDA_OK(out.allocate_zeroed(1));
    PTXW_CUDA_OK(merges.allocate_zeroed(1));
    misuse<<<8, kThreads>>>(in_->get(), kItems, partials_->get(), out.get(), merges.get(),
                            ticket.view(diag_->device_sink()), mode);
    PTXW_LAUNCH_OK();
    std::vector<unsigned> m;
    std::vector<long long> got;
    PTXW_CUDA_OK(merges.download(m));
    PTXW_CUDA_OK(out.download(got));
    r = {m[0], got[0]};
  }

  long long expected_ = 0;

  // Expects reports of `rule` only, `count` of them.
  void expect_reports(unsigned rule, unsigned count)
  {
    const auto reports = ptxw_test::read_reports(*diag_);
    EXPECT_EQ(reports.total, count) << reports.text;
    for (unsigned r : reports.rules)
    {
      EXPECT_EQ(r, rule) << reports.text;
    }
    diag_->clear();
  }

  // After a reported launch: the same ticket, unreset, merges the next launch right and silently.
  void expect_clean_launch(ptxw::last_block_ticket_host<>& ticket, unsigned long long n, long long expected)
  {
    long long sum = 0;
    ASSERT_NO_FATAL_FAILURE(merged_sum([&](long long* out) { launch_reduce(16, kThreads, n, out, ticket); }, sum));
    EXPECT_EQ(sum, expected) << "the launch after the reported one";
    expect_no_reports();
  }
};

TEST_F(LastBlockChecked, R15ThreadsOfABlockDisagree)
{
  ptxw::last_block_ticket_host<> ticket;
  merged r;
  run_misuse(ticket, 1, r);
  const auto reports = ptxw_test::read_reports(*diag_);
  ASSERT_EQ(reports.total, 1u) << reports.text;
  const auto d = diag_->read()[0];
  EXPECT_EQ(d.rule, 15u);
  EXPECT_EQ(d.block[0], 1u);
  EXPECT_EQ(d.phase, 1u) << "the first call";
  EXPECT_EQ(d.detail, kThreads / 2) << "threads that called";
  diag_->clear();
  EXPECT_EQ(r.merges, 0u) << "a block merged although block 1's partial may be incomplete";
  expect_free(ticket);
  expect_clean_launch(ticket, kItems, expected_);
}

TEST_F(LastBlockChecked, R15ABlockCallsTwice)
{
  ptxw::last_block_ticket_host<> ticket;
  merged r;
  run_misuse(ticket, 2, r);
  const auto reports = ptxw_test::read_reports(*diag_);
  EXPECT_EQ(reports.total, 8u) << "one report per block's second call:\n" << reports.text;
  for (const auto& d : diag_->read())
  {
    EXPECT_EQ(d.rule, 15u);
    EXPECT_EQ(d.phase, 2u) << "the second call";
  }
  diag_->clear();
  EXPECT_EQ(r.merges, 1u) << "the second calls took no ticket: exactly one merge, after all eight first calls";
  EXPECT_EQ(r.sum, expected_);
  expect_free(ticket);
  expect_clean_launch(ticket, kItems, expected_);
}

TEST_F(LastBlockChecked, R16TwoLaunchesOnOneTicketAtOnce)
{
  ptxw::last_block_ticket_host<> ticket;
  DeviceBuffer<long long> out;
  DeviceBuffer<unsigned> flags;
  PTXW_CUDA_OK(out.allocate_zeroed(2));
  PTXW_CUDA_OK(flags.allocate_zeroed(3));
  cudaStream_t a, b;
  PTXW_CUDA_OK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
  PTXW_CUDA_OK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
  overlapping<<<2, 64, 0, a>>>(out.get(), flags.get(), flags.get() + 1, false, ticket.view(diag_->device_sink()));
  overlapping<<<2, 64, 0, b>>>(out.get() + 1, flags.get(), flags.get() + 1, true, ticket.view(diag_->device_sink()));
  PTXW_LAUNCH_OK();
  PTXW_CUDA_OK(cudaStreamDestroy(a));
  PTXW_CUDA_OK(cudaStreamDestroy(b));
  std::vector<unsigned> f;
  PTXW_CUDA_OK(flags.download(f));
  ASSERT_TRUE(f[0] == 1 && f[1] == 2 && f[2] == 0) << "the launches did not overlap; nothing to check";
  expect_reports(16, 2); // both blocks of the second launch
  std::vector<long long> got;
  PTXW_CUDA_OK(out.download(got));
  EXPECT_EQ(got[0], 0) << "the first launch merged although the second one's blocks touched its ticket";
  EXPECT_EQ(got[1], 0) << "the second launch merged";
  expect_free(ticket);
  expect_clean_launch(ticket, kItems, expected_);
}

TEST_F(LastBlockChecked, R17UninitialisedTicket)
{
  ptxw::last_block_ticket_host<> ticket;
  PTXW_CUDA_OK(cudaMemset(ticket.state(), 0xab, sizeof(ptxw::last_block_ticket_state<unsigned>)));
  merged r;
  run_misuse(ticket, 0, r);
  const auto records = diag_->read();
  expect_reports(17, 8); // every block's leader
  EXPECT_EQ(records.empty() ? 0u : records[0].detail, 0xababababu) << "the tag found";
  EXPECT_EQ(r.merges, 0u) << "a block merged on garbage";
  ticket.reset();
  expect_clean_launch(ticket, kItems, expected_);
}

TEST_F(LastBlockChecked, R18MoreBlocksThanTheCountCounts)
{
  ptxw::last_block_ticket_host<> ticket;
  DeviceBuffer<unsigned> merges;
  PTXW_CUDA_OK(merges.allocate_zeroed(1));
  too_many<<<dim3(65538, 65535, 1), 32>>>(merges.get(), ticket.view(diag_->device_sink())); // 2^32 + 65534 blocks
  PTXW_LAUNCH_OK();
  expect_reports(18, 1);
  std::vector<unsigned> m;
  PTXW_CUDA_OK(merges.download(m));
  EXPECT_EQ(m[0], 0u) << "a block merged although tickets wrapped around";
  expect_free(ticket);
}

} // namespace
