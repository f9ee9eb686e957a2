// ptxw/algorithms.h: the device-scope algorithms. DeviceArgs runs without a GPU (the checks before any
// CUDA call: size query, too small a buffer, bad arguments); the others run on the H100 against a
// CPU reference.
#include <ptxw/algorithms.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "device_fixture.h"

namespace {

struct count_hits
{
  unsigned* hits;
  template <class I>
  __device__ void operator()(I i) const
  {
    atomicAdd(hits + i, 1u);
  }
};

// The 3D form: each coordinate within its extent, and the linear index x-fastest.
struct count_hits_3d
{
  unsigned* hits;
  unsigned long long nx, ny, nz;
  __device__ void operator()(unsigned long long x, unsigned long long y, unsigned long long z) const
  {
    if (x < nx && y < ny && z < nz)
    {
      atomicAdd(hits + x + nx * (y + ny * z), 1u);
    }
  }
};

// The CTA that ran each index.
struct record_block
{
  unsigned* block;
  __device__ void operator()(unsigned i) const
  {
    block[i] = blockIdx.x;
  }
};

// The thread that ran each index, counted; thread 0 of every CTA waits 20 us an index.
struct record_thread
{
  unsigned* thread;
  unsigned* hits;
  __device__ void operator()(unsigned i) const
  {
    if (threadIdx.x == 0)
    {
      sleep_ns(20000);
    }
    thread[i] = threadIdx.x;
    atomicAdd(hits + i, 1u);
  }
};

struct job
{
  unsigned id;
  unsigned spin;
};

// Every thread of the block takes part (a block-wide job): thread 0 counts, after a barrier.
struct run_job
{
  unsigned* hits;
  __device__ void operator()(const job& j) const
  {
    __shared__ unsigned seen;
    if (threadIdx.x == 0)
    {
      seen = 0;
    }
    __syncthreads();
    atomicAdd(&seen, 1u);
    __syncthreads();
    if (threadIdx.x == 0 && seen == blockDim.x)
    {
      atomicAdd(hits + j.id, 1u);
    }
  }
};

struct max_op
{
  __host__ __device__ long long operator()(long long a, long long b) const
  {
    return a > b ? a : b;
  }
};

// Selectors that differ from the default: the faithful emulation, and clusters of 2.
struct emulated_selector
{
  constexpr ptxw::device::for_each_policy operator()(ptxw::device::compute_capability) const
  {
    return {128, 2, 1, ptxw::clc::backend_id::emulated};
  }
};
// The default's shape on counter_t, whose persistent CTAs each take their own tile first.
struct counter_selector
{
  constexpr ptxw::device::for_each_policy operator()(ptxw::device::compute_capability) const
  {
    return {512, 32, 1, ptxw::clc::backend_id::counter};
  }
};
// Tiles of up to 8 rounds whose last 4 go to whichever thread is free first.
struct shared_selector
{
  constexpr ptxw::device::for_each_policy operator()(ptxw::device::compute_capability) const
  {
    return {512, 8, 1, ptxw::clc::backend_id::counter, 4};
  }
};
// Stolen tiles of up to 8 rounds, 4 shared (automatic: counter_t on sm_90), in at least one wave.
struct stealing_selector
{
  constexpr ptxw::device::for_each_policy operator()(ptxw::device::compute_capability) const
  {
    return {128, 8, 1, ptxw::clc::backend_id::automatic, 4};
  }
};
// A plain launch of tiles of up to 5 rounds, the last 2 shared.
struct plain_shared_selector
{
  constexpr ptxw::device::for_each_policy operator()(ptxw::device::compute_capability) const
  {
    return {128, 5, 1, ptxw::clc::backend_id::automatic, 2, 1, 0, false};
  }
};
// A plain launch of CUB's tiles of 3 rounds (no shared rounds), in clusters of 2: the plan's rounds
// can be fewer than the tile's, and a cluster's last tile can lie wholly past n.
struct plain_cluster_selector
{
  constexpr ptxw::device::for_each_policy operator()(ptxw::device::compute_capability) const
  {
    return {128, 3, 2, ptxw::clc::backend_id::automatic, 0, 1, 0, false};
  }
};
struct cluster_selector
{
  constexpr ptxw::device::for_each_policy operator()(ptxw::device::compute_capability) const
  {
    return {128, 4, 2, ptxw::clc::backend_id::counter};
  }
};

int value_at(std::size_t i)
{
  return static_cast<int>((i * 2654435761u) % 2001) - 1000;
}

} // namespace

// ---- without a GPU: what is checked before any CUDA call ----

TEST(DeviceArgs, SizeQueryWritesTheSizeAndAtLeastTheStateItNeeds)
{
  std::size_t small = 0, large = 0, emulated_small = 0, emulated_large = 0;
  EXPECT_EQ(ptxw::device::for_each_canceled(nullptr, small, 1000, count_hits{nullptr}), cudaSuccess);
  EXPECT_EQ(ptxw::device::for_each_canceled(nullptr, large, 100000000, count_hits{nullptr}), cudaSuccess);
  // counter_t and the hardware need the counters only; the emulation a claim and a response per tile.
  EXPECT_EQ(small, large);
  EXPECT_GE(small, 2 * sizeof(unsigned long long));
  EXPECT_EQ(ptxw::device::for_each_canceled<emulated_selector>(nullptr, emulated_small, 256, count_hits{nullptr}),
            cudaSuccess);
  EXPECT_EQ(ptxw::device::for_each_canceled<emulated_selector>(nullptr, emulated_large, 256 * 1001, count_hits{nullptr}),
            cudaSuccess);
  // Sized for one round per tile (the most tiles any device can be given): 2000 tiles more.
  EXPECT_GE(emulated_large - emulated_small, 2000 * (4 + 16));
  std::size_t r_small = 0, r_large = 0;
  EXPECT_EQ(ptxw::device::sum(nullptr, r_small, static_cast<const int*>(nullptr), static_cast<long long*>(nullptr), 10),
            cudaSuccess);
  EXPECT_EQ(ptxw::device::sum(nullptr, r_large, static_cast<const int*>(nullptr), static_cast<long long*>(nullptr),
                              1000000000),
            cudaSuccess);
  EXPECT_GT(r_large, r_small); // a partial per block, up to max_blocks
}

// How for_each_canceled cuts n indices for the units that fit at once: every row of block_threads
// indices in a tile, no tile without one, no round beyond the last, at most the policy's rounds,
// whole clusters, and where one wave does not take them all, whole waves (so the last wave leaves no
// CTA idle): the fewest, or the policy's waves where every tile keeps a row; the shared rounds in
// the policy's proportion, rounded down.
TEST(DeviceArgs, ForEachPlanCoversEveryRowInWholeWavesWithinThePolicysRounds)
{
  for (const ptxw::device::for_each_policy p : {ptxw::device::for_each_policy{512, 32, 1, {}},
                                                ptxw::device::for_each_policy{512, 64, 1, {}, 16},
                                                ptxw::device::for_each_policy{128, 4, 2, {}, 3},
                                                ptxw::device::for_each_policy{256, 16, 1, {}, 8, 4}})
  {
    for (unsigned long long resident : {1ull, 7ull, 264ull, 528ull})
    {
      for (unsigned long long n : {1ull, 511ull, 512ull, 513ull, 32768ull, 270336ull * 32, 270336ull * 32 + 1,
                                   8700000ull, 1ull << 24, 20000003ull, 1000000000ull})
      {
        const auto pl         = ptxw::device::detail::plan(p, n, resident);
        const auto rows       = ptxw::device::detail::rows(p, n);
        const auto wave       = resident * p.cluster;
        const std::string why = "n " + std::to_string(n) + " resident " + std::to_string(resident);
        EXPECT_GE(pl.tiles * pl.rounds, rows) << why;
        EXPECT_LT(pl.tiles * (pl.rounds - 1), rows) << why;
        EXPECT_LE(pl.rounds, p.rounds) << why;
        EXPECT_EQ(pl.tiles, pl.units * p.cluster) << why;
        EXPECT_LE(pl.tiles, (rows + p.cluster - 1) / p.cluster * p.cluster) << why; // no tile without a row
        const unsigned long long fewest = (rows + wave * p.rounds - 1) / (wave * p.rounds);
        const unsigned long long rowful = rows / wave; // whole waves in which every tile keeps a row
        const unsigned long long least  = std::min<unsigned long long>(p.waves, rowful);
        const unsigned long long waves  = std::max(fewest, least);
        if (rows > wave * p.rounds || (p.waves > 1 && rowful > 1))
        {
          EXPECT_EQ(pl.tiles % wave, 0u) << why;
          EXPECT_EQ(pl.tiles / wave, waves) << why; // the fewest, or the policy's waves
        }
        else
        {
          EXPECT_LE(pl.units, resident) << why;
        }
        EXPECT_LE(pl.shared * p.rounds, pl.rounds * p.shared_rounds) << why;
        EXPECT_GT((pl.shared + 1) * p.rounds, pl.rounds * p.shared_rounds) << why;
      }
    }
  }
  // On an H100 (528 resident CTAs of 512 threads), at tiles of up to 32 rounds: 2^24 indices in two
  // full waves of 32 rounds or 31, and 8700000 (just above one wave) in two waves of 17, not 532
  // tiles of 32. 128 threads, up to 8 rounds, 4 shared (1848 resident CTAs): 2^24 in 9 waves of 8
  // rounds, 4 shared, 2^25 in 18.
  const auto h = ptxw::device::detail::plan(ptxw::device::for_each_policy{512, 32, 1, {}}, 1ull << 24, 528);
  EXPECT_EQ(h.tiles, 1056u);
  EXPECT_EQ(h.rounds, 32);
  EXPECT_EQ(h.shared, 0);
  const auto j = ptxw::device::detail::plan(ptxw::device::for_each_policy{512, 32, 1, {}}, 8700000, 528);
  EXPECT_EQ(j.tiles, 1056u);
  EXPECT_EQ(j.rounds, 17);
  constexpr ptxw::device::for_each_policy d{128, 8, 1, {}, 4};
  const auto k = ptxw::device::detail::plan(d, 1ull << 24, 1848);
  EXPECT_EQ(k.tiles, 9u * 1848u);
  EXPECT_EQ(k.rounds, 8);
  EXPECT_EQ(k.shared, 4);
  EXPECT_EQ(ptxw::device::detail::plan(d, 1ull << 25, 1848).tiles, 18u * 1848u);
}

// A plain launch (steal false): every tile at once, whatever fits on the GPU -- the fewest tiles of
// at most the policy's rounds, whole clusters, the rows shared out evenly, the shared rounds in
// proportion. The default: a CTA of 256 threads per 512 indices.
TEST(DeviceArgs, ForEachPlainPlanIsEveryTileAtOnce)
{
  for (const ptxw::device::for_each_policy p : {ptxw::device::for_each_policy{256, 1, 1, {}, 0, 1, 0, false},
                                                ptxw::device::for_each_policy{128, 4, 2, {}, 2, 1, 0, false},
                                                ptxw::device::for_each_policy{512, 3, 1, {}, 1, 1, 0, false}})
  {
    for (unsigned long long n : {1ull, 511ull, 512ull, 513ull, 32768ull, 8700000ull, 20000003ull, 1000000000ull})
    {
      const auto rows       = ptxw::device::detail::rows(p, n);
      const auto pl         = ptxw::device::detail::plan(p, n, 1);
      const std::string why = "n " + std::to_string(n);
      EXPECT_EQ(pl.tiles, ptxw::device::detail::plan(p, n, 1848).tiles) << why; // whatever fits at once
      EXPECT_EQ(pl.tiles, ((rows + p.rounds - 1) / p.rounds + p.cluster - 1) / p.cluster * p.cluster) << why;
      EXPECT_EQ(pl.tiles, pl.units * p.cluster) << why;
      EXPECT_GE(pl.tiles * pl.rounds, rows) << why;
      EXPECT_LT(pl.tiles * (pl.rounds - 1), rows) << why;
      EXPECT_LE(pl.rounds, p.rounds) << why;
      EXPECT_EQ(pl.shared, pl.rounds * p.shared_rounds / p.rounds) << why;
    }
  }
  const auto d = ptxw::device::detail::plan(ptxw::device::for_each_selector{}({90}), 1ull << 24, 1848);
  EXPECT_EQ(d.tiles, (1u << 24) / 512);
  EXPECT_EQ(d.rounds, 2);
  EXPECT_EQ(d.shared, 0);
}

TEST(DeviceArgs, TooSmallStorageIsRefusedAndNothingIsWritten)
{
  std::size_t bytes = 0;
  ASSERT_EQ(ptxw::device::for_each_canceled(nullptr, bytes, 1000, count_hits{nullptr}), cudaSuccess);
  std::vector<unsigned char> host(bytes, 0xab); // host memory: a write or a launch would show (or fault)
  std::size_t less = bytes - 1;
  EXPECT_EQ(ptxw::device::for_each_canceled(host.data(), less, 1000, count_hits{nullptr}), cudaErrorInvalidValue);
  EXPECT_EQ(less, bytes - 1);
  std::size_t r = 0;
  ASSERT_EQ(ptxw::device::sum(nullptr, r, static_cast<const int*>(nullptr), static_cast<long long*>(nullptr), 1000),
            cudaSuccess);
  host.assign(r, 0xab);
  less = r - 1;
  EXPECT_EQ(ptxw::device::sum(host.data(), less, static_cast<const int*>(nullptr), static_cast<long long*>(nullptr), 1000),
            cudaErrorInvalidValue);
  std::size_t d = 0;
  ASSERT_EQ(ptxw::device::drain(nullptr, d, static_cast<const job*>(nullptr), 10, run_job{nullptr}), cudaSuccess);
  less = d - 1;
  EXPECT_EQ(ptxw::device::drain(host.data(), less, static_cast<const job*>(nullptr), 10, run_job{nullptr}),
            cudaErrorInvalidValue);
  for (unsigned char b : host)
  {
    ASSERT_EQ(b, 0xab);
  }
}

TEST(DeviceArgs, BadArgumentsAreInvalidValue)
{
  std::vector<unsigned char> host(4096, 0);
  std::size_t bytes = host.size();
  EXPECT_EQ(ptxw::device::for_each_canceled(host.data(), bytes, -1, count_hits{nullptr}), cudaErrorInvalidValue);
  // 2^33 x 2^33: more indices than 64 bits count; 2^62: more tiles than a grid has.
  const ptxw::device::shape<3> overflow{{1ull << 33, 1ull << 33, 1}};
  EXPECT_EQ(ptxw::device::for_each_canceled(host.data(), bytes, overflow, count_hits_3d{}), cudaErrorInvalidValue);
  EXPECT_EQ(ptxw::device::for_each_canceled(host.data(), bytes, 1ull << 62, count_hits{nullptr}), cudaErrorInvalidValue);
  const int in = 0;
  EXPECT_EQ(ptxw::device::sum(host.data(), bytes, &in, static_cast<long long*>(nullptr), 1), cudaErrorInvalidValue);
  long long out = 0;
  EXPECT_EQ(ptxw::device::sum(host.data(), bytes, static_cast<const int*>(nullptr), &out, 5), cudaErrorInvalidValue);
  EXPECT_EQ(ptxw::device::sum(host.data(), bytes, &in, &out, -3), cudaErrorInvalidValue);
  EXPECT_EQ(ptxw::device::drain(host.data(), bytes, static_cast<const job*>(nullptr), 3, run_job{nullptr}),
            cudaErrorInvalidValue);
  const job j{};
  EXPECT_EQ(ptxw::device::drain(host.data(), bytes, &j, -2, run_job{nullptr}), cudaErrorInvalidValue);
  EXPECT_EQ(out, 0);
}

TEST(DeviceArgs, EmptyShapesAreValidNoOps)
{
  std::vector<unsigned char> host(4096, 0xab); // host memory: any memset or launch would fail or show
  std::size_t bytes = host.size();
  EXPECT_EQ(ptxw::device::for_each_canceled(host.data(), bytes, 0, count_hits{nullptr}), cudaSuccess);
  EXPECT_EQ(ptxw::device::for_each_canceled(host.data(), bytes, ptxw::device::shape<3>{{5, 0, 7}}, count_hits_3d{}),
            cudaSuccess);
  EXPECT_EQ(ptxw::device::drain(host.data(), bytes, static_cast<const job*>(nullptr), 0, run_job{nullptr}), cudaSuccess);
  for (unsigned char b : host)
  {
    ASSERT_EQ(b, 0xab);
  }
}

// ---- on the GPU ----

// with_exact_storage, expect_all and capture_and_replay: device_fixture.h.
class Device : public DeviceAlgorithm
{
protected:
  static void expect_once(const DeviceBuffer<unsigned>& hits)
  {
    expect_all(hits, 1);
  }
};

TEST_F(Device, ForEachCanceledRunsEveryIndexOnceWithExactStorage)
{
  // The default (a plain launch), a plain launch in clusters and one with shared rounds, with 32-bit
  // (int) and 64-bit (unsigned) walks, and stolen tiles; 20000003: more tiles than fit on an H100 at
  // once (stolen).
  auto run = [&](auto selector, auto n) {
    DeviceBuffer<unsigned> hits;
    PTXW_CUDA_OK(hits.allocate_zeroed(static_cast<std::size_t>(n)));
    PTXW_CUDA_OK(with_exact_storage([&](void* t, std::size_t& b) {
      return ptxw::device::for_each_canceled<decltype(selector)>(t, b, n, count_hits{hits.get()});
    }));
    expect_once(hits);
  };
  for (unsigned n : {1u, 31u, 2048u, 1000003u, 20000003u})
  {
    run(ptxw::device::for_each_selector{}, n);
    run(ptxw::device::for_each_selector{}, static_cast<int>(n));
    run(plain_cluster_selector{}, n);
    run(plain_cluster_selector{}, static_cast<int>(n));
    run(plain_shared_selector{}, static_cast<int>(n));
    run(stealing_selector{}, n);
  }
}

TEST_F(Device, ForEachCanceledGivesEveryCtaATileAndStealsOnlyBeyondTheGpu)
{
  // counter_t with tiles of up to 32 rounds of 512 threads, and the CTA that ran each index.
  auto ctas_of = [&](unsigned n, std::vector<unsigned>& per_cta) {
    DeviceBuffer<unsigned> block;
    PTXW_CUDA_OK(block.allocate_zeroed(n));
    PTXW_CUDA_OK(with_exact_storage([&](void* t, std::size_t& b) {
      return ptxw::device::for_each_canceled<counter_selector>(t, b, n, record_block{block.get()});
    }));
    std::vector<unsigned> h;
    PTXW_CUDA_OK(block.download(h));
    per_cta.assign(n, 0);
    for (unsigned b : h)
    {
      ASSERT_LT(b, n);
      ++per_cta[b];
    }
  };
  // 64 x 512 indices: at the policy's 32 rounds two CTAs would run them all while every other SM
  // idles; with fewer rounds per tile 64 CTAs run 512 indices each (64 CTAs fit on any GPU).
  std::vector<unsigned> per_cta;
  ctas_of(64 * 512, per_cta);
  EXPECT_EQ(std::count(per_cta.begin(), per_cta.end(), 512u), 64) << "CTA 0 ran " << per_cta[0];
  // With nothing to steal the scheduler is not set up: its storage is left as it was.
  std::size_t bytes = 0;
  DeviceBuffer<unsigned char> temp;
  DeviceBuffer<unsigned> hits;
  ASSERT_NO_FATAL_FAILURE(allocate_queried(temp, bytes, [&](void* t, std::size_t& b) {
    return ptxw::device::for_each_canceled<counter_selector>(t, b, 64 * 512, count_hits{nullptr});
  }));
  PTXW_CUDA_OK(temp.fill_bytes(0xab));
  PTXW_CUDA_OK(hits.allocate_zeroed(64 * 512));
  PTXW_CUDA_OK(ptxw::device::for_each_canceled<counter_selector>(temp.get(), bytes, 64 * 512, count_hits{hits.get()}));
  PTXW_CUDA_OK(cudaDeviceSynchronize());
  expect_once(hits);
  std::vector<unsigned char> t;
  PTXW_CUDA_OK(temp.download(t));
  EXPECT_EQ(std::count(t.begin(), t.end(), 0xab), static_cast<long>(t.size()));
  // 20000003 indices: 1221 tiles or more (of up to 32 rounds), more than fit at once (528 CTAs on
  // an H100), so a persistent grid steals them: fewer CTAs than 1221 ran indices.
  ctas_of(20000003, per_cta);
  EXPECT_LT(per_cta.size() - std::count(per_cta.begin(), per_cta.end(), 0u), 1221u);
}

TEST_F(Device, ForEachCanceledLeavesATilesSharedRoundsToTheThreadsThatAreFree)
{
  // 2^22 indices: tiles of 7 or 8 rounds on an H100 (two waves), the last 3 or 4 shared. Thread 0
  // of each CTA, held up 20 us an index, runs its own rounds and leaves the shared ones to the
  // others; without sharing every thread of a tile runs as many indices as the others.
  const unsigned n = 1u << 22;
  DeviceBuffer<unsigned> thread, hits;
  PTXW_CUDA_OK(thread.allocate_zeroed(n));
  PTXW_CUDA_OK(hits.allocate_zeroed(n));
  PTXW_CUDA_OK(with_exact_storage([&](void* t, std::size_t& b) {
    return ptxw::device::for_each_canceled<shared_selector>(t, b, n, record_thread{thread.get(), hits.get()});
  }));
  expect_once(hits);
  std::vector<unsigned> h;
  PTXW_CUDA_OK(thread.download(h));
  std::vector<unsigned long long> ran(512, 0);
  for (unsigned t : h)
  {
    ASSERT_LT(t, 512u);
    ++ran[t];
  }
  // Warp 0 waits for its thread 0 (the compiler reconverges a warp after op's loop): compare
  // with the other warps.
  const double others = std::accumulate(ran.begin() + 32, ran.end(), 0.0) / (512 - 32);
  EXPECT_LT(ran[0] * 3.0, others * 2) << "thread 0 ran " << ran[0] << ", the other warps' threads " << others;
}

TEST_F(Device, ForEachCanceledOnEmulationAndClusters)
{
  // More tiles than fit at once for both (the emulation always runs its protocol; clusters of 2
  // steal only beyond 2112 resident CTAs of 128 threads on an H100).
  const unsigned n = 3000017;
  DeviceBuffer<unsigned> a, b;
  PTXW_CUDA_OK(a.allocate_zeroed(n));
  PTXW_CUDA_OK(b.allocate_zeroed(n));
  PTXW_CUDA_OK(with_exact_storage([&](void* t, std::size_t& bytes) {
    return ptxw::device::for_each_canceled<emulated_selector>(t, bytes, n, count_hits{a.get()});
  }));
  expect_once(a);
  PTXW_CUDA_OK(with_exact_storage([&](void* t, std::size_t& bytes) {
    return ptxw::device::for_each_canceled<cluster_selector>(t, bytes, n, count_hits{b.get()});
  }));
  expect_once(b);
}

TEST_F(Device, ForEachCanceledPassesCoordinatesOf3dShapes)
{
  const unsigned long long nx = 1000, ny = 37, nz = 5;
  DeviceBuffer<unsigned> hits;
  PTXW_CUDA_OK(hits.allocate_zeroed(nx * ny * nz));
  PTXW_CUDA_OK(ptxw::device::for_each_canceled(ptxw::device::shape<3>{{nx, ny, nz}},
                                               count_hits_3d{hits.get(), nx, ny, nz}, ptxw::device::env{}));
  PTXW_CUDA_OK(cudaDeviceSynchronize());
  expect_once(hits);
}

TEST_F(Device, TooSmallStorageLaunchesNothing)
{
  const unsigned n = 5000;
  DeviceBuffer<unsigned> hits;
  PTXW_CUDA_OK(hits.allocate_zeroed(n));
  ASSERT_NO_FATAL_FAILURE(expect_too_small_refused([&](void* t, std::size_t& b) {
    return ptxw::device::for_each_canceled(t, b, n, count_hits{hits.get()});
  }));
  std::vector<unsigned> h;
  PTXW_CUDA_OK(hits.download(h));
  EXPECT_EQ(std::accumulate(h.begin(), h.end(), 0ull), 0ull);
}

TEST_F(Device, SeveralStreamsAtOnce)
{
  const unsigned n = 20000003; // stolen tiles (see ForEachCanceledRunsEveryIndexOnce...)
  cudaStream_t s[3];
  DeviceBuffer<unsigned> hits[3];
  DeviceBuffer<unsigned char> temp[3];
  for (int k = 0; k < 3; ++k)
  {
    PTXW_CUDA_OK(cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking));
    PTXW_CUDA_OK(hits[k].allocate_zeroed(n));
    std::size_t bytes = 0;
    ASSERT_NO_FATAL_FAILURE(allocate_queried(temp[k], bytes, [&](void* t, std::size_t& b) {
      return ptxw::device::for_each_canceled<stealing_selector>(t, b, n, count_hits{hits[k].get()});
    }));
  }
  for (int round = 0; round < 4; ++round)
  {
    for (int k = 0; k < 3; ++k)
    {
      std::size_t bytes = temp[k].size();
      PTXW_CUDA_OK(
        ptxw::device::for_each_canceled<stealing_selector>(temp[k].get(), bytes, n, count_hits{hits[k].get()}, s[k]));
    }
  }
  PTXW_CUDA_OK(cudaDeviceSynchronize());
  for (int k = 0; k < 3; ++k)
  {
    expect_all(hits[k], 4, "stream " + std::to_string(k));
    PTXW_CUDA_OK(cudaStreamDestroy(s[k]));
  }
}

TEST_F(Device, GraphCaptureOfTheTwoPhaseCall)
{
  const unsigned n  = 123457;
  const unsigned nf = 20000003; // for_each: stolen tiles, so each replay needs the cursor's reset
  DeviceBuffer<unsigned> hits;
  DeviceBuffer<int> in;
  DeviceBuffer<long long> out;
  PTXW_CUDA_OK(hits.allocate_zeroed(nf));
  std::vector<int> values(n);
  for (unsigned i = 0; i < n; ++i)
  {
    values[i] = value_at(i);
  }
  PTXW_CUDA_OK(in.assign(values));
  PTXW_CUDA_OK(out.allocate(1));
  std::size_t fb = 0, rb = 0;
  DeviceBuffer<unsigned char> ft, rt;
  ASSERT_NO_FATAL_FAILURE(allocate_queried(ft, fb, [&](void* t, std::size_t& b) {
    return ptxw::device::for_each_canceled<stealing_selector>(t, b, nf, count_hits{hits.get()});
  }));
  ASSERT_NO_FATAL_FAILURE(allocate_queried(rt, rb, [&](void* t, std::size_t& b) {
    return ptxw::device::sum(t, b, in.get(), out.get(), n);
  }));
  // Both calls in one graph, launched 3 times, out set to -1 before each.
  ASSERT_NO_FATAL_FAILURE(capture_and_replay(
    3,
    [&](cudaStream_t s) {
      const cudaError_t f =
        ptxw::device::for_each_canceled<stealing_selector>(ft.get(), fb, nf, count_hits{hits.get()}, s);
      const cudaError_t r = ptxw::device::sum(rt.get(), rb, in.get(), out.get(), n, s);
      return f != cudaSuccess ? f : r;
    },
    [&](cudaStream_t s) {
      return cudaMemsetAsync(out.get(), 0xff, sizeof(long long), s);
    }));
  expect_all(hits, 3);
  std::vector<long long> o;
  PTXW_CUDA_OK(out.download(o));
  EXPECT_EQ(o[0], std::accumulate(values.begin(), values.end(), 0ll));
}

TEST_F(Device, ReduceMatchesTheCpu)
{
  const std::size_t max_n = 3000017;
  std::vector<int> values(max_n + 1);
  for (std::size_t i = 0; i < values.size(); ++i)
  {
    values[i] = value_at(i);
  }
  DeviceBuffer<int> in;
  DeviceBuffer<long long> out;
  PTXW_CUDA_OK(in.assign(values));
  PTXW_CUDA_OK(out.allocate(1));
  // n = 0 writes init; odd sizes and a misaligned start take the scalar path and the tails; up to
  // 4096 items one block reduces them alone (no partials, no ticket).
  for (std::size_t n :
       {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{4097}, std::size_t{1000000}, max_n})
  {
    for (int offset : {0, 1})
    {
      PTXW_CUDA_OK(out.fill_bytes(0xff));
      PTXW_CUDA_OK(with_exact_storage([&](void* t, std::size_t& b) {
        return ptxw::device::sum(t, b, in.get() + offset, out.get(), n);
      }));
      std::vector<long long> o;
      PTXW_CUDA_OK(out.download(o));
      EXPECT_EQ(o[0], std::accumulate(values.begin() + offset, values.begin() + offset + n, 0ll))
        << "n " << n << " offset " << offset;
    }
  }
  // A non-sum operator, init applied once, through the environment overload: over many blocks and
  // over one, with an init below every value and one above.
  for (std::size_t n : {max_n, std::size_t{1000}})
  {
    for (long long init : {-5000ll, 5000ll})
    {
      PTXW_CUDA_OK(ptxw::device::reduce(in.get(), out.get(), n, max_op{}, init, ptxw::device::env{}));
      std::vector<long long> o;
      PTXW_CUDA_OK(out.download(o));
      EXPECT_EQ(o[0], std::max<long long>(init, *std::max_element(values.begin(), values.begin() + n)))
        << "n " << n << " init " << init;
    }
  }
}

TEST_F(Device, DrainTakesEveryItemOnceByAWholeBlock)
{
  const unsigned n = 20011;
  std::vector<job> jobs(n);
  for (unsigned i = 0; i < n; ++i)
  {
    jobs[i] = {i, i % 7};
  }
  DeviceBuffer<job> items;
  DeviceBuffer<unsigned> hits;
  PTXW_CUDA_OK(items.assign(jobs));
  PTXW_CUDA_OK(hits.allocate_zeroed(n));
  PTXW_CUDA_OK(with_exact_storage([&](void* t, std::size_t& b) {
    return ptxw::device::drain(t, b, static_cast<const job*>(items.get()), n, run_job{hits.get()});
  }));
  expect_once(hits);
  PTXW_CUDA_OK(hits.fill_bytes(0));
  PTXW_CUDA_OK(ptxw::device::drain(static_cast<const job*>(items.get()), n, run_job{hits.get()}, ptxw::device::env{}));
  PTXW_CUDA_OK(cudaDeviceSynchronize());
  expect_once(hits);
}

TEST_F(Device, StreamOfAnotherDeviceIsInvalidDevice)
{
  int count = 0;
  PTXW_CUDA_OK(cudaGetDeviceCount(&count));
  if (count < 2)
  {
    GTEST_SKIP() << "needs two devices; this machine has " << count;
  }
  cudaStream_t other;
  PTXW_CUDA_OK(cudaSetDevice(1));
  PTXW_CUDA_OK(cudaStreamCreate(&other));
  PTXW_CUDA_OK(cudaSetDevice(0));
  DeviceBuffer<unsigned char> temp;
  PTXW_CUDA_OK(temp.allocate(4096));
  std::size_t bytes = 4096;
  EXPECT_EQ(ptxw::device::for_each_canceled(temp.get(), bytes, 100, count_hits{nullptr}, other), cudaErrorInvalidDevice);
  PTXW_CUDA_OK(cudaStreamDestroy(other));
}
