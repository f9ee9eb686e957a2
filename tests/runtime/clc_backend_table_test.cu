// The backend table (ptxw/clc/backend_table.h): a backend added by this file alone -- its
// clc::detail::backend<> specialisation and one PTXW_CLC_BACKEND row -- runs through every path:
// the typed API, for_each_canceled_block, the host's launch (a resident prefix, as its row says)
// and the device-scope for_each through a selector that names its id. It hands blocks out last
// first, so the tests can tell that its code ran. Then what the table decides for the built-in
// backends: counter_t's typed requests with claims of several blocks, and checked mode's report of
// a context prepared for another backend than the one that runs (R14).
#include <ptxw/algorithms.h>
#include <ptxw/ptxw.h>

#include "clc_launch.h"
#include "clc_walks.h"
#include "gpu.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace table_test {
struct reverse_t
{};
} // namespace table_test

PTXW_NAMESPACE_BEGIN
namespace clc::detail {
//               tag                     id               first sm  PTX ISA  resident prefix  claims per unit  own loop
PTXW_CLC_BACKEND(::table_test::reverse_t, backend_id{7}, 90,       800,     true,            false,           false);

// The units beyond the launched prefix, one per request, from the grid's last down; 1D grids, the
// CTA form. The submitter delivers the response itself (as counter_t), so a phase takes two
// arrivals: the request's and the delivery's.
template <>
struct backend<::table_test::reverse_t>
    : software_decode
    , table_gate<::table_test::reverse_t>
{
  using tag = ::table_test::reverse_t;
  struct state
  {
    unsigned long long* taken;
    uint3 grid;
  };
  static state make_state(const launch_plan& p)
  {
    return {p.counters, p.grid};
  }
  static constexpr ::cuda::std::uint32_t arrivals_per_phase = 2;
  // Narrower than its row: the CTA form only.
  template <class Receivers>
  static constexpr bool supported = runs_here<tag, Receivers> && ::ptxw::detail::is_same_v<Receivers, cta_t>;
  static __device__ uint3 grid(const state& st)
  {
    return st.grid;
  }
  static __device__ bool owns_block()
  {
    return true;
  }
  template <class Receivers>
  __device__ bool start(slot_storage<Receivers>&, const state& st, const checked::sink*)
  {
    launched_ = gridDim.x;
    total_    = st.grid.x;
    return true;
  }
  template <class Receivers>
  __device__ void request(slot_storage<Receivers>& s, const state& st, bool submit, bool fail)
  {
    if (submit)
    {
      s.bar.arrive(ptx::sem_relaxed, ptx::scope_cta);
      const unsigned long long k = fail ? ~0ull : atomicAdd(st.taken, 1ull);
      next_                      = k < total_ - launched_ ? total_ - 1 - static_cast<unsigned>(k) : total_;
      pending_                   = true;
    }
  }
  template <class Receivers, class Wait>
  __device__ bool receive(slot_storage<Receivers>& s, const state&, phase& ph, uint4& out, Wait&& wait)
  {
    if (pending_)
    {
      s.response = next_ < total_ ? canceled_response({next_, 0u, 0u}) : failure_response();
      s.bar.arrive();
      pending_ = false;
    }
    if (!wait(s.bar, ph))
    {
      return false;
    }
    out = s.response;
    return true;
  }

  unsigned launched_ = 0, total_ = 0, next_ = 0;
  bool pending_      = false;
};
} // namespace clc::detail
PTXW_NAMESPACE_END

namespace {
namespace clc = ptxw::clc;
using reverse_t = table_test::reverse_t;

constexpr unsigned kThreads = 128;

// Block b's visits, and the order in which blocks beyond the launch ran.
struct Record
{
  unsigned* hits;
  unsigned* order; // per block: 1 + its place among the stolen ones, 0 for a CTA's own
  unsigned* stolen;

  __device__ void operator()(unsigned block, bool own) const
  {
    if (threadIdx.x == 0)
    {
      atomicAdd(&hits[block], 1u);
      if (!own)
      {
        order[block] = 1u + atomicAdd(stolen, 1u);
      }
    }
  }
};

template <class Backend>
constexpr auto typed = ptxw_test::typed_walk<Backend, Record>;
template <class Backend>
constexpr auto looped = ptxw_test::looped_walk<Backend, Record>;

struct Recorded
{
  std::vector<unsigned> hits, order;
  unsigned stolen = 0;
};

class ClcBackendTable : public Gpu
{
protected:
  void SetUp() override
  {
    Gpu::SetUp();
    if (!IsSkipped() && !HasFatalFailure())
    {
      diag_.emplace(64, 1000000000ull);
    }
  }

  // Launches kernel over `blocks` through scheduler.prepare(kernel, ...), checked mode's reports
  // into diag_; every block exactly once.
  template <class Backend>
  Recorded run(void (*kernel)(Record, clc::context<Backend>), unsigned blocks, unsigned& launched)
  {
    Recorded out;
    DeviceBuffer<unsigned> hits, order, stolen;
    EXPECT_EQ(hits.allocate(blocks), cudaSuccess);
    EXPECT_EQ(order.allocate(blocks), cudaSuccess);
    EXPECT_EQ(stolen.allocate(1), cudaSuccess);
    EXPECT_EQ(hits.fill_bytes(0), cudaSuccess);
    EXPECT_EQ(order.fill_bytes(0), cudaSuccess);
    EXPECT_EQ(stolen.fill_bytes(0), cudaSuccess);
    clc::scheduler sched;
    auto l   = sched.prepare(kernel, dim3(blocks), dim3(kThreads), 0, dim3(1), 0, diag_->device_sink());
    launched = l.grid.x;
    kernel<<<l.grid, kThreads>>>(Record{hits.get(), order.get(), stolen.get()}, l.ctx);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(hits.download(out.hits), cudaSuccess);
    EXPECT_EQ(order.download(out.order), cudaSuccess);
    std::vector<unsigned> s;
    EXPECT_EQ(stolen.download(s), cudaSuccess);
    out.stolen = s.empty() ? 0 : s[0];
    const auto wrong = std::count_if(out.hits.begin(), out.hits.end(), [](unsigned h) { return h != 1; });
    EXPECT_EQ(wrong, 0) << "blocks not run exactly once";
    const auto reports = ptxw_test::read_reports(*diag_);
    EXPECT_EQ(reports.total, 0u) << reports.text;
    return out;
  }

  // The added backend hands out the last block first: among the blocks beyond the launch, those
  // stolen first have the highest indices (a CTA may run its stolen block a little late, so the
  // check compares the first and the last hundred).
  static void expect_last_first(const Recorded& r, unsigned launched)
  {
    ASSERT_GT(r.stolen, 1000u) << "too few blocks stolen to see an order";
    unsigned lowest_early = ~0u, highest_late = 0;
    for (unsigned b = launched; b < r.order.size(); ++b)
    {
      if (r.order[b] != 0 && r.order[b] <= 100)
      {
        lowest_early = std::min(lowest_early, b);
      }
      if (r.order[b] > r.stolen - 100)
      {
        highest_late = std::max(highest_late, b);
      }
    }
    EXPECT_GT(lowest_early, highest_late) << "the added backend's order (last block first) did not show";
  }

  std::optional<ptxw::checked::diagnostics> diag_;
};

TEST_F(ClcBackendTable, AddedBackendRunsTheTypedApiOnAResidentPrefix)
{
  unsigned launched     = 0;
  const unsigned blocks = 200000;
  const Recorded r      = run<reverse_t>(typed<reverse_t>, blocks, launched);
  EXPECT_LT(launched, blocks) << "the row says resident prefix; the whole grid was launched";
  EXPECT_EQ(r.stolen, blocks - launched);
  expect_last_first(r, launched);
}

TEST_F(ClcBackendTable, AddedBackendRunsForEachCanceledBlock)
{
  unsigned launched     = 0;
  const unsigned blocks = 200000;
  const Recorded r      = run<reverse_t>(looped<reverse_t>, blocks, launched);
  EXPECT_LT(launched, blocks);
  expect_last_first(r, launched);
}

struct mark
{
  unsigned* marks;
  __device__ void operator()(unsigned long long i) const
  {
    atomicAdd(&marks[i], 1u);
  }
};

struct reverse_selector
{
  constexpr ptxw::device::for_each_policy operator()(ptxw::device::compute_capability) const
  {
    return {128, 2, 1, clc::backend_id{7}, 0};
  }
};

TEST_F(ClcBackendTable, AddedBackendRunsTheDeviceScopeForEach)
{
  const unsigned long long n = 20000003; // tiles for several waves: stolen
  DeviceBuffer<unsigned> marks;
  PTXW_CUDA_OK(marks.allocate_zeroed(n));
  PTXW_CUDA_OK(ptxw::device::for_each_canceled<reverse_selector>(n, mark{marks.get()}));
  PTXW_CUDA_OK(cudaDeviceSynchronize());
  std::vector<unsigned> host;
  PTXW_CUDA_OK(marks.download(host));
  EXPECT_EQ(std::count(host.begin(), host.end(), 1u), static_cast<long>(n)) << "indices not run exactly once";
}

// counter_t through the typed API with blocks that take no time: the submitter claims several
// blocks per atomic and hands them out one request at a time (ptxw/clc/counter.h's batch).
TEST_F(ClcBackendTable, CounterTypedRequestsWithClaimsOfSeveralBlocks)
{
  unsigned launched     = 0;
  const unsigned blocks = 2000000;
  const Recorded r      = run<clc::counter_t>(typed<clc::counter_t>, blocks, launched);
  EXPECT_EQ(r.stolen, blocks - launched);
}

// automatic_t prepared on the host for the hardware (as a host reading another architecture than
// the code's would), run by counter_t on sm_90: reported, and every block still runs once.
TEST_F(ClcBackendTable, R14ContextPreparedForAnotherBackend)
{
  PTXW_SKIP_UNLESS_CHECKED();
  const unsigned blocks = 4096;
  DeviceBuffer<unsigned> hits, order, stolen;
  PTXW_CUDA_OK(hits.allocate(blocks));
  PTXW_CUDA_OK(order.allocate(blocks));
  PTXW_CUDA_OK(stolen.allocate(1));
  PTXW_CUDA_OK(hits.fill_bytes(0));
  PTXW_CUDA_OK(stolen.fill_bytes(0));
  clc::scheduler sched;
  auto ctx     = sched.prepare<clc::automatic_t>(dim3(blocks), dim3(1), 0, diag_->device_sink());
  ctx.prepared = clc::backend_id::hardware;
  typed<clc::automatic_t><<<blocks, kThreads>>>(Record{hits.get(), order.get(), stolen.get()}, ctx);
  PTXW_LAUNCH_OK();
  std::vector<unsigned> host;
  PTXW_CUDA_OK(hits.download(host));
  EXPECT_EQ(std::count(host.begin(), host.end(), 1u), static_cast<long>(blocks));
  const auto reports = ptxw_test::read_reports(*diag_);
  EXPECT_EQ(reports.total, 1u) << reports.text;
  EXPECT_TRUE(reports.has(14)) << reports.text;
  const auto d = diag_->read();
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d[0].detail, static_cast<unsigned>(clc::backend_id::hardware));
}

} // namespace
