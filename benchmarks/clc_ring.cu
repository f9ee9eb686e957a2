// benchmarks/clc_ring.cu: the cluster launch control response ring (ptxw/clc/ring.h) on counter_t --
// a scheduler warp and three consumer warps per CTA -- against a plain launch (one CTA a tile) and a
// hand-written atomicAdd queue (a persistent grid, thread 0 claims the next tile before the work
// of the current one), on two irregular real workloads:
//   - power-law SpMV, y = A x over tiles of 64 rows, one warp a row (row lengths from a Pareto law);
//   - a Mandelbrot view (real_work/fractals.cuh, double precision) over tiles of 16 x 16 pixels,
//     from a few iterations a pixel to the view's limit (4096 for the whole set).
// Each contender is timed in turn (best of the passes), and every output is checked against the
// plain launch's (once more on the faithful emulation, with and without spurious failures).
//
// What is compared, and why it is fair. Every kernel is 128 threads, four warps, and every CTA has
// exactly three warps at work on a tile -- the ring's three consumer roles; the plain launch's and
// the queue's warps 1-3 -- each tile's rows (pixels) split among them the same way (warp w of 3 takes
// rows w, w + 3, ...), through the same tile function: identical arithmetic per tile, the same
// bits out. The fourth warp is the ring's scheduler, the queue's claimer (thread 0 claims the next
// tile, the warp then waits at the tile's barrier), the plain launch's bystander (it waits at a
// barrier until the CTA's work is done, so that it stays resident as the others' fourth warp does:
// a warp that leaves early makes room for more CTAs). So every contender has 16 CTAs an SM
// resident on an H100 (__launch_bounds__(128, 16): at most 32 registers a thread; the registers
// and CTAs an SM are printed) and the same 48 warps an SM at work. The obvious alternative
// -- the ring with four consumer roles and a scheduler warp against four-warp baselines --
// is not fair on a GPU: the ring's 160-thread CTAs fit 12 an SM (48 warps at work) where the
// baselines' 128-thread ones fit 16 (64 at work).
//
// What a scheduler warp costs is printed too: the plain launch and the queue with all four warps
// at work (64 an SM, their own best shape) are the last two rows, with every ratio to them. SpMV
// waits on three dependent global loads a row (row_start, then col, then x[col]), so its speed
// follows the warps at work: 64 against 48 is about 1.33x, the whole of what the ring lost to the
// four-warp baselines before (1.31x). The Mandelbrot tiles are bound by double-precision
// throughput instead; there too the three-warp rows have less of the SM than the four-warp ones
// (warp 0 of every CTA idle: warps are dealt to the SM's four sub-partitions by their slot, so
// likely the same sub-partition's FP64 pipes stay idle in every CTA), so compare the ring with the
// three-warp rows, and read the four-warp rows as the price of the scheduler warp.
//
// Each workload is compared twice: with the tile function inlined into every contender, and behind
// a call (Called below), where every contender runs the same machine code a tile.
//
// Depths 1, 2 and 4: the scheduler requests into a stage as soon as every role released it, and
// the roles release a stage when they have read it, before their work, so a CTA holds Depth
// blocks beyond the one at work -- Depth 1 is the queue's one claim ahead; a deeper ring lets the
// roles drift further apart (one role on a long row while the others go on) and costs as much at
// the end of the grid, where each CTA still holds up to Depth blocks.
//
//   ptxw_bench_clc_ring [--rows-log2 N] [--image-log2 N] [--view N] [--passes N]
#include <ptxw/clc.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "real_work/spmv_fractal_bench.cuh"

namespace {

namespace clc = ptxw::clc;

constexpr unsigned kWarps   = 4; // every kernel: four warps
constexpr unsigned kThreads = 32 * kWarps;
constexpr unsigned kRoles   = 3; // warps at work in the fair contenders; the ring's consumer roles
// 16 CTAs an SM (2048 threads) for every kernel: at most 32 registers a thread, so that no contender
// runs at another occupancy than the others (the ring on the Mandelbrot tiles needs all 32).
constexpr unsigned kMinCtas = 16;

// ---- the workloads: work(tile, w, of) runs warp w's share of the tile, of `of` warps at work ----

constexpr unsigned kTileRows = 64;

struct Csr : real_work::csr_view
{
  // Rows w, w + of, ... of tile t, one warp each.
  __device__ __forceinline__ void operator()(unsigned t, unsigned w, unsigned of) const
  {
    const unsigned lane = threadIdx.x % 32;
    for (unsigned k = w; k < kTileRows; k += of)
    {
      const unsigned row = t * kTileRows + k;
      if (row >= rows)
      {
        return;
      }
      float sum = 0.f;
      for (unsigned j = row_start[row] + lane; j < row_start[row + 1]; j += 32)
      {
        sum += val[j] * __ldg(&x[col[j]]);
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

constexpr unsigned kTileSide = 16;

// Escape-time iterations of the pixels of tile t (16 x 16, tiles row by row), pixel p of the tile
// (row p / 16) taken by lane p % 32 of warp (p / 32) % of; out[i] += iterations + 1, so that a
// pixel skipped or run twice differs from the plain launch's.
struct Mandel
{
  real_work::escape_time e;
  unsigned tiles_x; // tiles a row of the image

  __device__ __forceinline__ void operator()(unsigned t, unsigned w, unsigned of) const
  {
    const unsigned tx = t % tiles_x, ty = t / tiles_x;
    for (unsigned p = w * 32 + threadIdx.x % 32; p < kTileSide * kTileSide; p += of * 32)
    {
      const unsigned px = tx * kTileSide + p % kTileSide, py = ty * kTileSide + p / kTileSide;
      const int i       = static_cast<int>((py << e.width_log2) | px);
      e.out[i] += e.iterations(i) + 1u;
    }
  }
};

// The same work behind a call: the tile function compiled once, apart from the contender's loop.
// Inlined, ptxas schedules the tile's inner loop inside each contender's own code (docs/clc-ring.md:
// what the ring's consumer loop does so that it is scheduled as the others'); behind the call every
// contender runs the same machine code a tile and only the scheduling differs.
template <class Work>
struct Called
{
  Work work;
  __device__ __noinline__ void operator()(unsigned t, unsigned w, unsigned of) const
  {
    work(t, w, of);
  }
};

// ---- the contenders ----

// One CTA a tile; warps kWarps - Working ... kWarps - 1 at work, a bystander warp (Working 3) waits
// at the barrier until they are done.
template <unsigned Working, class Work>
__global__ void __launch_bounds__(kThreads, kMinCtas) plain(Work work)
{
  constexpr unsigned idle = kWarps - Working;
  const unsigned warp     = threadIdx.x / 32;
  if (idle == 0 || warp >= idle)
  {
    work(blockIdx.x, warp - idle, Working);
  }
  if constexpr (idle != 0)
  {
    __syncthreads();
  }
}

// The hand-written queue: thread 0 claims the next tile before the current one's work and hands it
// over behind the barrier that ends that work (two alternating slots). With Working 3, warp 0 only
// claims.
template <unsigned Working, class Work>
__global__ void __launch_bounds__(kThreads, kMinCtas) queue(Work work, unsigned tiles, unsigned* counter)
{
  constexpr unsigned idle = kWarps - Working;
  const unsigned warp     = threadIdx.x / 32;
  real_work::atomic_queue(tiles, counter, [&](unsigned t) {
    if (idle == 0 || warp >= idle)
    {
      work(t, warp - idle, Working);
    }
  });
}

// The ring: warp 0 schedules, warps 1-3 are the consumer roles, each on its share of every tile.
template <unsigned Depth, class Backend, class Work>
__global__ void __launch_bounds__(kThreads, kMinCtas) ring(Work work, clc::context<Backend> ctx)
{
  __shared__ clc::ring<Depth, kRoles> r;
  auto h = clc::open(r, ctx);
  if (!h.started())
  {
    return; // emulated_t: this CTA was canceled
  }
  const unsigned warp = threadIdx.x / 32;
  if (warp == 0)
  {
    h.scheduler().run(h.elect());
    return;
  }
  h.consumer(warp - 1).for_each([&](dim3 b) { work(b.x, warp - 1, kRoles); });
}

// ---- the comparison ----

using Options = real_work::spmv_fractal_options<10, 5>;

using KernelShape = ptxw_bench::kernel_shape;

template <class Kernel>
KernelShape shape(Kernel kernel)
{
  return ptxw_bench::shape_of(kernel, kThreads);
}

class Bench : public real_work::spmv_fractal_bench<Bench, Options>
{
public:
  using spmv_fractal_bench::spmv_fractal_bench;

  // Times the seven contenders on `work` over `tiles` tiles and checks their outputs. `output()`:
  // the output on the host; `clear()`: resets the output to what a run starts from.
  template <class Work, class Output, class Clear>
  int compare(const char* title, const Work& work, unsigned tiles, Output output, Clear clear)
  {
    auto plain3 = plain<3, Work>;
    auto plain4 = plain<4, Work>;
    auto queue3 = queue<3, Work>;
    auto queue4 = queue<4, Work>;
    auto ring1  = ring<1, clc::counter_t, Work>;
    auto ring2  = ring<2, clc::counter_t, Work>;
    auto ring4  = ring<4, clc::counter_t, Work>;

    // The reference: the plain launch, four warps at work.
    clear();
    plain4<<<tiles, kThreads>>>(work);
    PTXW_BENCH_CHECK(cudaGetLastError());
    PTXW_BENCH_CHECK(cudaDeviceSynchronize());
    const auto expected = output();

    auto time_plain = [&](auto kernel) {
      return [&, kernel] {
        const double us = timer_.us([&] { kernel<<<tiles, kThreads>>>(work); });
        PTXW_BENCH_CHECK(cudaGetLastError());
        return us;
      };
    };
    auto time_queue = [&](auto kernel) {
      return [&, kernel] {
        const KernelShape s     = shape(kernel);
        const unsigned resident = std::min<unsigned>(tiles, static_cast<unsigned>(sms_ * s.per_sm));
        PTXW_BENCH_CHECK(cudaMemset(counter_.get(), 0, sizeof(unsigned)));
        const double us = timer_.us([&] { kernel<<<resident, kThreads>>>(work, tiles, counter_.get()); });
        PTXW_BENCH_CHECK(cudaGetLastError());
        return us;
      };
    };
    auto time_ring = [&](auto kernel) {
      return [&, kernel] {
        auto plan = sched_.prepare(kernel, dim3(tiles), dim3(kThreads));
        const double us = timer_.us([&] { kernel<<<plan.grid, kThreads>>>(work, plan.ctx); });
        PTXW_BENCH_CHECK(cudaGetLastError());
        return us;
      };
    };
    auto p3 = time_plain(plain3);
    auto q3 = time_queue(queue3);
    auto r1 = time_ring(ring1);
    auto r2 = time_ring(ring2);
    auto r4 = time_ring(ring4);
    auto p4 = time_plain(plain4);
    auto q4 = time_queue(queue4);
    const auto best = ptxw_bench::best_in_turn<double>(static_cast<int>(o_.passes), p3, q3, r1, r2, r4, p4, q4);

    int wrong   = 0;
    int checked = 0;
    auto check  = [&](const char* name, auto run) {
      ++checked;
      wrong |= differs(title, name, expected, output, clear, run);
    };
    check("plain, 3 warps", p3);
    check("queue, 3 warps", q3);
    check("queue, 4 warps", q4);
    check("ring<1, 3>", r1);
    check("ring<2, 3>", r2);
    check("ring<4, 3>", r4);
    // Every block once on the faithful emulation too (the whole grid launched, canceled CTAs leave),
    // without and with spurious failures.
    for (const double spurious : {0.0, 0.1, 0.5})
    {
      clc::scheduler emulation(tiles);
      emulation.set_spurious_failure_rate(spurious);
      auto ring2e = ring<2, clc::emulated_t, Work>;
      auto ring4e = ring<4, clc::emulated_t, Work>;
      char name[64];
      std::snprintf(name, sizeof name, "ring<2, 3> emulated, %.0f%% spurious failures", spurious * 100);
      check(name, [&] {
        auto plan = emulation.prepare(ring2e, dim3(tiles), dim3(kThreads));
        ring2e<<<plan.grid, kThreads>>>(work, plan.ctx);
        return 0;
      });
      std::snprintf(name, sizeof name, "ring<4, 3> emulated, %.0f%% spurious failures", spurious * 100);
      check(name, [&] {
        auto plan = emulation.prepare(ring4e, dim3(tiles), dim3(kThreads));
        ring4e<<<plan.grid, kThreads>>>(work, plan.ctx);
        return 0;
      });
    }

    const KernelShape shapes[] = {shape(plain3), shape(queue3), shape(ring1), shape(ring2),
                                  shape(ring4),  shape(plain4), shape(queue4)};
    const char* names[]        = {"plain launch, 3 warps at work", "atomicAdd queue, 3 warps at work",
                                  "clc::ring<1, 3> counter_t",     "clc::ring<2, 3> counter_t",
                                  "clc::ring<4, 3> counter_t",     "plain launch, 4 warps at work",
                                  "atomicAdd queue, 4 warps at work"};
    const unsigned at_work[]   = {3, 3, 3, 3, 3, 4, 4};
    const double fair          = std::min(best[0], best[1]);
    const double full          = std::min(best[5], best[6]);
    // The mean time of a tile on one CTA slot (the fair plain launch's).
    const double tile_us = best[0] * sms_ * shapes[0].per_sm / tiles;
    std::printf("%s; %d SMs; a tile lasts %.1f us on average (plain launch, 3 warps)\n", title, sms_, tile_us);
    std::printf("%d outputs checked (6 on counter_t, 6 on the emulation): %s\n", checked,
                wrong ? "SOME DIFFER (above)" : "all equal to the plain launch's");
    std::printf("%-34s %5s %8s %14s %10s %14s %14s\n", "", "regs", "CTAs/SM", "warps at work", "us", "x best 3-warp",
                "x best 4-warp");
    for (int i = 0; i < 7; ++i)
    {
      std::printf("%-34s %5d %8d %14u %10.1f %14.3f %14.3f\n", names[i], shapes[i].regs, shapes[i].per_sm,
                  at_work[i] * shapes[i].per_sm, best[i], best[i] / fair, best[i] / full);
    }
    std::printf("\n");
    // Out now: piped, stdout is block-buffered, and a failure after this table (PTXW_BENCH_CHECK's
    // message on stderr) would otherwise come out before it.
    std::fflush(stdout);
    return wrong;
  }

  int spmv()
  {
    real_work::pareto_csr a(1u << o_.rows_log2);
    const unsigned rows  = a.rows;
    const unsigned nnz   = a.nnz;
    const unsigned tiles = (rows + kTileRows - 1) / kTileRows;
    const Csr m{a.view()};
    const auto output = [&] { return a.output(); };
    const auto clear  = [&] { a.clear(); };
    char title[200];
    std::snprintf(title, sizeof title, "power-law SpMV: %u rows, %u nonzeros, %u tiles of %u rows, the tile inlined",
                  rows, nnz, tiles, kTileRows);
    const int wrong = compare(title, m, tiles, output, clear);
    std::snprintf(title, sizeof title, "power-law SpMV: %u rows, %u nonzeros, %u tiles of %u rows, the tile a call",
                  rows, nnz, tiles, kTileRows);
    return compare(title, Called<Csr>{m}, tiles, output, clear) | wrong;
  }

  int mandelbrot()
  {
    real_work::fractal_image image(real_work::fractal_views[o_.view], o_.image_log2, kTileSide);
    const unsigned side  = image.side;
    const unsigned tiles = image.tiles_x * image.tiles_x;
    const Mandel f{image.e, image.tiles_x};
    char title[256];
    const auto output = [&] { return image.output(); };
    const auto clear  = [&] { image.clear(); };
    std::snprintf(title, sizeof title, "%s: %u x %u pixels, %u tiles of %u x %u, the tile inlined", image.view.title,
                  side, side, tiles, kTileSide, kTileSide);
    int wrong = compare(title, f, tiles, output, clear);
    std::snprintf(title, sizeof title, "%s: %u x %u pixels, %u tiles of %u x %u, the tile a call", image.view.title,
                  side, side, tiles, kTileSide, kTileSide);
    wrong |= compare(title, Called<Mandel>{f}, tiles, output, clear);
    // The image's statistics from the reference output. image_stats() (sum_and_max(), a kernel)
    // reads a device array: it is given image.out, not a copy on the host -- a host vector's data()
    // there made sum_max_kernel read host memory, an illegal memory access on the H200 (reported
    // at buffers.cuh's cudaMemcpy after the kernel).
    image.clear();
    plain<4, Mandel><<<tiles, kThreads>>>(f);
    PTXW_BENCH_CHECK(cudaGetLastError());
    PTXW_BENCH_CHECK(cudaDeviceSynchronize());
    std::printf("  (%s)\n\n", real_work::image_stats(image.out.get(), image.log2n, "iterations").c_str());
    std::fflush(stdout);
    return wrong;
  }

};

} // namespace

int main(int argc, char** argv)
{
  return real_work::spmv_fractal_main<Bench, Options>(argc, argv, "ptxw_bench_clc_ring");
}
