// Work stealing through the cluster launch control emulation on Hopper: every block index of the
// grid is handed to exactly one callback, a CTA that was not canceled runs its own blockIdx first,
// blocks really are stolen, and a conforming kernel makes no checked-mode report. 1D, 2D and 3D
// grids, the CTA form and clusters of 1 to 8 CTAs, up to 10 million block indices, with 0 to 50%
// of requests failing spuriously.
#include <ptxw/ptxw.h>

#include "clc_launch.h"
#include "gpu.h"

#include <cstdlib>
#include <ostream>
#include <string>

namespace {

struct Tally
{
  unsigned long long stolen; // callbacks with a block other than the CTA's own
  unsigned not_own_first; // CTAs whose first callback was not their own blockIdx
};

// One thread per block index records it: hits[linear index] += 1.
template <int Rank>
__device__ void record(dim3 grid, dim3 block, bool first, unsigned* hits, Tally* tally)
{
  const unsigned long long linear =
    block.x + static_cast<unsigned long long>(grid.x) * (block.y + static_cast<unsigned long long>(grid.y) * block.z);
  atomicAdd(&hits[linear], 1u);
  if (first)
  {
    const dim3 own(blockIdx.x, Rank > 1 ? blockIdx.y : 0u, Rank > 2 ? blockIdx.z : 0u);
    if (block.x != own.x || block.y != own.y || block.z != own.z)
    {
      atomicAdd(&tally->not_own_first, 1u);
    }
  }
  else
  {
    atomicAdd(&tally->stolen, 1ull);
  }
}

template <int Rank>
__global__ void cover_blocks(dim3 grid, unsigned* hits, Tally* tally, ptxw::clc::context<> ctx)
{
  bool first = true;
  ptxw::for_each_canceled_block<Rank>(ctx, [&](dim3 block) {
    if (threadIdx.x == 0)
    {
      record<Rank>(grid, block, first, hits, tally);
    }
    first = false;
  });
}

template <int Rank>
__global__ void cover_clusters(dim3 grid, unsigned* hits, Tally* tally, ptxw::clc::context<> ctx)
{
  bool first = true;
  ptxw::for_each_canceled_cluster<Rank>(ctx, [&](dim3 block) {
    if (threadIdx.x == 0)
    {
      record<Rank>(grid, block, first, hits, tally);
    }
    first = false;
  });
}

struct Case
{
  const char* name;
  int rank;
  dim3 grid;
  dim3 cluster; // {0,0,0}: the CTA form, launched without clusters
  double spurious;
};

std::ostream& operator<<(std::ostream& os, const Case& c)
{
  return os << c.name;
}

constexpr Case kCases[] = {
  {"Cta1D_10M_Fail0", 1, {10000000, 1, 1}, {0, 0, 0}, 0.0},
  {"Cta1D_10M_Fail1", 1, {10000000, 1, 1}, {0, 0, 0}, 0.01},
  {"Cta1D_10M_Fail10", 1, {10000000, 1, 1}, {0, 0, 0}, 0.10},
  {"Cta1D_10M_Fail50", 1, {10000000, 1, 1}, {0, 0, 0}, 0.50},
  {"Cta2D_1M_Fail0", 2, {1000, 1000, 1}, {0, 0, 0}, 0.0},
  {"Cta2D_1M_Fail10", 2, {1000, 1000, 1}, {0, 0, 0}, 0.10},
  {"Cta3D_262K_Fail0", 3, {128, 64, 32}, {0, 0, 0}, 0.0},
  {"Cta3D_262K_Fail50", 3, {128, 64, 32}, {0, 0, 0}, 0.50},
  {"CtaSingleBlock", 1, {1, 1, 1}, {0, 0, 0}, 0.0},
  {"Cta1D_4K_Fail10", 1, {4096, 1, 1}, {0, 0, 0}, 0.10},
  {"Cluster1_1D_1M_Fail0", 1, {1000000, 1, 1}, {1, 1, 1}, 0.0},
  {"Cluster2_1D_1M_Fail1", 1, {1000000, 1, 1}, {2, 1, 1}, 0.01},
  {"Cluster4_2D_262K_Fail10", 2, {1024, 256, 1}, {4, 1, 1}, 0.10},
  {"Cluster8_1D_10M_Fail0", 1, {10000000, 1, 1}, {8, 1, 1}, 0.0},
  {"Cluster8_1D_2M_Fail50", 1, {2000000, 1, 1}, {8, 1, 1}, 0.50},
  {"Cluster2x2_2D_262K_Fail0", 2, {512, 512, 1}, {2, 2, 1}, 0.0},
  {"Cluster2x2x2_3D_131K_Fail10", 3, {64, 64, 32}, {2, 2, 2}, 0.10},
  {"Cluster1x2x4_3D_131K_Fail1", 3, {32, 64, 64}, {1, 2, 4}, 0.01},
  {"ClusterSingle", 1, {2, 1, 1}, {2, 1, 1}, 0.0},
  {"Cluster4_1D_4K_Fail10", 1, {4096, 1, 1}, {4, 1, 1}, 0.10},
};

class ClcCoverage
    : public Gpu
    , public ::testing::WithParamInterface<Case>
{};

template <int Rank>
cudaError_t launch(const Case& c, unsigned* hits, Tally* tally, const ptxw::clc::context<>& ctx)
{
  constexpr unsigned threads = 64;
  if (c.cluster.x == 0)
  {
    cover_blocks<Rank><<<c.grid, threads>>>(c.grid, hits, tally, ctx);
    return cudaGetLastError();
  }
  return ptxw_test::launch_clusters(cover_clusters<Rank>, c.grid, c.cluster, dim3(threads), c.grid, hits, tally, ctx);
}

} // namespace

TEST_P(ClcCoverage, EveryBlockIndexRunsExactlyOnce)
{
  const Case& c                 = GetParam();
  const dim3 cluster            = c.cluster.x == 0 ? dim3(1, 1, 1) : c.cluster;
  const unsigned long long size = static_cast<unsigned long long>(c.grid.x) * c.grid.y * c.grid.z;
  const unsigned long long clusters = size / (cluster.x * cluster.y * cluster.z);

  ptxw::clc::emulator emulator(clusters);
  emulator.set_spurious_failure_rate(c.spurious);
  // A checked wait may take 1 s (PTXW_TEST_WAIT_NS overrides: under compute-sanitizer kernels run
  // many times slower).
  const char* wait_ns = std::getenv("PTXW_TEST_WAIT_NS");
  ptxw::checked::diagnostics diag(64, wait_ns ? std::strtoull(wait_ns, nullptr, 10) : 1000000000ull);
  DeviceBuffer<unsigned> hits;
  PTXW_CUDA_OK(hits.allocate(size));
  PTXW_CUDA_OK(hits.fill_bytes(0));
  DeviceBuffer<Tally> tally;
  PTXW_CUDA_OK(tally.allocate(1));
  PTXW_CUDA_OK(tally.fill_bytes(0));

  // Twice with the same emulator: the second launch must not see the first one's claims.
  for (int run = 0; run < 2; ++run)
  {
    PTXW_CUDA_OK(hits.fill_bytes(0));
    PTXW_CUDA_OK(tally.fill_bytes(0));
    const auto ctx = emulator.prepare(c.grid, cluster, 0, diag.device_sink());
    const cudaError_t launched = c.rank == 1 ? launch<1>(c, hits.get(), tally.get(), ctx)
                               : c.rank == 2 ? launch<2>(c, hits.get(), tally.get(), ctx)
                                             : launch<3>(c, hits.get(), tally.get(), ctx);
    PTXW_CUDA_OK(launched);
    PTXW_LAUNCH_OK();

    std::vector<unsigned> host;
    PTXW_CUDA_OK(hits.download(host));
    unsigned long long lost = 0, repeated = 0, first_bad = size;
    for (unsigned long long i = 0; i < size; ++i)
    {
      lost += host[i] == 0;
      repeated += host[i] > 1;
      if (host[i] != 1 && first_bad == size)
      {
        first_bad = i;
      }
    }
    EXPECT_EQ(lost, 0u) << "run " << run << ": block indices never run; first bad linear index " << first_bad;
    EXPECT_EQ(repeated, 0u) << "run " << run << ": block indices run more than once; first bad " << first_bad;

    std::vector<Tally> t;
    PTXW_CUDA_OK(tally.download(t));
    EXPECT_EQ(t[0].not_own_first, 0u) << "CTAs whose first callback was not their own blockIdx";
    if (size >= 100000)
    {
      EXPECT_GT(t[0].stolen, 0u) << "no block index was stolen: the test did not exercise cancellation";
    }
    const auto reports = ptxw_test::read_reports(diag);
    EXPECT_EQ(reports.total, 0u) << "a conforming kernel made checked-mode reports:\n" << reports.text;
    RecordProperty("stolen_run" + std::to_string(run), std::to_string(t[0].stolen));
  }
}

INSTANTIATE_TEST_SUITE_P(Emulation, ClcCoverage, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return std::string(info.param.name);
                         });
