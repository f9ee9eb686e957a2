// The example GEMM (gemm.h) under both scheduling policies against CUTLASS's sm90 cooperative
// kernel of the same tile, cluster and stage count (cutlass_baseline.cu) and cuBLASLt's fastest
// algorithm for the shape, in one run on one GPU; each output checked against cuBLAS first.
//
//   ptxw_gemm_bench                  the issue's shapes: M=N=K in {2048, 4096, 8192}, M in {128, 1024} with N=K=8192
//   ptxw_gemm_bench M N K [M N K...] other shapes
//   ptxw_gemm_bench --swizzle S ...  the dense rows with swizzle S (ptxw's and CUTLASS's; default 1)
//   ptxw_gemm_bench --timeline FILE  when each SM ran which tile of one skewed grouped case, as CSV
//   ptxw_gemm_bench --timeline FILE M N K   the same of one dense shape (with --swizzle S first: its swizzle)
//
// Prints, per shape and kernel, the best of 5 timings of 20 back-to-back launches in TFLOP/s, the
// fraction of the GPU's dense bf16 peak, the ratio to CUTLASS and to cuBLAS, and the largest error
// against cuBLAS. Then grouped GEMMs of a mixture of experts' layer (16384 routed tokens, N = 2048,
// K = 7168; 64 and 128 experts; token counts drawn from a Zipf law of exponent 1.2, and uniformly,
// the balance a router's auxiliary loss aims at) against CUTLASS's grouped GEMM (its pointer-array
// cooperative kernel) and one cuBLAS call per group, under a bound row: the flops at the dense peak
// or the operands through DRAM once, whichever takes longer. "ptxw all-dynamic" is the dynamic
// policy with every tile requested (no static head: ptxw::clc::dynamic_tail{}), as against the
// example's one requested wave.
#include "cutlass_baseline.h"
#include "gemm.h"

#include <cublasLt.h>
#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

void check_cuda(cudaError_t e, const char* what)
{
  if (e != cudaSuccess)
  {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}
void check_blas(cublasStatus_t s, const char* what)
{
  if (s != CUBLAS_STATUS_SUCCESS)
  {
    std::fprintf(stderr, "%s: cuBLAS status %d\n", what, static_cast<int>(s));
    std::exit(1);
  }
}

__global__ void fill(gemm::bf16* p, std::size_t n, unsigned seed)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
  {
    unsigned h = static_cast<unsigned>(i) * 2654435761u ^ seed;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    p[i] = gemm::bf16(static_cast<float>(h & 0xffff) / 32768.f - 1.f);
  }
}

// cuBLASLt's D = A * B^T in its column-major terms: D^T (N x M) = B (K x N col-major, transposed)
// * A (K x M col-major). The fastest of its heuristic's candidates, timed on the shape.
class cublas_gemm
{
  cublasLtHandle_t h_{};
  cublasLtMatmulDesc_t op_{};
  cublasLtMatrixLayout_t la_{}, lb_{}, ld_{};
  cublasLtMatmulAlgo_t algo_{};
  void* ws_;
  std::size_t ws_bytes_;
  const gemm::bf16 *a_, *b_;
  gemm::bf16* d_;

public:
  cublas_gemm(const gemm::bf16* a, const gemm::bf16* b, gemm::bf16* d, int m, int n, int k, void* ws, std::size_t ws_bytes,
              const std::function<float(const std::function<void()>&)>& time)
      : ws_(ws)
      , ws_bytes_(ws_bytes)
      , a_(a)
      , b_(b)
      , d_(d)
  {
    check_blas(cublasLtCreate(&h_), "cublasLtCreate");
    check_blas(cublasLtMatmulDescCreate(&op_, CUBLAS_COMPUTE_32F, CUDA_R_32F), "matmul desc");
    const cublasOperation_t t = CUBLAS_OP_T, nt = CUBLAS_OP_N;
    check_blas(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof(t)), "transa");
    check_blas(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSB, &nt, sizeof(nt)), "transb");
    check_blas(cublasLtMatrixLayoutCreate(&la_, CUDA_R_16BF, k, n, k), "layout B");
    check_blas(cublasLtMatrixLayoutCreate(&lb_, CUDA_R_16BF, k, m, k), "layout A");
    check_blas(cublasLtMatrixLayoutCreate(&ld_, CUDA_R_16BF, n, m, n), "layout D");
    cublasLtMatmulPreference_t pref{};
    check_blas(cublasLtMatmulPreferenceCreate(&pref), "preference");
    check_blas(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_bytes, sizeof(ws_bytes)),
         "workspace");
    cublasLtMatmulHeuristicResult_t res[16];
    int found = 0;
    check_blas(cublasLtMatmulAlgoGetHeuristic(h_, op_, la_, lb_, ld_, ld_, pref, 16, res, &found), "heuristic");
    cublasLtMatmulPreferenceDestroy(pref);
    if (found == 0)
    {
      std::fprintf(stderr, "cuBLASLt has no algorithm for %d x %d x %d\n", m, n, k);
      std::exit(1);
    }
    float best_ms = INFINITY;
    int best      = 0;
    for (int i = 0; i < found; ++i)
    {
      algo_          = res[i].algo;
      const float ms = time([&] { run(); });
      if (ms < best_ms)
      {
        best_ms = ms;
        best    = i;
      }
    }
    algo_ = res[best].algo;
  }
  ~cublas_gemm()
  {
    cublasLtMatrixLayoutDestroy(la_);
    cublasLtMatrixLayoutDestroy(lb_);
    cublasLtMatrixLayoutDestroy(ld_);
    cublasLtMatmulDescDestroy(op_);
    cublasLtDestroy(h_);
  }
  void run()
  {
    const float one = 1.f, zero = 0.f;
    check_blas(cublasLtMatmul(h_, op_, &one, b_, la_, a_, lb_, &zero, d_, ld_, d_, ld_, &algo_, ws_, ws_bytes_, 0), "matmul");
  }
};

// The best of 5 timings of 20 launches, in ms a launch.
float time_it(const std::function<void()>& f)
{
  cudaEvent_t e0, e1;
  check_cuda(cudaEventCreate(&e0), "event");
  check_cuda(cudaEventCreate(&e1), "event");
  for (int i = 0; i < 3; ++i)
  {
    f();
  }
  float best = INFINITY;
  for (int rep = 0; rep < 5; ++rep)
  {
    check_cuda(cudaEventRecord(e0), "record");
    for (int i = 0; i < 20; ++i)
    {
      f();
    }
    check_cuda(cudaEventRecord(e1), "record");
    check_cuda(cudaEventSynchronize(e1), "timing");
    float ms = 0.f;
    check_cuda(cudaEventElapsedTime(&ms, e0, e1), "elapsed");
    best = std::min(best, ms / 20.f);
  }
  check_cuda(cudaGetLastError(), "a timed launch");
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return best;
}

// Largest |got - want| / (|want| + 1), and the elements beyond the bf16 tolerance 2^-7 (|want| + 1):
// both outputs are rounded to bf16 (2^-8 relative each) from fp32 sums in different orders.
struct error
{
  double worst = 0;
  std::size_t beyond = 0;
};
error compare(const gemm::bf16* got_d, const gemm::bf16* want_d, std::size_t n)
{
  std::vector<gemm::bf16> got(n), want(n);
  check_cuda(cudaMemcpy(got.data(), got_d, n * sizeof(gemm::bf16), cudaMemcpyDeviceToHost), "copy D");
  check_cuda(cudaMemcpy(want.data(), want_d, n * sizeof(gemm::bf16), cudaMemcpyDeviceToHost), "copy cuBLAS D");
  error e;
  for (std::size_t i = 0; i < n; ++i)
  {
    const double g = float(got[i]), w = float(want[i]);
    const double r = std::fabs(g - w) / (std::fabs(w) + 1.0);
    e.worst = std::isnan(r) ? INFINITY : std::max(e.worst, r);
    e.beyond += !(r <= 0x1p-7);
  }
  return e;
}

// Token counts of `experts` groups: `tokens` draws from weights 1 / (e + 1)^s (s = 0: uniform).
std::vector<int> routing(int experts, int tokens, double s, unsigned seed)
{
  std::vector<double> w(experts);
  for (int e = 0; e < experts; ++e)
  {
    w[e] = 1.0 / std::pow(e + 1.0, s);
  }
  std::mt19937 rng(seed);
  std::discrete_distribution<int> pick(w.begin(), w.end());
  std::vector<int> ms(experts);
  for (int t = 0; t < tokens; ++t)
  {
    ++ms[pick(rng)];
  }
  return ms;
}

void grouped_rows(double peak, double dram)
{
  constexpr int tokens = 16384, n = 2048, k = 7168;
  cublasHandle_t h{};
  check_blas(cublasCreate(&h), "cublasCreate");
  for (int experts : {64, 128})
  {
    for (double s : {1.2, 0.0})
    {
      const std::vector<int> ms = routing(experts, tokens, s, 7);
      gemm::bf16 *a, *b, *d, *ref;
      check_cuda(cudaMalloc(&a, sizeof(gemm::bf16) * tokens * k), "A");
      check_cuda(cudaMalloc(&b, sizeof(gemm::bf16) * std::size_t(experts) * n * k), "B");
      check_cuda(cudaMalloc(&d, sizeof(gemm::bf16) * tokens * n), "D");
      check_cuda(cudaMalloc(&ref, sizeof(gemm::bf16) * tokens * n), "cuBLAS D");
      fill<<<1024, 256>>>(a, std::size_t(tokens) * k, 1);
      fill<<<1024, 256>>>(b, std::size_t(experts) * n * k, 2);
      auto per_group = [&] {
        const float one = 1.f, zero = 0.f;
        for (int e = 0, first = 0; e < experts; first += ms[e++])
        {
          if (ms[e] > 0)
          {
            check_blas(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, ms[e], k, &one, b + std::size_t(e) * n * k,
                                    CUDA_R_16BF, k, a + std::size_t(first) * k, CUDA_R_16BF, k, &zero,
                                    ref + std::size_t(first) * n, CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                       "cublasGemmEx");
          }
        }
      };
      per_group();
      check_cuda(cudaDeviceSynchronize(), "cuBLAS per group");
      gemm::grouped<ptxw::clc::static_tiles> stat({a, b, d, ms, n, k});
      gemm::grouped<ptxw::clc::dynamic_tiles<>> dyn({a, b, d, ms, n, k}), all({a, b, d, ms, n, k});
      all.set_dynamic_tail({});
      gemm::grouped<ptxw::clc::static_tiles, 2> stat2({a, b, d, ms, n, k});
      gemm::grouped<ptxw::clc::dynamic_tiles<ptxw::clc::automatic_t, ptxw::clc::cluster_t>, 2> dyn2({a, b, d, ms, n, k});
      const double flops = 2.0 * tokens * n * k;
      // The bound: the flops at the dense peak, or every operand byte through DRAM once (A and D
      // once, each group's B once: a group's tiles can share its B only in L2), whichever is longer.
      int used = 0;
      for (int g : ms)
      {
        used += g > 0;
      }
      const double bytes = sizeof(gemm::bf16) * (double(tokens) * k + double(used) * n * k + double(tokens) * n);
      const double t_bound = std::max(flops / peak, bytes / dram) * 1e3; // ms
      const double t_cublas = time_it(per_group);
      char shape[48];
      std::snprintf(shape, sizeof shape, "%d experts, %s", experts, s > 0 ? "Zipf 1.2" : "uniform");
      std::printf("%-22s %-16s %9.1f %7.1f%% %10s %9.3fx %11s  (largest group %d rows)\n", shape, "cuBLAS per group",
                  flops / t_cublas / 1e9, 100.0 * flops / t_cublas / 1e-3 / peak, "", 1.0, "",
                  *std::max_element(ms.begin(), ms.end()));
      std::printf("%-22s %-16s %9.1f %7.1f%% %10s %9.3fx %11s  (%s: %.2f GB at %.2f TB/s, %.0f GFLOP)\n", shape,
                  "bound", flops / t_bound / 1e9, 100.0 * flops / t_bound / 1e-3 / peak, "", t_cublas / t_bound, "",
                  flops / peak > bytes / dram ? "compute" : "DRAM", bytes / 1e9, dram / 1e12, flops / 1e9);
      gemm::cutlass_baseline::grouped cutlass_grouped(reinterpret_cast<const __nv_bfloat16*>(a),
                                                      reinterpret_cast<const __nv_bfloat16*>(b),
                                                      reinterpret_cast<__nv_bfloat16*>(d), ms, n, k);
      check_cuda(cudaMemset(d, 0xff, sizeof(gemm::bf16) * tokens * n), "poison D");
      const bool cutlass_ran = cutlass_grouped.run();
      check_cuda(cudaDeviceSynchronize(), "CUTLASS grouped");
      double t_cutlass = 0;
      if (cutlass_ran)
      {
        const error e = compare(d, ref, std::size_t(tokens) * n);
        t_cutlass     = time_it([&] { cutlass_grouped.run(); });
        std::printf("%-22s %-16s %9.1f %7.1f%% %9.3fx %9.3fx %9.2e%s\n", shape, "CUTLASS grouped",
                    flops / t_cutlass / 1e9, 100.0 * flops / t_cutlass / 1e-3 / peak, 1.0, t_cublas / t_cutlass,
                    e.worst, e.beyond ? " BEYOND TOLERANCE" : "");
      }
      const std::pair<const char*, std::function<void()>> rows[] = {{"ptxw static", [&] { stat.run(); }},
                                                                     {"ptxw dynamic", [&] { dyn.run(); }},
                                                                     {"ptxw all-dynamic", [&] { all.run(); }},
                                                                     {"ptxw static 2x1", [&] { stat2.run(); }},
                                                                     {"ptxw dynamic 2x1", [&] { dyn2.run(); }}};
      for (const auto& [name, run] : rows)
      {
        check_cuda(cudaMemset(d, 0xff, sizeof(gemm::bf16) * tokens * n), "poison D");
        run();
        check_cuda(cudaDeviceSynchronize(), name);
        const error e  = compare(d, ref, std::size_t(tokens) * n);
        const double ms_ = time_it(run);
        char vs_cutlass[16] = "";
        if (cutlass_ran)
        {
          std::snprintf(vs_cutlass, sizeof vs_cutlass, "%.3fx", t_cutlass / ms_);
        }
        std::printf("%-22s %-16s %9.1f %7.1f%% %10s %9.3fx %9.2e%s\n", shape, name, flops / ms_ / 1e9,
                    100.0 * flops / ms_ / 1e-3 / peak, vs_cutlass, t_cublas / ms_, e.worst,
                    e.beyond ? " BEYOND TOLERANCE" : "");
      }
      cudaFree(a);
      cudaFree(b);
      cudaFree(d);
      cudaFree(ref);
    }
  }
  cublasDestroy(h);
}

// The per-SM timeline of one skewed grouped case (64 experts, Zipf 1.2, as grouped_rows), or of one
// dense shape, under each policy with swizzle `sw` (the dynamic one as the example runs it, with a
// static head, and with every tile requested: all-dynamic), after a warm-up run: CSV rows
// "policy,sm,group,m,n,ns" (gemm_kernel.h's tile_event, ns from the first event of the run), for
// benchmarks/plot.py gemm.
int write_timeline(const char* path, const std::vector<int>& dense, ptxw::clc::swizzle sw)
{
  const bool grouped = dense.empty();
  const int tokens = grouped ? 16384 : dense[0], n = grouped ? 2048 : dense[1], k = grouped ? 7168 : dense[2];
  const int experts = grouped ? 64 : 1;
  const std::vector<int> ms = grouped ? routing(experts, tokens, 1.2, 7) : std::vector<int>{tokens};
  gemm::bf16 *a, *b, *d;
  check_cuda(cudaMalloc(&a, sizeof(gemm::bf16) * tokens * k), "A");
  check_cuda(cudaMalloc(&b, sizeof(gemm::bf16) * std::size_t(experts) * n * k), "B");
  check_cuda(cudaMalloc(&d, sizeof(gemm::bf16) * tokens * n), "D");
  fill<<<1024, 256>>>(a, std::size_t(tokens) * k, 1);
  fill<<<1024, 256>>>(b, std::size_t(experts) * n * k, 2);
  constexpr unsigned capacity = 1u << 16;
  gemm::tile_event* events;
  unsigned* count;
  check_cuda(cudaMalloc(&events, sizeof(gemm::tile_event) * capacity), "events");
  check_cuda(cudaMalloc(&count, sizeof(unsigned)), "event count");
  std::FILE* out = std::fopen(path, "w");
  if (out == nullptr)
  {
    std::fprintf(stderr, "cannot write %s\n", path);
    return 1;
  }
  std::fprintf(out, "policy,sm,group,m,n,ns\n");
  auto trace = [&](const char* policy, auto& g) {
    g.run();
    check_cuda(cudaMemset(count, 0, sizeof(unsigned)), "event count");
    g.trace({events, count, capacity});
    g.run();
    check_cuda(cudaDeviceSynchronize(), policy);
    unsigned n_events = 0;
    check_cuda(cudaMemcpy(&n_events, count, sizeof n_events, cudaMemcpyDeviceToHost), "event count");
    if (n_events > capacity)
    {
      std::fprintf(stderr, "%s: %u events, room for %u\n", policy, n_events, capacity);
      std::exit(1);
    }
    std::vector<gemm::tile_event> host(n_events);
    check_cuda(cudaMemcpy(host.data(), events, sizeof(gemm::tile_event) * n_events, cudaMemcpyDeviceToHost), "events");
    unsigned long long first = ~0ull;
    for (const auto& e : host)
    {
      first = std::min(first, e.ns);
    }
    for (const auto& e : host)
    {
      std::fprintf(out, "%s,%u,%d,%u,%u,%llu\n", policy, e.sm, e.group == ~0u ? -1 : int(e.group), e.m, e.n,
                   e.ns - first);
    }
  };
  gemm::grouped<ptxw::clc::static_tiles> stat({a, b, d, ms, n, k}, sw);
  gemm::grouped<ptxw::clc::dynamic_tiles<>> dyn({a, b, d, ms, n, k}, sw), all({a, b, d, ms, n, k}, sw);
  all.set_dynamic_tail({});
  trace("static", stat);
  trace("dynamic", dyn);
  trace("all-dynamic", all);
  std::fclose(out);
  for (void* q : {static_cast<void*>(a), static_cast<void*>(b), static_cast<void*>(d), static_cast<void*>(events),
                  static_cast<void*>(count)})
  {
    cudaFree(q);
  }
  std::printf("wrote %s\n", path);
  return 0;
}

} // namespace

int main(int argc, char** argv)
{
  const auto usage = [&] {
    std::fprintf(stderr, "usage: %s [--swizzle S] [--timeline FILE.csv] [M N K]...\n", argv[0]);
    return 2;
  };
  std::vector<int> dims = {2048, 2048, 2048, 4096, 4096, 4096, 8192, 8192, 8192, 128, 8192, 8192, 1024, 8192, 8192};
  // --swizzle S: the swizzle, ptxw's and CUTLASS's alike (units of the minor dimension a strip, a
  // power of two; 1, plain raster order, is both libraries' default).
  int i = 1;
  long long swizzle = 1;
  const char* timeline = nullptr;
  for (; i + 1 < argc && argv[i][0] == '-'; i += 2)
  {
    const std::string flag = argv[i];
    if (flag == "--swizzle")
    {
      swizzle = std::atoll(argv[i + 1]);
      if (!ptxw::clc::swizzle{swizzle}.valid())
      {
        std::fprintf(stderr, "%s: --swizzle takes a power of two from 1 to 65536, not %s\n", argv[0], argv[i + 1]);
        return 2;
      }
    }
    else if (flag == "--timeline")
    {
      timeline = argv[i + 1];
    }
    else
    {
      return usage();
    }
  }
  const bool shapes_given = i < argc;
  if (shapes_given)
  {
    dims.clear();
    for (; i < argc; ++i)
    {
      if (argv[i][0] == '-')
      {
        return usage();
      }
      dims.push_back(std::atoi(argv[i]));
    }
    if (dims.size() % 3 != 0)
    {
      return usage();
    }
  }
  if (timeline != nullptr)
  {
    if (dims.size() > 3 && shapes_given)
    {
      std::fprintf(stderr, "%s: --timeline takes one shape (M N K) or none (the grouped case)\n", argv[0]);
      return 2;
    }
    return write_timeline(timeline, shapes_given ? dims : std::vector<int>{}, ptxw::clc::swizzle{swizzle});
  }
  cudaDeviceProp prop{};
  check_cuda(cudaGetDeviceProperties(&prop, 0), "device");
  int clock_khz = 0;
  check_cuda(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0), "clock");
  // Hopper's tensor cores: 4096 dense bf16 flops a clock an SM (NVIDIA H100 whitepaper: 989.4
  // TFLOP/s for 132 SMs at 1.83 GHz); here at the clock the device reports.
  const double peak = prop.multiProcessorCount * 4096.0 * clock_khz * 1e3;
  // DRAM: two transfers a clock of the memory bus.
  int mem_khz = 0, bus_bits = 0;
  check_cuda(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0), "memory clock");
  check_cuda(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0), "memory bus");
  const double dram = 2.0 * mem_khz * 1e3 * bus_bits / 8;
  std::printf("%s, %d SMs, %.0f MHz: dense bf16 peak %.1f TFLOP/s; DRAM %.2f TB/s\n", prop.name,
              prop.multiProcessorCount, clock_khz / 1e3, peak / 1e12, dram / 1e12);

  cudaFuncAttributes mine{}, mine2{};
  check_cuda(cudaFuncGetAttributes(&mine, gemm::dense<ptxw::clc::static_tiles>::kernel), "attributes");
  check_cuda(cudaFuncGetAttributes(&mine2, gemm::dense<ptxw::clc::static_tiles, 2>::kernel), "attributes");
  const auto theirs = gemm::cutlass_baseline::kernel_resources<1>(), theirs2 = gemm::cutlass_baseline::kernel_resources<2>();
  std::printf("registers/thread: ptxw %d (2x1: %d), CUTLASS %d (2x1: %d); shared memory/CTA: ptxw %zu (2x1: %zu; "
              "+%zu static), CUTLASS %zu (2x1: %zu)\n",
              mine.numRegs, mine2.numRegs, theirs.registers, theirs2.registers, gemm::smem_bytes<1>, gemm::smem_bytes<2>,
              std::size_t(mine.sharedSizeBytes), theirs.smem, theirs2.smem);
  std::printf("%-22s %-16s %9s %8s %10s %10s %11s\n", "M x N x K", "kernel", "TFLOP/s", "of peak", "/CUTLASS",
              "/cuBLAS", "max err");

  const std::size_t ws_bytes = std::size_t(64) << 20;
  void* ws = nullptr;
  check_cuda(cudaMalloc(&ws, ws_bytes), "workspace");
  for (std::size_t s = 0; s < dims.size(); s += 3)
  {
    const int m = dims[s], n = dims[s + 1], k = dims[s + 2];
    gemm::bf16 *a, *b, *d, *ref;
    check_cuda(cudaMalloc(&a, sizeof(gemm::bf16) * m * k), "A");
    check_cuda(cudaMalloc(&b, sizeof(gemm::bf16) * n * k), "B");
    check_cuda(cudaMalloc(&d, sizeof(gemm::bf16) * m * n), "D");
    check_cuda(cudaMalloc(&ref, sizeof(gemm::bf16) * m * n), "cuBLAS D");
    fill<<<1024, 256>>>(a, std::size_t(m) * k, 1);
    fill<<<1024, 256>>>(b, std::size_t(n) * k, 2);
    check_cuda(cudaDeviceSynchronize(), "fill");

    cublas_gemm cublas(a, b, ref, m, n, k, ws, ws_bytes, time_it);
    cublas.run();
    const ptxw::clc::swizzle sw{swizzle};
    gemm::dense<ptxw::clc::static_tiles> stat({a, b, d, m, n, k}, sw);
    gemm::dense<ptxw::clc::dynamic_tiles<>> dyn({a, b, d, m, n, k}, sw), all({a, b, d, m, n, k}, sw);
    all.set_dynamic_tail({});
    gemm::dense<ptxw::clc::static_tiles, 2> stat2({a, b, d, m, n, k}, sw);
    gemm::dense<ptxw::clc::dynamic_tiles<ptxw::clc::automatic_t, ptxw::clc::cluster_t>, 2> dyn2({a, b, d, m, n, k}, sw);
    auto* cl = reinterpret_cast<const __nv_bfloat16*>(a);
    auto* clb = reinterpret_cast<const __nv_bfloat16*>(b);
    auto* cld = reinterpret_cast<__nv_bfloat16*>(d);

    // Each ptxw row is compared with the CUTLASS row above it (the same cluster shape).
    struct row
    {
      const char* name;
      std::function<void()> run;
      bool cutlass;
    };
    const std::vector<row> rows = {
        {"cuBLASLt", [&] { cublas.run(); }, false},
        {"CUTLASS 1x1", [&] { gemm::cutlass_baseline::run<1>(cl, clb, cld, m, n, k, ws, ws_bytes, 0, int(swizzle)); }, true},
        {"ptxw static", [&] { stat.run(); }, false},
        {"ptxw dynamic", [&] { dyn.run(); }, false},
        {"ptxw all-dynamic", [&] { all.run(); }, false},
        {"CUTLASS 2x1", [&] { gemm::cutlass_baseline::run<2>(cl, clb, cld, m, n, k, ws, ws_bytes, 0, int(swizzle)); }, true},
        {"ptxw static 2x1", [&] { stat2.run(); }, false},
        {"ptxw dynamic 2x1", [&] { dyn2.run(); }, false},
    };
    const double flops = 2.0 * m * n * k;
    double t_cublas = 0, t_cutlass = 0;
    for (const row& r : rows)
    {
      error e;
      if (&r != &rows[0])
      {
        check_cuda(cudaMemset(d, 0xff, sizeof(gemm::bf16) * m * n), "poison D");
        r.run();
        check_cuda(cudaDeviceSynchronize(), r.name);
        e = compare(d, ref, std::size_t(m) * n);
      }
      const double ms = time_it(r.run);
      if (&r == &rows[0])
      {
        t_cublas = ms;
      }
      if (r.cutlass)
      {
        t_cutlass = ms;
      }
      char shape[32];
      std::snprintf(shape, sizeof shape, "%d x %d x %d", m, n, k);
      std::printf("%-22s %-16s %9.1f %7.1f%% %9.3fx %9.3fx %9.2e%s\n", shape, r.name, flops / ms / 1e9,
                  100.0 * flops / ms / 1e-3 / peak, t_cutlass > 0 ? t_cutlass / ms : 1.0, t_cublas / ms, e.worst,
                  e.beyond ? " BEYOND TOLERANCE" : "");
    }
    cudaFree(a);
    cudaFree(b);
    cudaFree(d);
    cudaFree(ref);
  }
  cudaFree(ws);
  if (!shapes_given)
  {
    grouped_rows(peak, dram);
  }
  return 0;
}
