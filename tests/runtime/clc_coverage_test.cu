// Work stealing on Hopper, on both software backends: every block index of the grid is handed to
// exactly one callback, a CTA that runs starts with its own blockIdx, blocks really are stolen,
// no canceled CTA runs the prologue, and a conforming kernel makes no checked-mode report. 1D, 2D
// and 3D grids, the CTA form and clusters of 1 to 8 CTAs, up to 10 million block indices; the
// faithful emulation with 0 to 50% of requests failing spuriously (and the failures it injected
// counted), counter_t with a persistent launch and with the whole grid launched.
#include <ptxw/ptxw.h>

#include "clc_launch.h"
#include "gpu.h"

#include <ostream>
#include <string>
#include <vector>

namespace {

namespace clc = ptxw::clc;

struct Tally
{
  unsigned long long stolen; // callbacks with a block other than the CTA's own
  unsigned not_own_first; // CTAs whose first callback was not their own blockIdx
  unsigned prologues; // CTAs that ran the prologue
  unsigned ran; // CTAs that ran at least one callback
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
    atomicAdd(&tally->ran, 1u);
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

// Every block this CTA runs, through the block form or (Clusters) the cluster form.
template <int Rank, bool Clusters, class Backend>
__global__ void cover(dim3 grid, unsigned* hits, Tally* tally, clc::context<Backend> ctx)
{
  bool first    = true;
  auto prologue = [&] {
    if (threadIdx.x == 0)
    {
      atomicAdd(&tally->prologues, 1u);
    }
  };
  auto each = [&](dim3 block) {
    if (threadIdx.x == 0)
    {
      record<Rank>(grid, block, first, hits, tally);
    }
    first = false;
  };
  if constexpr (Clusters)
  {
    ptxw::for_each_canceled_cluster<Rank>(ctx, prologue, each);
  }
  else
  {
    ptxw::for_each_canceled_block<Rank>(ctx, prologue, each);
  }
}

// How the grid is scheduled: the faithful emulation, or counter_t launched persistently (the
// default on Hopper) or on the whole grid.
enum class Mode
{
  emulated,
  counter_persistent,
  counter_whole_grid
};

struct Case
{
  const char* name;
  int rank;
  dim3 grid;
  dim3 cluster; // {0,0,0}: the CTA form, launched without clusters
  double spurious; // emulated_t only
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
  {"Cta1D_4K_Fail0", 1, {4096, 1, 1}, {0, 0, 0}, 0.0},
  {"Cta1D_4K_Fail10", 1, {4096, 1, 1}, {0, 0, 0}, 0.10},
  {"Cluster1_1D_1M_Fail0", 1, {1000000, 1, 1}, {1, 1, 1}, 0.0},
  {"Cluster2_1D_1M_Fail1", 1, {1000000, 1, 1}, {2, 1, 1}, 0.01},
  {"Cluster4_2D_262K_Fail10", 2, {1024, 256, 1}, {4, 1, 1}, 0.10},
  {"Cluster8_1D_10M_Fail0", 1, {10000000, 1, 1}, {8, 1, 1}, 0.0},
  {"Cluster8_1D_2M_Fail50", 1, {2000000, 1, 1}, {8, 1, 1}, 0.50},
  {"Cluster2x2_2D_262K_Fail0", 2, {512, 512, 1}, {2, 2, 1}, 0.0},
  {"Cluster2x2x2_3D_131K_Fail0", 3, {64, 64, 32}, {2, 2, 2}, 0.0},
  {"Cluster2x2x2_3D_131K_Fail10", 3, {64, 64, 32}, {2, 2, 2}, 0.10},
  {"Cluster1x2x4_3D_131K_Fail1", 3, {32, 64, 64}, {1, 2, 4}, 0.01},
  {"ClusterSingle", 1, {2, 1, 1}, {2, 1, 1}, 0.0},
  {"Cluster4_1D_4K_Fail0", 1, {4096, 1, 1}, {4, 1, 1}, 0.0},
  {"Cluster4_1D_4K_Fail10", 1, {4096, 1, 1}, {4, 1, 1}, 0.10},
};

constexpr unsigned kThreads = 64;

template <class Backend, int Rank>
cudaError_t launch(const Case& c, Mode mode, clc::scheduler& scheduler, const ptxw::checked::sink* sink,
                   unsigned* hits, Tally* tally, unsigned& launched)
{
  const bool clusters = c.cluster.x != 0;
  const dim3 cluster  = clusters ? c.cluster : dim3(1, 1, 1);
  auto kernel         = clusters ? cover<Rank, true, Backend> : cover<Rank, false, Backend>;
  auto plan           = scheduler.prepare(kernel, c.grid, dim3(kThreads), 0, cluster, 0, sink);
  if (mode == Mode::counter_whole_grid)
  {
    plan.grid = c.grid;
  }
  launched = plan.grid.x * plan.grid.y * plan.grid.z;
  if (!clusters)
  {
    kernel<<<plan.grid, kThreads>>>(c.grid, hits, tally, plan.ctx);
    return cudaGetLastError();
  }
  return ptxw::clc::launch_in_clusters(kernel, plan.grid, dim3(kThreads), c.cluster, 0, 0, c.grid, hits, tally, plan.ctx);
}

template <class Backend>
cudaError_t launch_rank(const Case& c, Mode mode, clc::scheduler& scheduler, const ptxw::checked::sink* sink,
                        unsigned* hits, Tally* tally, unsigned& launched)
{
  return c.rank == 1 ? launch<Backend, 1>(c, mode, scheduler, sink, hits, tally, launched)
       : c.rank == 2 ? launch<Backend, 2>(c, mode, scheduler, sink, hits, tally, launched)
                     : launch<Backend, 3>(c, mode, scheduler, sink, hits, tally, launched);
}

class Coverage
    : public Gpu
    , public ::testing::WithParamInterface<Case>
{
protected:
  void run(Mode mode)
  {
    const Case& c                     = GetParam();
    const dim3 cluster                = c.cluster.x == 0 ? dim3(1, 1, 1) : c.cluster;
    const unsigned long long size     = static_cast<unsigned long long>(c.grid.x) * c.grid.y * c.grid.z;
    const unsigned long long clusters = size / (cluster.x * cluster.y * cluster.z);
    const bool emulated               = mode == Mode::emulated;

    clc::scheduler scheduler(emulated ? clusters : 0);
    if (emulated)
    {
      scheduler.set_spurious_failure_rate(c.spurious);
    }
    auto diag = ptxw_test::long_wait_diagnostics();
    DeviceBuffer<unsigned> hits;
    PTXW_CUDA_OK(hits.allocate(size));
    DeviceBuffer<Tally> tally;
    PTXW_CUDA_OK(tally.allocate(1));

    // Twice with the same scheduler: the second launch must not see the first one's claims.
    for (int run = 0; run < 2; ++run)
    {
      PTXW_CUDA_OK(hits.fill_bytes(0));
      PTXW_CUDA_OK(tally.fill_bytes(0));
      unsigned launched = 0;
      const cudaError_t err =
        emulated ? launch_rank<clc::emulated_t>(c, mode, scheduler, diag.device_sink(), hits.get(), tally.get(), launched)
                 : launch_rank<clc::counter_t>(c, mode, scheduler, diag.device_sink(), hits.get(), tally.get(), launched);
      PTXW_CUDA_OK(err);
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
      EXPECT_EQ(t[0].prologues, t[0].ran) << "prologues run by CTAs that ran no block (canceled ones)";
      if (mode == Mode::counter_whole_grid)
      {
        EXPECT_EQ(t[0].stolen, 0u) << "the whole grid launched: every block runs in its own CTA";
        EXPECT_EQ(t[0].ran, launched);
      }
      else if (size >= 100000)
      {
        EXPECT_GT(t[0].stolen, 0u) << "no block index was stolen: the test did not exercise cancellation";
        EXPECT_LT(t[0].ran, size) << "every block ran in a CTA of its own: nothing was canceled";
      }
      if (emulated && c.spurious > 0 && size >= 4096)
      {
        // The fault rate claimed is the fault rate seen, within a factor of four: a request is one
        // per cluster, `stolen` counts blocks.
        const unsigned long long injected  = scheduler.injected_failures();
        const unsigned long long succeeded = t[0].stolen / (cluster.x * cluster.y * cluster.z);
        EXPECT_GE(injected, static_cast<unsigned long long>(c.spurious * succeeded / 4))
          << "spurious failures injected; requests that succeeded: " << succeeded;
        EXPECT_GT(injected, 0u) << "a fault rate of " << c.spurious << " injected no failure";
      }
      const auto reports = ptxw_test::read_reports(diag);
      EXPECT_EQ(reports.total, 0u) << "a conforming kernel made checked-mode reports:\n" << reports.text;
      RecordProperty("stolen_run" + std::to_string(run), std::to_string(t[0].stolen));
    }
  }
};

class ClcCoverageEmulated : public Coverage
{};
class ClcCoverageCounter : public Coverage
{};

TEST_P(ClcCoverageEmulated, EveryBlockIndexRunsExactlyOnce)
{
  run(Mode::emulated);
}

TEST_P(ClcCoverageCounter, PersistentLaunch)
{
  run(Mode::counter_persistent);
}

TEST_P(ClcCoverageCounter, WholeGridLaunched)
{
  run(Mode::counter_whole_grid);
}

std::string case_name(const ::testing::TestParamInfo<Case>& info)
{
  return info.param.name;
}

// counter_t injects no faults: its cases are the grid shapes of the faultless ones.
std::vector<Case> faultless_cases()
{
  std::vector<Case> out;
  for (const Case& c : kCases)
  {
    if (c.spurious == 0.0)
    {
      out.push_back(c);
    }
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Hopper, ClcCoverageEmulated, ::testing::ValuesIn(kCases), case_name);
INSTANTIATE_TEST_SUITE_P(Hopper, ClcCoverageCounter, ::testing::ValuesIn(faultless_cases()), case_name);

} // namespace
