// benchmarks/clc_for_each_real.cu: ptxw::for_each_canceled_block on counter_t against what a kernel
// author writes by hand, on irregular real work, in the shape a new user writes it: 256-thread CTAs,
// no launch bounds (the user's choice), and where the work has one a prologue that fills a
// shared-memory table once per CTA.
//   - power-law SpMV, y = A x (real_work/pareto_csr.cuh: row lengths from a Pareto law, at most
//     4096): tiles of 64 rows a warp a row, and tiles of 256 rows a thread a row; the prologue copies the
//     first 2048 entries of x into shared memory, which the rows read for those columns;
//   - a Mandelbrot view (real_work/fractals.cuh, double precision), tiles of 16 x 16 pixels, a
//     thread a pixel, no prologue.
// Contenders: a plain launch (one CTA a tile, the prologue in each), grid-stride over the resident
// grid, a hand-written atomicAdd queue over it (thread 0 claims the next tile before the current
// one's work, handed over behind the barrier that ends it), and for_each_canceled_block on
// counter_t launched both ways docs/clc.md describes: clc::scheduler::prepare(kernel, ...)'s
// resident prefix, and the whole grid (prepare(grid): each CTA runs its own block, then its one
// request fails). Each is timed in turn (best of the passes)
// and every output is checked against the plain launch's. Printed: registers a thread and CTAs an
// SM of each kernel, the best time, and each for_each_canceled_block launch's time over each
// contender's.
//
// Checked mode follows the build (PTXW_CHECKED, ptxw/core/config.h: on unless NDEBUG); the CMake target
// defines NDEBUG, and `nvcc -arch=sm_90a -std=c++17 -O3 -Iinclude` of this file alone measures
// the default of a build without it.
//
//   ptxw_bench_clc_for_each_real [--rows-log2 N] [--image-log2 N] [--view N] [--passes N]
#include <ptxw/clc.h>

#include <cstdio>

#include "real_work/spmv_fractal_bench.cuh"

namespace {

namespace clc = ptxw::clc;

constexpr unsigned kThreads = 256;
constexpr unsigned kHot     = 2048; // entries of x in shared memory

struct Csr : real_work::csr_view
{
  static constexpr bool has_prologue = true;
  __device__ void prologue(float* hot) const
  {
    for (unsigned i = threadIdx.x; i < kHot; i += kThreads)
    {
      hot[i] = x[i];
    }
  }
  __device__ float x_at(const float* hot, int c) const
  {
    return c < static_cast<int>(kHot) ? hot[c] : __ldg(&x[c]);
  }
};

// Tiles of 64 rows, a warp a row (8 rows a warp).
struct CsrWarpRows : Csr
{
  static constexpr unsigned tile_rows = 64;
  __device__ void operator()(const float* hot, unsigned t) const
  {
    const unsigned lane = threadIdx.x % 32;
    for (unsigned k = threadIdx.x / 32; k < tile_rows; k += kThreads / 32)
    {
      const unsigned row = t * tile_rows + k;
      if (row >= rows)
      {
        return;
      }
      float sum = 0.f;
      for (unsigned j = row_start[row] + lane; j < row_start[row + 1]; j += 32)
      {
        sum += val[j] * x_at(hot, col[j]);
      }
      for (int off = 16; off > 0; off /= 2)
      {
        sum += __shfl_xor_sync(0xffffffffu, sum, off);
      }
      if (lane == 0)
      {
        y[row] = sum;
      }
    }
  }
};

// Tiles of 256 rows, a thread a row.
struct CsrThreadRows : Csr
{
  static constexpr unsigned tile_rows = kThreads;
  __device__ void operator()(const float* hot, unsigned t) const
  {
    const unsigned row = t * tile_rows + threadIdx.x;
    if (row >= rows)
    {
      return;
    }
    float sum = 0.f;
    for (unsigned j = row_start[row]; j < row_start[row + 1]; ++j)
    {
      sum = fmaf(val[j], x_at(hot, col[j]), sum);
    }
    y[row] = sum;
  }
};

// Tiles of 16 x 16 pixels, tiles row by row; out[i] += iterations + 1 (a pixel skipped stays 0).
struct Mandel
{
  real_work::escape_time e;
  unsigned tiles_x;

  static constexpr bool has_prologue = false;
  __device__ void operator()(const float*, unsigned t) const
  {
    const unsigned tx = t % tiles_x, ty = t / tiles_x;
    const unsigned px = tx * 16 + threadIdx.x % 16, py = ty * 16 + threadIdx.x / 16;
    const int i       = static_cast<int>((py << e.width_log2) | px);
    e.out[i] += e.iterations(i) + 1u;
  }
};

// ---- the contenders ----

template <class Work>
__global__ void plain(Work work)
{
  __shared__ float hot[kHot];
  if constexpr (Work::has_prologue)
  {
    work.prologue(hot);
    __syncthreads();
  }
  work(hot, blockIdx.x);
}

template <class Work>
__global__ void grid_stride(Work work, unsigned tiles)
{
  __shared__ float hot[kHot];
  if constexpr (Work::has_prologue)
  {
    work.prologue(hot);
    __syncthreads();
  }
  for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x)
  {
    work(hot, t);
  }
}

template <class Work>
__global__ void queue(Work work, unsigned tiles, unsigned* counter)
{
  __shared__ float hot[kHot];
  if constexpr (Work::has_prologue)
  {
    work.prologue(hot);
    __syncthreads();
  }
  real_work::atomic_queue(tiles, counter, [&](unsigned t) { work(hot, t); });
}

template <class Work>
__global__ void steal(Work work, clc::context<clc::counter_t> ctx)
{
  __shared__ float hot[kHot];
  if constexpr (Work::has_prologue)
  {
    ptxw::for_each_canceled_block<1>(ctx, [&] { work.prologue(hot); }, [&](dim3 b) { work(hot, b.x); });
  }
  else
  {
    ptxw::for_each_canceled_block<1>(ctx, [&](dim3 b) { work(hot, b.x); });
  }
}

// ---- the comparison ----

using Options = real_work::spmv_fractal_options<12, 7>;

class Bench : public real_work::spmv_fractal_bench<Bench, Options>
{
public:
  using spmv_fractal_bench::spmv_fractal_bench;

  // Times the four contenders on `work` over `tiles` tiles and checks their outputs against the
  // plain launch's. output(): the output on the host; clear(): what a run starts from.
  template <class Work, class Output, class Clear>
  int compare(const char* title, const Work& work, unsigned tiles, Output output, Clear clear)
  {
    auto k_plain = plain<Work>;
    auto k_grid  = grid_stride<Work>;
    auto k_queue = queue<Work>;
    auto k_steal = steal<Work>;
    using ptxw_bench::shape_of;
    const ptxw_bench::kernel_shape shapes[] = {shape_of(k_plain, kThreads), shape_of(k_grid, kThreads),
                                               shape_of(k_queue, kThreads), shape_of(k_steal, kThreads)};
    auto resident = [&](const ptxw_bench::kernel_shape& s) { return std::min<unsigned>(tiles, sms_ * s.per_sm); };

    auto run_plain = [&] { k_plain<<<tiles, kThreads>>>(work); };
    auto run_grid  = [&] { k_grid<<<resident(shapes[1]), kThreads>>>(work, tiles); };
    auto run_queue = [&] {
      PTXW_BENCH_CHECK(cudaMemsetAsync(counter_.get(), 0, sizeof(unsigned)));
      k_queue<<<resident(shapes[2]), kThreads>>>(work, tiles, counter_.get());
    };
    auto run_steal = [&] {
      auto l = sched_.prepare(k_steal, dim3(tiles), dim3(kThreads));
      k_steal<<<l.grid, kThreads>>>(work, l.ctx);
    };
    auto run_whole = [&] { k_steal<<<tiles, kThreads>>>(work, sched_.prepare<clc::counter_t>(dim3(tiles))); };
    clear();
    run_plain();
    PTXW_BENCH_CHECK(cudaDeviceSynchronize());
    const auto expected = output();
    int wrong = differs(title, "grid-stride", expected, output, clear, run_grid);
    wrong |= differs(title, "atomicAdd queue", expected, output, clear, run_queue);
    wrong |= differs(title, "for_each_canceled_block, resident prefix", expected, output, clear, run_steal);
    wrong |= differs(title, "for_each_canceled_block, whole grid", expected, output, clear, run_whole);

    auto timed = [&](auto run) { return [&, run] { return timer_.us(run); }; };
    const auto best = ptxw_bench::best_in_turn<double>(static_cast<int>(o_.passes), timed(run_plain), timed(run_grid),
                                                       timed(run_queue), timed(run_steal), timed(run_whole));
    const char* names[] = {"plain launch", "grid-stride", "atomicAdd queue", "for_each_canceled_block, prefix",
                           "for_each_canceled_block, whole grid"};
    std::printf("%s (checked mode %s)\n", title, PTXW_CHECKED ? "on" : "off");
    std::printf("%-36s %5s %8s %10s %14s %14s\n", "contender", "regs", "CTAs/SM", "best us", "prefix / this",
                "whole / this");
    for (int i = 0; i < 5; ++i)
    {
      const auto& shape = shapes[i < 4 ? i : 3]; // both launches of for_each_canceled_block: one kernel
      std::printf("%-36s %5d %8d %10.1f %14.3f %14.3f\n", names[i], shape.regs, shape.per_sm, best[i],
                  best[3] / best[i], best[4] / best[i]);
    }
    std::printf("\n");
    std::fflush(stdout);
    return wrong;
  }

  int spmv()
  {
    real_work::pareto_csr a(1u << o_.rows_log2);
    const Csr m{a.view()};
    const auto output = [&] { return a.output(); };
    const auto clear  = [&] { a.clear(); };
    char title[200];
    std::snprintf(title, sizeof title, "power-law SpMV: %u rows, %u nonzeros, tiles of 64 rows, a warp a row", a.rows,
                  a.nnz);
    int wrong = compare(title, CsrWarpRows{m}, (a.rows + 63) / 64, output, clear);
    std::snprintf(title, sizeof title, "power-law SpMV: %u rows, %u nonzeros, tiles of 256 rows, a thread a row",
                  a.rows, a.nnz);
    return compare(title, CsrThreadRows{m}, (a.rows + kThreads - 1) / kThreads, output, clear) | wrong;
  }

  int mandelbrot()
  {
    real_work::fractal_image image(real_work::fractal_views[o_.view], o_.image_log2, 16);
    const Mandel f{image.e, image.tiles_x};
    const auto output = [&] { return image.output(); };
    const auto clear  = [&] { image.clear(); };
    char title[256];
    std::snprintf(title, sizeof title, "%s: %u x %u pixels, tiles of 16 x 16, a thread a pixel", image.view.title,
                  image.side, image.side);
    return compare(title, f, image.tiles_x * image.tiles_x, output, clear);
  }
};

} // namespace

int main(int argc, char** argv)
{
  return real_work::spmv_fractal_main<Bench, Options>(argc, argv, "ptxw_bench_clc_for_each_real");
}
