// The persistent tile scheduler (ptxw/clc/tile_scheduler.h, ptxw/clc/host/tile_scheduler.h). On the GPU:
// a kernel of one scheduler warp and three consumer warps, written once for both policies, counts
// each (tile, role) it is given; every in-bounds tile of every problem must be counted exactly once
// per role, every role of a CTA must see the same tiles in the same order, no tile may fall outside
// its problem, and the per-CTA prologue runs only in CTAs that run. Static and dynamic (counter_t,
// the faithful emulation, also under spurious failures), raster along M and N, swizzle 1 to 8, one
// problem, 64 problems of Zipf-distributed sizes with empty ones, cluster tiles. On the host (no
// GPU needed): decoding is a bijection onto the tiles, the swizzled order is CUTLASS's, and every
// bad input throws before anything is allocated or launched.
#include <ptxw/clc/host/tile_scheduler.h>
#include <ptxw/ptxw.h>

#include "clc_launch.h"
#include "gpu.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <ostream>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace clc = ptxw::clc;

constexpr unsigned kRoles   = 3; // consumer warps per CTA
constexpr unsigned kThreads = 32 * (1 + kRoles); // warp 0: the scheduler

// Where tile (p, m, n) is counted: base[p] + m * tiles_n[p] + n.
struct TileIndex
{
  const unsigned* base;
  const unsigned* tiles_m;
  const unsigned* tiles_n;
};

// What one role of one CTA saw: a hash of its tiles in order, how many, the tiles that reached
// past their problem's edge (cluster tiles only), and the units of its first two tiles.
struct RoleLog
{
  unsigned long long hash;
  unsigned tiles;
  unsigned outside;
  unsigned first, second;
};

struct Counters
{
  unsigned prologues; // CTAs that ran the prologue
  unsigned out_of_range; // an in-bounds tile whose m or n is outside its problem: a decoding bug
};

// The ring a policy reads: the dynamic policy's receivers (the static policy's is unused).
template <class Policy>
struct ring_of
{
  using type = clc::tile_ring<2, kRoles>;
};
template <class B, class R>
struct ring_of<clc::dynamic_tiles<B, R>>
{
  using type = clc::tile_ring<2, kRoles, R>;
};

template <class Policy>
__global__ void count_tiles(TileIndex idx, unsigned* hits, RoleLog* logs, Counters* counters,
                            clc::tile_schedule<Policy> sched)
{
  __shared__ typename ring_of<Policy>::type ring;
  auto tiles = clc::open(ring, sched);
  if (!tiles.started())
  {
    return; // a CTA the emulation launched after another canceled it: no prologue
  }
  if (threadIdx.x == 0)
  {
    atomicAdd(&counters->prologues, 1u);
  }
  const unsigned warp = threadIdx.x / 32;
  if (warp == 0)
  {
    tiles.scheduler().run(tiles.elect());
    return;
  }
  const unsigned role = warp - 1;
  RoleLog log{0ull, 0u, 0u, ~0u, ~0u};
  tiles.consumer(role).for_each([&](const clc::tile& t) {
    log.hash = log.hash * 1000003ull + t.unit + 1;
    if (log.tiles == 0)
    {
      log.first = t.unit;
    }
    else if (log.tiles == 1)
    {
      log.second = t.unit;
    }
    ++log.tiles;
    if (!t.in_bounds)
    {
      ++log.outside;
      return;
    }
    if (threadIdx.x % 32 == 0)
    {
      if (t.m >= idx.tiles_m[t.problem] || t.n >= idx.tiles_n[t.problem])
      {
        atomicAdd(&counters->out_of_range, 1u);
        return;
      }
      const unsigned at = idx.base[t.problem] + t.m * idx.tiles_n[t.problem] + t.n;
      atomicAdd(&hits[static_cast<unsigned long long>(at) * kRoles + role], 1u);
    }
  });
  if (threadIdx.x % 32 == 0)
  {
    logs[static_cast<unsigned long long>(blockIdx.x) * kRoles + role] = log;
  }
}

// ---------------------------------------------------------------------------------------------
// Problem lists.

std::vector<clc::problem_shape> one_problem()
{
  return {{3000, 2100}};
}

// 64 problems, M from a Zipf law (rank k of a shuffled order: 6000 / k^1.1 elements), N from a few
// widths; every 9th problem has M = 0 and one has N = 0: they take no tile.
std::vector<clc::problem_shape> zipf_problems()
{
  std::mt19937 rng(2024);
  std::vector<int> rank(64);
  std::iota(rank.begin(), rank.end(), 1);
  std::shuffle(rank.begin(), rank.end(), rng);
  const long long widths[] = {64, 200, 512, 1000, 1536};
  std::vector<clc::problem_shape> p;
  for (int i = 0; i < 64; ++i)
  {
    const long long m = i % 9 == 4 ? 0 : static_cast<long long>(6000.0 / std::pow(rank[i], 1.1));
    p.push_back({m, i == 17 ? 0 : widths[rng() % 5]});
  }
  return p;
}

std::vector<clc::problem_shape> empty_problems()
{
  return {{0, 100}, {100, 0}, {0, 0}};
}

// Host reference of the tiles: their count and base index per problem.
struct Reference
{
  std::vector<unsigned> base, tiles_m, tiles_n;
  unsigned total = 0;
};

Reference reference(const std::vector<clc::problem_shape>& problems, clc::tile_shape t)
{
  Reference r;
  for (const auto& p : problems)
  {
    r.base.push_back(r.total);
    r.tiles_m.push_back(static_cast<unsigned>((p.m + t.m - 1) / t.m));
    r.tiles_n.push_back(static_cast<unsigned>((p.n + t.n - 1) / t.n));
    r.total += r.tiles_m.back() * r.tiles_n.back();
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// Host tests: no GPU.

// Every tile of every problem exactly once, from the host's decoding of every unit; cluster tiles
// reach past an edge only where the problem is not a whole number of clusters.
void expect_bijection(const std::vector<clc::problem_shape>& problems, clc::tile_shape shape, clc::raster order,
                      long long swz, clc::cluster_shape cluster)
{
  const clc::tile_plan plan(problems, shape, order, clc::swizzle{swz}, cluster);
  const Reference ref = reference(problems, shape);
  const unsigned ctas = static_cast<unsigned>(cluster.m * cluster.n);
  std::vector<unsigned> seen(ref.total, 0);
  unsigned outside = 0, wrong = 0;
  clc::tile_cursor cursor(plan.host_space());
  for (unsigned u = 0; u < plan.units(); ++u)
  {
    for (unsigned rank = 0; rank < ctas; ++rank)
    {
      const clc::tile t = cursor.at(plan.host_space(), u, rank);
      wrong += t.unit != u || t.problem >= problems.size();
      if (!t.in_bounds)
      {
        ++outside;
        continue;
      }
      if (t.m >= ref.tiles_m[t.problem] || t.n >= ref.tiles_n[t.problem])
      {
        ++wrong;
        continue;
      }
      ++seen[ref.base[t.problem] + t.m * ref.tiles_n[t.problem] + t.n];
    }
  }
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1u), static_cast<long>(ref.total)) << "tiles not seen exactly once";
  EXPECT_EQ(outside + ref.total, plan.units() * ctas) << "each unit is cluster_m x cluster_n tiles";
}

// Each bad input is an exception from the constructor, before any device memory or launch: the
// tile_scheduler's own validation runs first, so these need no GPU.
template <class F>
void expect_rule(const char* rule, F&& f)
{
  try
  {
    f();
    ADD_FAILURE() << "no exception; expected " << rule;
  }
  catch (const std::runtime_error& e)
  {
    EXPECT_EQ(std::string(e.what()).rfind(rule, 0), 0u) << e.what();
  }
}

} // namespace

TEST(TileSpaceHost, EveryTileOnceOneProblem)
{
  for (auto order : {clc::raster::along_m, clc::raster::along_n})
  {
    for (long long swz : {1, 2, 4, 8})
    {
      expect_bijection(one_problem(), {128, 128}, order, swz, {});
      expect_bijection({{1, 1}}, {128, 128}, order, swz, {});
    }
  }
}

TEST(TileSpaceHost, EveryTileOnceGroupedZipf)
{
  for (auto order : {clc::raster::along_m, clc::raster::along_n})
  {
    for (long long swz : {1, 2, 4, 8})
    {
      expect_bijection(zipf_problems(), {64, 64}, order, swz, {});
    }
  }
}

TEST(TileSpaceHost, EveryTileOnceClusterTiles)
{
  for (clc::cluster_shape c : {clc::cluster_shape{2, 1}, clc::cluster_shape{1, 2}, clc::cluster_shape{2, 2},
                               clc::cluster_shape{4, 2}})
  {
    expect_bijection(zipf_problems(), {64, 64}, clc::raster::along_n, 4, c);
    expect_bijection(zipf_problems(), {64, 64}, clc::raster::along_m, 2, c);
  }
}

// The order a swizzle of 2 along N gives a 3 x 3 grid: strips of two rows walked along N, then the
// narrower last strip (CUTLASS pads it to a whole strip; the tile space does not).
TEST(TileSpaceHost, SwizzledOrderAlongN)
{
  const clc::tile_plan plan({{3, 3}}, {1, 1}, clc::raster::along_n, clc::swizzle{2});
  clc::tile_cursor c(plan.host_space());
  const unsigned want[9][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}, {2, 0}, {2, 1}, {2, 2}};
  ASSERT_EQ(plan.units(), 9u);
  for (unsigned u = 0; u < 9; ++u)
  {
    const clc::tile t = c.at(plan.host_space(), u);
    EXPECT_EQ(t.m, want[u][0]) << "unit " << u;
    EXPECT_EQ(t.n, want[u][1]) << "unit " << u;
  }
}

TEST(TileSpaceHost, SwizzledOrderAlongM)
{
  const clc::tile_plan plan({{3, 3}}, {1, 1}, clc::raster::along_m, clc::swizzle{2});
  clc::tile_cursor c(plan.host_space());
  const unsigned want[9][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}};
  for (unsigned u = 0; u < 9; ++u)
  {
    const clc::tile t = c.at(plan.host_space(), u);
    EXPECT_EQ(t.m, want[u][0]) << "unit " << u;
    EXPECT_EQ(t.n, want[u][1]) << "unit " << u;
  }
}

// The cursor's binary search finds the problem of any unit in any order (a dynamic schedule's
// units come in no particular order): empty problems are skipped.
TEST(TileSpaceHost, CursorFindsTheProblemInAnyOrder)
{
  const auto problems = zipf_problems();
  const clc::tile_plan plan(problems, {64, 64});
  std::vector<unsigned> order(plan.units());
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin(), order.end(), std::mt19937(7));
  clc::tile_cursor c(plan.host_space());
  for (unsigned u : order)
  {
    const clc::tile t = c.at(plan.host_space(), u);
    ASSERT_LT(t.problem, problems.size());
    EXPECT_LE(plan.firsts()[t.problem], u);
    EXPECT_LT(u, plan.firsts()[t.problem + 1]);
    EXPECT_GT(problems[t.problem].m, 0);
    EXPECT_GT(problems[t.problem].n, 0);
  }
}

// The static head leaves the last `tail` whole waves and the partial one to requests, and is at
// least a block's own unit.
TEST(TileSchedulerHost, StaticHeadLeavesTheTailToRequests)
{
  using clc::static_head;
  EXPECT_EQ(static_head(4096, 132, {}), 1u) << "all: every unit but a block's own is requested";
  EXPECT_EQ(static_head(4096, 132, {1}), 30u) << "31 whole waves, the last and the partial one requested";
  EXPECT_EQ(static_head(4096, 132, {0}), 31u) << "only the partial wave requested";
  EXPECT_EQ(static_head(4092, 132, {0}), 31u) << "31 waves exactly: none requested";
  EXPECT_EQ(static_head(264, 132, {1}), 1u);
  EXPECT_EQ(static_head(100, 132, {0}), 1u) << "less than a wave";
  EXPECT_EQ(static_head(0, 132, {0}), 1u) << "no units";
  EXPECT_EQ(static_head(4096, 0, {1}), 1u) << "no residency known";
}

// The divider is exact where the tile space uses it: dividends and divisors below 2^31.
TEST(TileSpaceHost, DividerIsExact)
{
  std::mt19937 rng(11);
  std::vector<std::uint32_t> divisors = {1, 2, 3, 5, 7, 8, 100, 641, 65535, 65536, 65537, 0x7ffffffe, 0x7fffffff};
  for (int i = 0; i < 200; ++i)
  {
    divisors.push_back(1 + rng() % 0x7fffffff);
  }
  for (std::uint32_t d : divisors)
  {
    const auto dv = clc::detail::make_divider(d);
    for (std::uint32_t n : {0u, 1u, d - 1, d, d + 1, 0x7fffffffu, 0x7ffffffeu, d * 2u - 1u})
    {
      if (n > 0x7fffffffu)
      {
        continue;
      }
      EXPECT_EQ(ptxw::clc::detail::divide(n, dv.magic, dv.shift), n / d) << n << " / " << d;
    }
    for (int j = 0; j < 50; ++j)
    {
      const std::uint32_t n = rng() % 0x80000000u;
      EXPECT_EQ(ptxw::clc::detail::divide(n, dv.magic, dv.shift), n / d) << n << " / " << d;
    }
  }
}

TEST(TileSchedulerHost, EmptyProblemListIsRefused)
{
  expect_rule("ptxw: R18", [] { clc::tile_plan({}, {128, 128}); });
  expect_rule("ptxw: R18", [] { clc::tile_scheduler({}, {128, 128}); });
}

TEST(TileSchedulerHost, NegativeShapeIsRefused)
{
  expect_rule("ptxw: R18", [] { clc::tile_scheduler({{100, 100}, {-1, 100}}, {128, 128}); });
  expect_rule("ptxw: R18", [] { clc::tile_scheduler({{100, -100}}, {128, 128}); });
}

TEST(TileSchedulerHost, ZeroTileShapeIsRefused)
{
  expect_rule("ptxw: R18", [] { clc::tile_scheduler({{100, 100}}, {0, 128}); });
  expect_rule("ptxw: R18", [] { clc::tile_scheduler({{100, 100}}, {128, 0}); });
  expect_rule("ptxw: R18", [] { clc::tile_scheduler({{100, 100}}, {-64, 128}); });
}

TEST(TileSchedulerHost, SwizzleNotAPowerOfTwoIsRefused)
{
  for (long long s : {0ll, 3ll, 6ll, -4ll, 1ll << 17})
  {
    expect_rule("ptxw: R18", [s] { clc::tile_scheduler({{100, 100}}, {128, 128}, clc::raster::along_n, {s}); });
  }
}

TEST(TileSchedulerHost, BadClusterShapeIsRefused)
{
  for (clc::cluster_shape c : {clc::cluster_shape{0, 1}, clc::cluster_shape{3, 1}, clc::cluster_shape{1, 6},
                               clc::cluster_shape{8, 4}, clc::cluster_shape{32, 1}})
  {
    expect_rule("ptxw: R18",
                [c] { clc::tile_scheduler({{100, 100}}, {128, 128}, clc::raster::along_n, {1}, c); });
  }
}

TEST(TileSchedulerHost, MoreUnitsThanNumbersIsRefused)
{
  expect_rule("ptxw: R18", [] { clc::tile_scheduler({{1ll << 20, 1ll << 20}}, {16, 16}); });
}

TEST(TileSchedulerHost, ClusterThatDoesNotDivideTheGridIsRefused)
{
  const clc::tile_plan plan({{1000, 1000}}, {128, 128}, clc::raster::along_n, {1}, {2, 1});
  expect_rule("ptxw: R14", [&] { plan.check_static_grid(3); });
  expect_rule("ptxw: R14", [&] { plan.check_static_grid(0); });
  plan.check_static_grid(4);
}

TEST(TileSchedulerHost, DynamicPolicyOfCtasWithClustersIsRefused)
{
  const clc::tile_plan plan({{1000, 1000}}, {128, 128}, clc::raster::along_n, {1}, {1, 2});
  expect_rule("ptxw: R10", [&] { plan.check_dynamic(false); });
  plan.check_dynamic(true);
  const clc::tile_plan flat({{1000, 1000}}, {128, 128});
  flat.check_dynamic(false);
  flat.check_dynamic(true);
}

// Empty problems are allowed; a list of only empty ones has no unit.
TEST(TileSchedulerHost, EmptyProblemsHaveNoTiles)
{
  const clc::tile_plan plan(empty_problems(), {128, 128});
  EXPECT_EQ(plan.units(), 0u);
  const clc::tile_plan some({{0, 5}, {200, 300}, {5, 0}}, {128, 128});
  EXPECT_EQ(some.units(), 6u);
}

// ---------------------------------------------------------------------------------------------
// GPU tests.

namespace {

enum class Policy
{
  fixed, // static_tiles
  counter,
  emulated
};

enum class Problems
{
  one,
  zipf,
  empty
};

struct Case
{
  const char* name;
  Policy policy;
  Problems problems;
  clc::raster order;
  long long swizzle;
  clc::cluster_shape cluster;
  unsigned static_ctas; // static_tiles: this many CTAs instead of the resident grid (0: resident)
  double spurious; // emulated_t only
  unsigned long long tail = clc::dynamic_tail::all; // the dynamic policies' requested waves
};

std::ostream& operator<<(std::ostream& os, const Case& c)
{
  return os << c.name;
}

constexpr clc::raster M = clc::raster::along_m;
constexpr clc::raster N = clc::raster::along_n;

const Case kCases[] = {
  {"StaticOneAlongNSwizzle1", Policy::fixed, Problems::one, N, 1, {1, 1}, 0, 0.0},
  {"StaticOneAlongMSwizzle8", Policy::fixed, Problems::one, M, 8, {1, 1}, 0, 0.0},
  {"StaticZipfAlongNSwizzle4", Policy::fixed, Problems::zipf, N, 4, {1, 1}, 0, 0.0},
  {"StaticZipfAlongMSwizzle2FewCtas", Policy::fixed, Problems::zipf, M, 2, {1, 1}, 7, 0.0},
  {"StaticZipfCluster2x1", Policy::fixed, Problems::zipf, N, 2, {2, 1}, 0, 0.0},
  {"StaticZipfCluster1x2FewCtas", Policy::fixed, Problems::zipf, M, 4, {1, 2}, 6, 0.0},
  {"StaticEmpty", Policy::fixed, Problems::empty, N, 1, {1, 1}, 0, 0.0},
  {"CounterOneAlongNSwizzle2", Policy::counter, Problems::one, N, 2, {1, 1}, 0, 0.0},
  {"CounterZipfAlongMSwizzle8", Policy::counter, Problems::zipf, M, 8, {1, 1}, 0, 0.0},
  {"CounterEmpty", Policy::counter, Problems::empty, N, 1, {1, 1}, 0, 0.0},
  {"EmulatedOneAlongMSwizzle1", Policy::emulated, Problems::one, M, 1, {1, 1}, 0, 0.0},
  {"EmulatedZipfAlongNSwizzle4", Policy::emulated, Problems::zipf, N, 4, {1, 1}, 0, 0.0},
  {"EmulatedZipfAlongNSwizzle8Fail10", Policy::emulated, Problems::zipf, N, 8, {1, 1}, 0, 0.10},
  {"EmulatedZipfAlongMSwizzle2Fail50", Policy::emulated, Problems::zipf, M, 2, {1, 1}, 0, 0.50},
  {"EmulatedEmpty", Policy::emulated, Problems::empty, M, 1, {1, 1}, 0, 0.0},
  {"CounterZipfCluster2x1", Policy::counter, Problems::zipf, N, 2, {2, 1}, 0, 0.0},
  {"CounterOneCluster2x2", Policy::counter, Problems::one, M, 4, {2, 2}, 0, 0.0},
  {"EmulatedZipfCluster1x2Fail10", Policy::emulated, Problems::zipf, M, 4, {1, 2}, 0, 0.10},
  // A static head before the requested tail: 6204 units on the resident CTAs (clusters) of
  // count_tiles, two waves and more, so that the head is 2 units or more at tail 0.
  {"CounterOneStaticHeadTail0", Policy::counter, Problems::one, N, 2, {1, 1}, 0, 0.0, 0},
  {"EmulatedOneStaticHeadTail0Fail10", Policy::emulated, Problems::one, M, 4, {1, 1}, 0, 0.10, 0},
  {"CounterOneCluster2x2StaticHeadTail0", Policy::counter, Problems::one, M, 4, {2, 2}, 0, 0.0, 0},
  {"CounterZipfStaticHeadTail1", Policy::counter, Problems::zipf, N, 8, {1, 1}, 0, 0.0, 1},
};

constexpr clc::tile_shape kTile{32, 32};

class TileScheduler
    : public Gpu
    , public ::testing::WithParamInterface<Case>
{};

template <class P>
void launch(clc::tile_launch<P>& l, const TileIndex& idx, unsigned* hits, RoleLog* logs, Counters* counters)
{
  auto kernel = count_tiles<P>;
  if (l.cluster.x == 1)
  {
    kernel<<<l.grid, kThreads>>>(idx, hits, logs, counters, l.sched);
  }
  else
  {
    (void) clc::launch_in_clusters(kernel, l.grid, dim3(kThreads), l.cluster, 0, 0, idx, hits, logs, counters, l.sched);
  }
}

} // namespace

TEST_P(TileScheduler, EveryTileOnceEveryRoleTheSameSequence)
{
  const Case& c        = GetParam();
  const bool clustered = c.cluster.m * c.cluster.n > 1;
  std::vector<clc::problem_shape> problems =
    c.problems == Problems::one ? one_problem() : c.problems == Problems::zipf ? zipf_problems() : empty_problems();
  const Reference ref = reference(problems, kTile);

  const clc::tile_plan probe(problems, kTile, c.order, {c.swizzle}, c.cluster);
  clc::tile_scheduler tiles(problems, kTile, c.order, {c.swizzle}, c.cluster,
                            c.policy == Policy::emulated ? probe.units() + 1 : 0);
  tiles.set_dynamic_tail({c.tail});
  if (c.policy == Policy::emulated)
  {
    tiles.clc().set_spurious_failure_rate(c.spurious);
  }
  auto diag = ptxw_test::long_wait_diagnostics();

  DeviceBuffer<unsigned> base, tiles_m, tiles_n, hits;
  PTXW_CUDA_OK(base.assign(ref.base));
  PTXW_CUDA_OK(tiles_m.assign(ref.tiles_m));
  PTXW_CUDA_OK(tiles_n.assign(ref.tiles_n));
  PTXW_CUDA_OK(hits.allocate(static_cast<std::size_t>(std::max(ref.total, 1u)) * kRoles));
  const TileIndex idx{base.get(), tiles_m.get(), tiles_n.get()};
  DeviceBuffer<Counters> counters;

  // Twice with one scheduler: the second launch must not see the first one's claims.
  for (int run = 0; run < 2; ++run)
  {
    PTXW_CUDA_OK(hits.fill_bytes(0));
    PTXW_CUDA_OK(counters.allocate_zeroed(1));
    unsigned launched = 0, resident = 1, head = 1;
    DeviceBuffer<RoleLog> logs;
    auto go = [&](auto l) {
      launched = l.grid.x;
      if constexpr (!std::is_same_v<decltype(l), clc::tile_launch<clc::static_tiles>>)
      {
        resident = l.sched.resident;
        head     = l.sched.head;
      }
      ASSERT_EQ(logs.allocate_zeroed(static_cast<std::size_t>(launched) * kRoles), cudaSuccess);
      launch(l, idx, hits.get(), logs.get(), counters.get());
    };
    switch (c.policy)
    {
    case Policy::fixed:
      if (c.static_ctas != 0)
      {
        go(tiles.prepare_static(c.static_ctas, diag.device_sink()));
      }
      else
      {
        go(tiles.prepare(count_tiles<clc::static_tiles>, dim3(kThreads), 0, 0, diag.device_sink()));
      }
      break;
    case Policy::counter:
      if (clustered)
      {
        go(tiles.prepare(count_tiles<clc::dynamic_tiles<clc::counter_t, clc::cluster_t>>, dim3(kThreads), 0, 0,
                         diag.device_sink()));
      }
      else
      {
        go(tiles.prepare(count_tiles<clc::dynamic_tiles<clc::counter_t>>, dim3(kThreads), 0, 0, diag.device_sink()));
      }
      break;
    case Policy::emulated:
      if (clustered)
      {
        go(tiles.prepare(count_tiles<clc::dynamic_tiles<clc::emulated_t, clc::cluster_t>>, dim3(kThreads), 0, 0,
                         diag.device_sink()));
      }
      else
      {
        go(tiles.prepare(count_tiles<clc::dynamic_tiles<clc::emulated_t>>, dim3(kThreads), 0, 0, diag.device_sink()));
      }
      break;
    }
    PTXW_LAUNCH_OK();

    std::vector<unsigned> host_hits;
    PTXW_CUDA_OK(hits.download(host_hits));
    unsigned long long wrong = 0, first_bad = ref.total;
    for (unsigned t = 0; t < ref.total; ++t)
    {
      for (unsigned role = 0; role < kRoles; ++role)
      {
        if (host_hits[t * kRoles + role] != 1)
        {
          ++wrong;
          first_bad = first_bad == ref.total ? t : first_bad;
        }
      }
    }
    EXPECT_EQ(wrong, 0u) << "run " << run << ": (tile, role) pairs not run exactly once of " << ref.total
                         << " tiles; first bad tile " << first_bad;

    std::vector<Counters> host_counters;
    PTXW_CUDA_OK(counters.download(host_counters));
    EXPECT_EQ(host_counters[0].out_of_range, 0u) << "tiles outside their problem";

    std::vector<RoleLog> host_logs;
    PTXW_CUDA_OK(logs.download(host_logs));
    unsigned ran = 0, disagree = 0, outside = 0;
    unsigned long long units_seen = 0;
    for (unsigned cta = 0; cta < launched; ++cta)
    {
      const RoleLog& first = host_logs[cta * kRoles];
      ran += first.tiles > 0;
      units_seen += first.tiles;
      outside += first.outside;
      for (unsigned role = 1; role < kRoles; ++role)
      {
        const RoleLog& l = host_logs[cta * kRoles + role];
        disagree += l.hash != first.hash || l.tiles != first.tiles;
      }
    }
    EXPECT_EQ(disagree, 0u) << "roles of one CTA that saw different tiles or orders";
    const unsigned ctas_per_unit = static_cast<unsigned>(c.cluster.m * c.cluster.n);
    if (c.tail != clc::dynamic_tail::all && c.policy != Policy::fixed)
    {
      // Each resident block (cluster) that ran its own block took its static head in order: its
      // own unit, then the one a resident grid later.
      EXPECT_EQ(head, clc::static_head(probe.units(), resident, {c.tail}));
      EXPECT_GT(head, 1u) << "the case is meant to have a static head";
      unsigned checked = 0, wrong_head = 0;
      for (unsigned cta = 0; cta < launched; ++cta)
      {
        const RoleLog& l  = host_logs[cta * kRoles];
        const unsigned b  = cta / ctas_per_unit;
        if (b < resident && l.tiles > 0 && l.first == b)
        {
          ++checked;
          wrong_head += l.tiles < 2 || l.second != b + resident;
        }
      }
      EXPECT_GT(checked, 0u) << "no resident block began with its own unit";
      EXPECT_EQ(wrong_head, 0u) << "resident blocks whose second unit is not their own plus the resident grid";
    }
    EXPECT_EQ(units_seen, static_cast<unsigned long long>(probe.units()) * ctas_per_unit)
      << "units handed out (each to every CTA of its cluster)";
    EXPECT_EQ(outside + ref.total, probe.units() * ctas_per_unit) << "cluster tiles past an edge";
    if (c.policy == Policy::fixed)
    {
      EXPECT_EQ(host_counters[0].prologues, launched) << "every CTA of a static launch runs";
    }
    else if (ref.total > 0)
    {
      // A CTA that runs has its own unit first, so the CTAs that saw a tile are those that ran.
      EXPECT_EQ(host_counters[0].prologues, ran) << "a prologue in a CTA that did not run, or none in one that did";
      EXPECT_LT(ran, probe.units() * ctas_per_unit) << "every unit ran in a CTA (cluster) of its own: nothing came through the ring";
    }
    if (c.policy == Policy::emulated && c.spurious > 0)
    {
      EXPECT_GT(tiles.clc().injected_failures(), 0u) << "a fault rate of " << c.spurious << " injected no failure";
    }
    const auto reports = ptxw_test::read_reports(diag);
    EXPECT_EQ(reports.total, 0u) << "a conforming kernel made checked-mode reports:\n" << reports.text;
  }
}

namespace {
std::string case_name(const ::testing::TestParamInfo<Case>& info)
{
  return info.param.name;
}
} // namespace

INSTANTIATE_TEST_SUITE_P(Hopper, TileScheduler, ::testing::ValuesIn(kCases), case_name);

// The owner's launch-time checks on a scheduler that exists: each throws before a launch.
namespace {
class TileSchedulerPrepare : public Gpu
{};
} // namespace

TEST_F(TileSchedulerPrepare, BadLaunchesThrowBeforeLaunching)
{
  clc::tile_scheduler clustered({{1000, 1000}}, kTile, N, {1}, {2, 1});
  expect_rule("ptxw: R14", [&] { (void) clustered.prepare_static(5); });
  expect_rule("ptxw: R10", [&] { (void) clustered.prepare_dynamic<clc::counter_t>(); });
  expect_rule("ptxw: R10", [&] {
    (void) clustered.prepare(count_tiles<clc::dynamic_tiles<clc::counter_t>>, dim3(kThreads));
  });
  const auto in_clusters = clustered.prepare_dynamic<clc::counter_t, clc::cluster_t>();
  EXPECT_EQ(in_clusters.cluster.x, 2u) << "a dynamic schedule of a 2 x 1 cluster shape launches in clusters of 2";
  EXPECT_EQ(in_clusters.grid.x % 2u, 0u);
  clc::tile_scheduler small({{1000, 1000}}, kTile, N, {1}, {1, 1}, 4);
  expect_rule("ptxw: ", [&] { // the emulation holds 4 units of 256
    (void) small.prepare(count_tiles<clc::dynamic_tiles<clc::emulated_t>>, dim3(kThreads));
  });
}
