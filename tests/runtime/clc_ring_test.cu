// The cluster launch control response ring (ptxw/clc/ring.h) on Hopper's software backends: a
// warp-specialised kernel -- one scheduler warp, three consumer warps per CTA -- runs a power-law
// sparse matrix-vector product over about 100 000 block indices, each block a tile of rows whose
// rows the three roles share. Every block index is run exactly once by each role (counted on the
// host), every role of a CTA sees the same blocks in the same order and the failure exactly once,
// the product is right, and a conforming kernel makes no checked-mode report. Depths 1, 2 and 4 (1:
// the benchmark's one block ahead, the one stage reused every step); on
// counter_t (resident-prefix launch), on the faithful emulation and under its spurious failures;
// and the cluster form in clusters of 2 and 4 CTAs, whose every CTA runs its block of each
// answer. In checked builds also: each planted violation of the ring's protocol and the report it
// gets.
#include <ptxw/ptxw.h>

#include "clc_launch.h"
#include "gpu.h"

#include <cmath>
#include <optional>
#include <ostream>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

namespace clc = ptxw::clc;

constexpr unsigned kRoles        = 3; // consumer warps per CTA
constexpr unsigned kThreads      = 32 * (1 + kRoles); // warp 0: the scheduler
constexpr unsigned kRowsPerBlock = 6; // two rows per role and block

// A CSR matrix of integers (exact sums whatever the order) and the vectors of y = A x.
struct Csr
{
  const unsigned* row_start; // rows + 1
  const int* col;
  const int* val;
  const int* x;
  int* y;
  unsigned rows;
};

// What one role of one CTA saw: the blocks in order (a hash of the sequence), how many, and how
// many failures ended its loop.
struct RoleLog
{
  unsigned long long hash;
  unsigned blocks;
  unsigned failures;
};

// The role's rows of tile b: row b * kRowsPerBlock + k for k = role, role + kRoles, ...; one warp
// per row, lanes over its nonzeros.
__device__ void spmv_tile(const Csr& m, unsigned b, unsigned role)
{
  const unsigned lane = threadIdx.x % 32;
  for (unsigned k = role; k < kRowsPerBlock; k += kRoles)
  {
    const unsigned row = b * kRowsPerBlock + k;
    if (row >= m.rows)
    {
      break;
    }
    int sum = 0;
    for (unsigned j = m.row_start[row] + lane; j < m.row_start[row + 1]; j += 32)
    {
      sum += m.val[j] * m.x[m.col[j]];
    }
    for (int off = 16; off > 0; off /= 2)
    {
      sum += __shfl_xor_sync(0xffffffffu, sum, off);
    }
    if (lane == 0)
    {
      m.y[row] = sum;
    }
  }
}

// The roles of the tests' rings, written once: warps [0, Schedulers) schedule (by default the
// scheduler's run from the CTA's elected lane), the other warps are the consumer roles 0, 1, ...;
// a CTA the emulation canceled leaves before either.
struct run_scheduler
{
  template <class Handle>
  __device__ void operator()(Handle& r) const
  {
    r.scheduler().run(r.elect());
  }
};

template <unsigned Depth, unsigned Schedulers = 1, class Receivers = clc::cta_t, class Backend, class Consume,
          class Schedule = run_scheduler>
__device__ void ring_roles(const clc::context<Backend>& ctx, Consume&& consume, Schedule schedule = {})
{
  __shared__ clc::ring<Depth, kRoles, Receivers> ring;
  auto r = clc::open(ring, ctx);
  if (!r.started())
  {
    return;
  }
  const unsigned warp = threadIdx.x / 32;
  if (warp < Schedulers)
  {
    schedule(r);
    return;
  }
  consume(r, warp - Schedulers);
}

// A role's work on block b and what the host checks of it: a hit per (block, role), and the role's
// sequence of blocks as a hash; the log is written once, at the end.
__device__ void visit(const Csr& m, unsigned* hits, RoleLog& log, unsigned b, unsigned role)
{
  spmv_tile(m, b, role);
  if (threadIdx.x % 32 == 0)
  {
    atomicAdd(&hits[static_cast<unsigned long long>(b) * kRoles + role], 1u);
  }
  log.hash = log.hash * 1000003ull + b + 1;
  ++log.blocks;
}

__device__ void write_log(RoleLog* logs, const RoleLog& log, unsigned role)
{
  if (threadIdx.x % 32 == 0)
  {
    logs[static_cast<unsigned long long>(blockIdx.x) * kRoles + role] = log;
  }
}

template <unsigned Depth, class Receivers, class Backend>
__global__ void spmv_ring(Csr m, unsigned* hits, RoleLog* logs, clc::context<Backend> ctx)
{
  ring_roles<Depth, 1, Receivers>(
    ctx,
    [&](auto& r, unsigned role) {
      auto consumer = r.consumer(role);
      RoleLog log{0ull, 0u, 0u};
      if (r.owns_block())
      {
        visit(m, hits, log, blockIdx.x, role);
      }
      while (true)
      {
        auto token = consumer.wait();
        const auto b = token.block();
        consumer.release(std::move(token));
        if (!b)
        {
          ++log.failures;
          break;
        }
        visit(m, hits, log, b.x(), role);
      }
      write_log(logs, log, role);
    });
}

// The same roles through consumer.for_each (the own block first, then the ring).
template <unsigned Depth, class Receivers, class Backend>
__global__ void spmv_ring_for_each(Csr m, unsigned* hits, RoleLog* logs, clc::context<Backend> ctx)
{
  ring_roles<Depth, 1, Receivers>(
    ctx,
    [&](auto& r, unsigned role) {
      RoleLog log{0ull, 0u, 1u};
      r.consumer(role).for_each([&](dim3 b) { visit(m, hits, log, b.x, role); });
      write_log(logs, log, role);
    });
}

// A power-law matrix: row lengths from a Pareto law (shape 1.5, at least 1, at most 2048), about 4
// nonzeros a row on average with a few rows of thousands.
struct HostCsr
{
  std::vector<unsigned> row_start;
  std::vector<int> col, val, x, y;
};

HostCsr power_law_matrix(unsigned rows, unsigned cols, std::uint32_t seed)
{
  HostCsr h;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(1e-9, 1.0);
  h.row_start.resize(rows + 1);
  h.row_start[0] = 0;
  for (unsigned r = 0; r < rows; ++r)
  {
    const double len = std::pow(u(rng), -1.0 / 1.5);
    h.row_start[r + 1] = h.row_start[r] + static_cast<unsigned>(len < 2048.0 ? len : 2048.0);
  }
  const unsigned nnz = h.row_start[rows];
  h.col.resize(nnz);
  h.val.resize(nnz);
  for (unsigned j = 0; j < nnz; ++j)
  {
    h.col[j] = static_cast<int>(rng() % cols);
    h.val[j] = static_cast<int>(rng() % 7) - 3;
  }
  h.x.resize(cols);
  for (auto& v : h.x)
  {
    v = static_cast<int>(rng() % 11) - 5;
  }
  h.y.assign(rows, 0);
  for (unsigned r = 0; r < rows; ++r)
  {
    int s = 0;
    for (unsigned j = h.row_start[r]; j < h.row_start[r + 1]; ++j)
    {
      s += h.val[j] * h.x[h.col[j]];
    }
    h.y[r] = s;
  }
  return h;
}

enum class Backend
{
  counter,
  emulated
};

struct Case
{
  const char* name;
  Backend backend;
  unsigned depth;
  double spurious; // emulated_t only
  bool for_each; // consumer.for_each instead of the wait/release loop
  unsigned cluster = 1; // CTAs per cluster: above 1, the ring's cluster form
};

std::ostream& operator<<(std::ostream& os, const Case& c)
{
  return os << c.name;
}

constexpr unsigned kBlocks = 100004; // block indices: tiles of kRowsPerBlock rows, whole clusters of 4

constexpr Case kCases[] = {
  {"CounterDepth1", Backend::counter, 1, 0.0, false},
  {"CounterDepth1ForEach", Backend::counter, 1, 0.0, true},
  {"CounterDepth2", Backend::counter, 2, 0.0, false},
  {"CounterDepth4", Backend::counter, 4, 0.0, false},
  {"CounterDepth4ForEach", Backend::counter, 4, 0.0, true},
  {"EmulatedDepth1", Backend::emulated, 1, 0.0, false},
  {"EmulatedDepth1Fail10", Backend::emulated, 1, 0.10, false},
  {"EmulatedDepth2", Backend::emulated, 2, 0.0, false},
  {"EmulatedDepth4", Backend::emulated, 4, 0.0, false},
  {"EmulatedDepth2ForEach", Backend::emulated, 2, 0.0, true},
  {"EmulatedDepth2Fail10", Backend::emulated, 2, 0.10, false},
  {"EmulatedDepth4Fail10", Backend::emulated, 4, 0.10, false},
  {"EmulatedDepth4Fail50", Backend::emulated, 4, 0.50, false},
  {"CounterCluster2Depth1", Backend::counter, 1, 0.0, false, 2},
  {"CounterCluster2Depth2ForEach", Backend::counter, 2, 0.0, true, 2},
  {"CounterCluster4Depth4", Backend::counter, 4, 0.0, false, 4},
  {"EmulatedCluster2Depth1", Backend::emulated, 1, 0.0, false, 2},
  {"EmulatedCluster2Depth2Fail10", Backend::emulated, 2, 0.10, false, 2},
  {"EmulatedCluster4Depth4ForEach", Backend::emulated, 4, 0.0, true, 4},
};

template <unsigned Depth, class B, class Receivers>
void launch_form(const Case& c, clc::scheduler& sched, const ptxw::checked::sink* sink, const Csr& m, unsigned* hits,
                 RoleLog* logs, unsigned& launched)
{
  auto kernel         = c.for_each ? spmv_ring_for_each<Depth, Receivers, B> : spmv_ring<Depth, Receivers, B>;
  const dim3 cluster = dim3(c.cluster, 1, 1);
  auto plan           = sched.prepare(kernel, dim3(kBlocks), dim3(kThreads), 0, cluster, 0, sink);
  launched            = plan.grid.x;
  if constexpr (std::is_same_v<Receivers, clc::cluster_t>)
  {
    PTXW_CUDA_OK(clc::launch_in_clusters(kernel, plan.grid, dim3(kThreads), cluster, 0, 0, m, hits, logs, plan.ctx));
  }
  else
  {
    kernel<<<plan.grid, kThreads>>>(m, hits, logs, plan.ctx);
  }
}

template <unsigned Depth, class B>
void launch(const Case& c, clc::scheduler& sched, const ptxw::checked::sink* sink, const Csr& m, unsigned* hits,
            RoleLog* logs, unsigned& launched)
{
  if (c.cluster > 1)
  {
    launch_form<Depth, B, clc::cluster_t>(c, sched, sink, m, hits, logs, launched);
  }
  else
  {
    launch_form<Depth, B, clc::cta_t>(c, sched, sink, m, hits, logs, launched);
  }
}

template <class B>
void launch_depth(const Case& c, clc::scheduler& sched, const ptxw::checked::sink* sink, const Csr& m, unsigned* hits,
                  RoleLog* logs, unsigned& launched)
{
  if (c.depth == 1)
  {
    launch<1, B>(c, sched, sink, m, hits, logs, launched);
  }
  else if (c.depth == 2)
  {
    launch<2, B>(c, sched, sink, m, hits, logs, launched);
  }
  else
  {
    launch<4, B>(c, sched, sink, m, hits, logs, launched);
  }
}

class ClcRing
    : public Gpu
    , public ::testing::WithParamInterface<Case>
{};

TEST_P(ClcRing, EveryBlockOnceEveryRoleTheSameSequence)
{
  const Case& c       = GetParam();
  const bool emulated = c.backend == Backend::emulated;
  const unsigned rows = kBlocks * kRowsPerBlock;
  const HostCsr h     = power_law_matrix(rows, 1u << 16, 12345u);

  DeviceBuffer<unsigned> row_start;
  DeviceBuffer<int> col, val, x, y;
  PTXW_CUDA_OK(row_start.assign(h.row_start));
  PTXW_CUDA_OK(col.assign(h.col));
  PTXW_CUDA_OK(val.assign(h.val));
  PTXW_CUDA_OK(x.assign(h.x));
  PTXW_CUDA_OK(y.allocate(rows));
  const Csr m{row_start.get(), col.get(), val.get(), x.get(), y.get(), rows};

  clc::scheduler sched(emulated ? kBlocks : 0);
  if (emulated)
  {
    sched.set_spurious_failure_rate(c.spurious);
  }
  auto diag = ptxw_test::long_wait_diagnostics();
  DeviceBuffer<unsigned> hits;
  PTXW_CUDA_OK(hits.allocate(static_cast<std::size_t>(kBlocks) * kRoles));
  DeviceBuffer<RoleLog> logs;
  PTXW_CUDA_OK(logs.allocate(static_cast<std::size_t>(kBlocks) * kRoles));

  // Twice with the same scheduler: the second launch must not see the first one's claims.
  for (int run = 0; run < 2; ++run)
  {
    PTXW_CUDA_OK(hits.fill_bytes(0));
    PTXW_CUDA_OK(logs.fill_bytes(0));
    PTXW_CUDA_OK(y.fill_bytes(0xff));
    unsigned launched = 0;
    if (emulated)
    {
      launch_depth<clc::emulated_t>(c, sched, diag.device_sink(), m, hits.get(), logs.get(), launched);
    }
    else
    {
      launch_depth<clc::counter_t>(c, sched, diag.device_sink(), m, hits.get(), logs.get(), launched);
    }
    PTXW_LAUNCH_OK();

    std::vector<unsigned> host_hits;
    PTXW_CUDA_OK(hits.download(host_hits));
    unsigned long long wrong = 0, first_bad = kBlocks;
    for (unsigned b = 0; b < kBlocks; ++b)
    {
      for (unsigned role = 0; role < kRoles; ++role)
      {
        if (host_hits[b * kRoles + role] != 1)
        {
          ++wrong;
          first_bad = first_bad == kBlocks ? b : first_bad;
        }
      }
    }
    EXPECT_EQ(wrong, 0u) << "run " << run << ": (block, role) pairs not run exactly once; first bad block "
                         << first_bad << " (hits " << host_hits[first_bad * kRoles] << ")";

    std::vector<int> host_y;
    PTXW_CUDA_OK(y.download(host_y));
    unsigned long long bad_rows = 0;
    for (unsigned r = 0; r < rows; ++r)
    {
      bad_rows += host_y[r] != h.y[r];
    }
    EXPECT_EQ(bad_rows, 0u) << "rows of y = A x that differ from the host's";

    std::vector<RoleLog> host_logs;
    PTXW_CUDA_OK(logs.download(host_logs));
    unsigned ran = 0, disagree = 0, not_one_failure = 0;
    unsigned long long stolen = 0;
    for (unsigned cta = 0; cta < launched; ++cta)
    {
      const RoleLog& first = host_logs[cta * kRoles];
      if (first.blocks == 0 && first.failures == 0)
      {
        continue; // a canceled CTA (emulated_t): no role ran
      }
      ++ran;
      stolen += first.blocks - 1;
      for (unsigned role = 0; role < kRoles; ++role)
      {
        const RoleLog& l = host_logs[cta * kRoles + role];
        disagree += l.hash != first.hash || l.blocks != first.blocks;
        not_one_failure += l.failures != 1;
      }
    }
    EXPECT_EQ(disagree, 0u) << "roles of one CTA that saw different blocks or orders";
    EXPECT_EQ(not_one_failure, 0u) << "roles that did not end at exactly one failure";
    EXPECT_GT(stolen, 0u) << "no block index came through the ring";
    EXPECT_LT(ran, kBlocks) << "every block ran in a CTA of its own: nothing was canceled";
    if (emulated && c.spurious > 0)
    {
      EXPECT_GT(sched.injected_failures(), 0u) << "a fault rate of " << c.spurious << " injected no failure";
    }
    const auto reports = ptxw_test::read_reports(diag);
    EXPECT_EQ(reports.total, 0u) << "a conforming kernel made checked-mode reports:\n" << reports.text;
    RecordProperty("stolen_run" + std::to_string(run), std::to_string(stolen));
  }
}

std::string case_name(const ::testing::TestParamInfo<Case>& info)
{
  return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(Hopper, ClcRing, ::testing::ValuesIn(kCases), case_name);

#if PTXW_CHECKED
// Violations of the ring's protocol that only run time shows, each planted on one CTA that serves
// a grid of `blocks` through its ring, and the report it must get -- never a hang.

constexpr unsigned kLazyRole = 2; // the role that stops releasing
constexpr unsigned kLazyStep = 2; // at its step 2 (stage 2 % Depth)

// R4: role kLazyRole keeps the token of its step kLazyStep without releasing it; the scheduler's
// request into that stage a round later waits for it in vain and reports the stage and the role.
// In the cluster form the lazy role is the last CTA's of the cluster, and the leader's scheduler
// reports it.
template <unsigned Depth, class Receivers, class Backend>
__global__ void role_stops_releasing(clc::context<Backend> ctx)
{
  const bool lazy_cta = ptxw::ptx::get_sreg_cluster_ctarank() + 1 == ptxw::ptx::get_sreg_cluster_nctarank();
  ring_roles<Depth, 1, Receivers>(
    ctx,
    [&](auto& r, unsigned role) {
      auto consumer = r.consumer(role);
      for (unsigned step = 0;; ++step)
      {
        auto token      = consumer.wait();
        const bool more = token.is_canceled();
        if (!lazy_cta || role != kLazyRole || step != kLazyStep)
        {
          consumer.release(std::move(token));
        }
        if (!more)
        {
          break;
        }
      }
    });
}

// R5 in the cluster form (facebookexperimental/triton #908): only the leader CTA runs its
// scheduler, so the other CTA's copies of the stages are never armed and its consumers wait for
// an answer that cannot complete; their bounded waits report it, and the leader's wait for their
// releases ends in R4: no hang, and (the handle's cluster barrier in checked mode) no CTA left
// while the leader still delivers into it.
template <class Backend>
__global__ void only_the_leader_schedules(clc::context<Backend> ctx)
{
  ring_roles<2, 1, clc::cluster_t>(
    ctx, [](auto& r, unsigned role) { r.consumer(role).for_each([](dim3) {}); },
    [](auto& r) {
      if (ptxw::ptx::get_sreg_cluster_ctarank() == 0)
      {
        r.scheduler().run(r.elect());
      }
    });
}

// R1: the scheduler requests again after its run ended at the failure.
template <class Backend>
__global__ void request_after_failure(clc::context<Backend> ctx)
{
  ring_roles<2>(
    ctx, [](auto& r, unsigned role) { r.consumer(role).for_each([](dim3) {}); },
    [](auto& r) {
      const auto sub = r.elect();
      auto s         = r.scheduler();
      s.run(sub);
      (void) s.request(sub); // R1
    });
}

// R3: two warps run the scheduler role (kThreads + 32 threads: warps 0 and 1 schedule).
template <class Backend>
__global__ void two_schedulers(clc::context<Backend> ctx)
{
  // R3 for the second scheduler warp.
  ring_roles<2, 2>(ctx, [](auto& r, unsigned role) { r.consumer(role).for_each([](dim3) {}); });
}

// R2: lane 0 of role 0 reads the block index of the failure that ends its loop.
template <class Backend>
__global__ void index_of_the_failure(clc::context<Backend> ctx, unsigned* out)
{
  ring_roles<2>(
    ctx,
    [&](auto& r, unsigned role) {
      auto consumer = r.consumer(role);
      while (true)
      {
        auto token   = consumer.wait();
        const auto b = token.block();
        consumer.release(std::move(token));
        if (!b)
        {
          if (threadIdx.x == 32)
          {
            *out = b.x(); // R2
          }
          break;
        }
      }
    });
}

// R18: a fourth consumer warp names role kRoles, outside [0, kRoles) (kThreads + 32 threads).
template <class Backend>
__global__ void role_out_of_range(clc::context<Backend> ctx)
{
  // Warp 4: role 3, R18.
  ring_roles<2>(ctx, [](auto& r, unsigned role) { r.consumer(role).for_each([](dim3) {}); });
}

template <class Backend>
class ClcRingChecked : public ptxw_test::ClcCheckedFixture<Backend>
{
protected:
  using ptxw_test::ClcCheckedFixture<Backend>::diag_;
  using ptxw_test::ClcCheckedFixture<Backend>::expect_reports;
  using ptxw_test::ClcCheckedFixture<Backend>::prepare;

  // One CTA, or one cluster of `cluster` CTAs, serves a grid of 64 blocks (clusters): the ring runs
  // well past the lazy role's step.
  template <unsigned Depth, class Receivers = clc::cta_t>
  void stage_never_released(unsigned cluster = 1)
  {
    auto kernel = role_stops_releasing<Depth, Receivers, Backend>;
    if constexpr (std::is_same_v<Receivers, clc::cluster_t>)
    {
      PTXW_CUDA_OK(clc::launch_in_clusters(kernel, dim3(cluster), dim3(kThreads), dim3(cluster), 0, 0,
                                           prepare(dim3(64 * cluster), dim3(cluster))));
    }
    else
    {
      kernel<<<1, kThreads>>>(prepare(64));
    }
    PTXW_LAUNCH_OK();
    // Consumers waiting for the stage the scheduler withholds may run out of time too (R5, R6);
    // their tokens, and the failure the scheduler answers with, are released without an R4 report:
    // the scheduler's is the only one (the other roles' releases of the round before are not a
    // second release of the failure's round).
    const auto reports = expect_reports(4, {5, 6});
    bool named         = false;
    unsigned r4        = 0;
    for (const auto& d : diag_->read())
    {
      if (d.rule == 4)
      {
        ++r4;
        EXPECT_EQ(d.phase % Depth, kLazyStep % Depth) << "the stage (phase % Depth):\n" << reports.text;
        EXPECT_EQ(d.phase, kLazyStep + Depth) << "the request a round after the lazy role's step:\n" << reports.text;
        EXPECT_EQ(d.detail, 1u << kLazyRole) << "the roles that did not release (a bit each):\n" << reports.text;
        EXPECT_EQ(d.thread[0] / 32, 0u) << "reported by the scheduler warp:\n" << reports.text;
        EXPECT_EQ(d.block[0], 0u) << "reported by the CTA that submits (the leader):\n" << reports.text;
        named = true;
      }
    }
    EXPECT_TRUE(named);
    EXPECT_EQ(r4, 1u) << "one R4 report, the scheduler's:\n" << reports.text;
  }

};

TYPED_TEST_SUITE(ClcRingChecked, ptxw_test::HopperBackends, ptxw_test::HopperBackendName);

TYPED_TEST(ClcRingChecked, R4StageNeverReleasedDepth1)
{
  this->template stage_never_released<1>();
}

TYPED_TEST(ClcRingChecked, R4StageNeverReleasedDepth2)
{
  this->template stage_never_released<2>();
}

TYPED_TEST(ClcRingChecked, R4StageNeverReleasedDepth4)
{
  this->template stage_never_released<4>();
}

TYPED_TEST(ClcRingChecked, R4ClusterStageNeverReleasedByAnotherCta)
{
  this->template stage_never_released<2, clc::cluster_t>(2);
}

TYPED_TEST(ClcRingChecked, R5ClusterOnlyTheLeaderArms)
{
  PTXW_CUDA_OK(clc::launch_in_clusters(only_the_leader_schedules<TypeParam>, dim3(2), dim3(kThreads), dim3(2), 0, 0,
                                       this->prepare(dim3(64), dim3(2))));
  PTXW_LAUNCH_OK();
  const auto reports = this->expect_reports(5, {4});
  unsigned r5_other_cta = 0;
  for (const auto& d : this->diag_->read())
  {
    r5_other_cta += d.rule == 5 && d.block[0] == 1 && d.detail < kRoles;
  }
  EXPECT_EQ(r5_other_cta, kRoles) << "each consumer role of the CTA that never armed, named:\n" << reports.text;
}

TYPED_TEST(ClcRingChecked, R1RequestAfterTheFailure)
{
  request_after_failure<TypeParam><<<1, kThreads>>>(this->prepare(1));
  PTXW_LAUNCH_OK();
  this->expect_reports(1);
  EXPECT_EQ(this->diag_->count(), 1u) << "one request after the failure, one report";
}

TYPED_TEST(ClcRingChecked, R3TwoSchedulers)
{
  two_schedulers<TypeParam><<<1, kThreads + 32>>>(this->prepare(1));
  PTXW_LAUNCH_OK();
  this->expect_reports(3);
  EXPECT_EQ(this->diag_->count(), 1u) << "one step (the grid of one block fails at once), one second submitter";
}

TYPED_TEST(ClcRingChecked, R2IndexOfTheFailure)
{
  DeviceBuffer<unsigned> out;
  PTXW_CUDA_OK(out.allocate(1));
  PTXW_CUDA_OK(out.fill_bytes(0xff));
  index_of_the_failure<TypeParam><<<1, kThreads>>>(this->prepare(8), out.get());
  PTXW_LAUNCH_OK();
  this->expect_reports(2);
  EXPECT_EQ(this->diag_->count(), 1u);
  std::vector<unsigned> host;
  PTXW_CUDA_OK(out.download(host));
  EXPECT_EQ(host[0], 0u) << "checked mode gives 0 for the index of a failure";
}

TYPED_TEST(ClcRingChecked, R18RoleOutOfRange)
{
  role_out_of_range<TypeParam><<<1, kThreads + 32>>>(this->prepare(16));
  PTXW_LAUNCH_OK();
  // The extra role is not counted by the stages' releases, so the scheduler may refill a stage
  // before it read it, and it may wait for a response that never comes (R5, R6): never a hang.
  const auto reports = this->expect_reports(18, {5, 6});
  unsigned r18       = 0;
  for (unsigned r : reports.rules)
  {
    r18 += r == 18;
  }
  EXPECT_EQ(r18, 1u) << "one report for the warp:\n" << reports.text;
}
#endif

} // namespace
