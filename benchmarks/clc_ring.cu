// benchmarks/clc_ring.cu: the cluster launch control response ring (ptxw/clc/ring.h) on counter_t --
// a scheduler warp and three consumer warps per CTA -- against a plain launch (one CTA a tile) and a
// hand-written atomicAdd queue (a persistent grid, thread 0 claims the next tile before the work
// of the current one), on a power-law SpMV: y = A x over tiles of 64 rows, one warp a row. Each is
// timed in turn (best of the passes) and the ring's time printed as a ratio to the best of the
// other two, side by side in one run. Every y is checked against the plain launch's.
//
//   ptxw_bench_clc_ring [--rows-log2 N] [--passes N]
#include <ptxw/clc.h>
#include <ptxw/host/clc.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "harness.h"

namespace {

namespace clc = ptxw::clc;

constexpr unsigned kTileRows = 64;
constexpr unsigned kThreads  = 128; // four warps in every kernel
constexpr unsigned kRoles    = 3; // the ring: warp 0 schedules, warps 1-3 consume

struct Csr
{
  const unsigned* row_start;
  const int* col;
  const float* val;
  const float* x;
  float* y;
  unsigned rows;
};

// Rows first, first + stride, ... of tile t, one warp each.
__device__ __forceinline__ void spmv_rows(const Csr& m, unsigned t, unsigned first, unsigned stride)
{
  const unsigned lane = threadIdx.x % 32;
  for (unsigned k = first; k < kTileRows; k += stride)
  {
    const unsigned row = t * kTileRows + k;
    if (row >= m.rows)
    {
      return;
    }
    float sum = 0.f;
    for (unsigned j = m.row_start[row] + lane; j < m.row_start[row + 1]; j += 32)
    {
      sum += m.val[j] * __ldg(&m.x[m.col[j]]);
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

__global__ void __launch_bounds__(kThreads) plain(Csr m)
{
  spmv_rows(m, blockIdx.x, threadIdx.x / 32, kThreads / 32);
}

// The hand-written queue: thread 0 claims the next tile before the current one's work and hands it
// over behind the barrier that ends that work (two alternating slots).
__global__ void __launch_bounds__(kThreads) queue(Csr m, unsigned tiles, unsigned* counter)
{
  __shared__ unsigned next[2];
  unsigned t = blockIdx.x;
  for (unsigned k = 0; t < tiles; k ^= 1)
  {
    if (threadIdx.x == 0)
    {
      next[k] = gridDim.x + atomicAdd(counter, 1u);
    }
    spmv_rows(m, t, threadIdx.x / 32, kThreads / 32);
    __syncthreads();
    t = next[k];
  }
}

template <unsigned Depth>
__global__ void __launch_bounds__(kThreads) ring(Csr m, clc::context<clc::counter_t> ctx)
{
  __shared__ clc::ring<Depth, kRoles> r;
  auto h = clc::open(r, ctx);
  const unsigned warp = threadIdx.x / 32;
  if (warp == 0)
  {
    h.scheduler().run(h.elect());
    return;
  }
  h.consumer(warp - 1).for_each([&](dim3 b) { spmv_rows(m, b.x, warp - 1, kRoles); });
}

struct Options
{
  long long rows_log2 = 22;
  long long passes    = 5;
};

class Bench
{
  Options o_;

public:
  explicit Bench(const Options& o)
      : o_(o)
  {}

  int run()
  {
    // Row lengths from a Pareto law (shape 1.2, scale 2), at most 4096: most rows short, a few long.
    const unsigned rows  = 1u << o_.rows_log2;
    const unsigned tiles = (rows + kTileRows - 1) / kTileRows;
    std::vector<unsigned> row_start(rows + 1, 0);
    unsigned long long s = 88172645463325252ull;
    auto next            = [&] {
      s ^= s << 13;
      s ^= s >> 7;
      s ^= s << 17;
      return s;
    };
    for (unsigned r = 0; r < rows; ++r)
    {
      const double u   = (static_cast<double>(next() >> 11) + 1.0) / 9007199254740993.0;
      const double len = std::floor(2.0 * std::pow(u, -1.0 / 1.2));
      row_start[r + 1] = row_start[r] + static_cast<unsigned>(len < 4096.0 ? len : 4096.0);
    }
    const unsigned nnz = row_start[rows];
    std::vector<int> col(nnz);
    std::vector<float> val(nnz), x(rows);
    for (unsigned j = 0; j < nnz; ++j)
    {
      col[j] = static_cast<int>(next() % rows);
      val[j] = static_cast<float>(next() % 1000) / 1000.f;
    }
    for (auto& v : x)
    {
      v = static_cast<float>(next() % 1000) / 1000.f;
    }
    ptxw_bench::device_array<unsigned> d_row_start, d_counter;
    ptxw_bench::device_array<int> d_col;
    ptxw_bench::device_array<float> d_val, d_x, d_y, d_ref;
    ptxw_bench::upload(d_row_start, row_start);
    ptxw_bench::upload(d_col, col);
    ptxw_bench::upload(d_val, val);
    ptxw_bench::upload(d_x, x);
    d_y.reserve(rows);
    d_ref.reserve(rows);
    d_counter.reserve(1);
    Csr m{d_row_start.get(), d_col.get(), d_val.get(), d_x.get(), d_y.get(), rows};

    int sms = 0, per_sm = 0;
    PTXW_BENCH_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    PTXW_BENCH_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, queue, kThreads, 0));
    const unsigned resident = std::min<unsigned>(tiles, static_cast<unsigned>(sms * per_sm));

    clc::scheduler sched;
    ptxw_bench::event_timer timer;
    Csr ref = m;
    ref.y   = d_ref.get();
    plain<<<tiles, kThreads>>>(ref);
    PTXW_BENCH_CHECK(cudaDeviceSynchronize());
    const std::vector<float> expected = ptxw_bench::download(d_ref.get(), rows);
    int wrong                         = 0;
    auto check                        = [&](const char* name) {
      if (ptxw_bench::download(d_y.get(), rows) != expected)
      {
        std::printf("%s: y differs from the plain launch's\n", name);
        wrong = 1;
      }
    };

    auto time_plain = [&] { return timer.us([&] { plain<<<tiles, kThreads>>>(m); }); };
    auto time_queue = [&] {
      PTXW_BENCH_CHECK(cudaMemset(d_counter.get(), 0, sizeof(unsigned)));
      return timer.us([&] { queue<<<resident, kThreads>>>(m, tiles, d_counter.get()); });
    };
    auto time_ring = [&](auto kernel) {
      return [&, kernel] {
        auto plan = sched.prepare(kernel, dim3(tiles), dim3(kThreads));
        return timer.us([&] { kernel<<<plan.grid, kThreads>>>(m, plan.ctx); });
      };
    };
    auto ring2 = time_ring(ring<2>);
    auto ring4 = time_ring(ring<4>);
    const auto best = ptxw_bench::best_in_turn<double>(static_cast<int>(o_.passes), time_plain, time_queue, ring2, ring4);
    PTXW_BENCH_CHECK(cudaMemset(d_y.get(), 0, rows * sizeof(float)));
    (void) ring2();
    check("ring<2>");
    PTXW_BENCH_CHECK(cudaMemset(d_y.get(), 0, rows * sizeof(float)));
    (void) ring4();
    check("ring<4>");
    PTXW_BENCH_CHECK(cudaMemset(d_y.get(), 0, rows * sizeof(float)));
    (void) time_queue();
    check("queue");

    int ring_per_sm = 0;
    PTXW_BENCH_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&ring_per_sm, ring<2>, kThreads, 0));
    const double baseline = std::min(best[0], best[1]);
    std::printf("power-law SpMV: %u rows, %u nonzeros, %u tiles of %u rows; %d SMs; CTAs an SM: queue %d, ring %d\n",
                rows, nnz, tiles, kTileRows, sms, per_sm, ring_per_sm);
    std::printf("%-28s %10s %10s\n", "", "us", "x best");
    std::printf("%-28s %10.1f %10.3f\n", "plain launch", best[0], best[0] / baseline);
    std::printf("%-28s %10.1f %10.3f\n", "atomicAdd queue", best[1], best[1] / baseline);
    std::printf("%-28s %10.1f %10.3f\n", "clc::ring<2, 3> counter_t", best[2], best[2] / baseline);
    std::printf("%-28s %10.1f %10.3f\n", "clc::ring<4, 3> counter_t", best[3], best[3] / baseline);
    return wrong;
  }
};

bool option(Options& o, int& i, int argc, char** argv)
{
  return ptxw_bench::int_option(argc, argv, i, "--rows-log2", 10, 26, o.rows_log2)
      || ptxw_bench::int_option(argc, argv, i, "--passes", 1, 100, o.passes);
}

} // namespace

int main(int argc, char** argv)
{
  return ptxw_bench::run_main<Bench, Options>(argc, argv, "ptxw_bench_clc_ring [--rows-log2 N] [--passes N]",
                                              [&](Options& o, int& i) { return option(o, i, argc, argv); });
}
