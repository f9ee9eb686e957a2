// A streaming kernel (bulk loads into a ring of stages -> compute -> stores) on ptxw::pipeline, side
// by side in one run with what a user would pick instead: cudaMemcpy device to device (the copy
// bound), a float4 grid-stride kernel, the same ring written by hand in cuda::ptx, and -- where
// CUTLASS's headers are on the include path -- the same ring on CUTLASS's PipelineTmaAsync<4>, beside
// ptxw::pipeline with reads_async consumers (no slot fences: CUTLASS's protocol). Prints GB/s (bytes
// read plus bytes written) and each kernel's ratio to memcpy and to the grid-stride kernel.
//
//   ptxw_bench_pipeline_stream [--log2n K] [--passes N]   (2^K floats, 28 unless given; N rounds, 10)
#include <ptxw/mbarrier.h>

#include <cuda/ptx>

// CUTLASS's PipelineTmaAsync twin where its headers are on the include path (`tools/ptxw setup`
// installs them; CMake passes PTXW_CUTLASS_INCLUDE): -DPTXW_BENCH_CUTLASS=0 leaves it out.
#if !defined(PTXW_BENCH_CUTLASS)
#  if __has_include(<cutlass/pipeline/sm90_pipeline.hpp>)
#    define PTXW_BENCH_CUTLASS 1
#  else
#    define PTXW_BENCH_CUTLASS 0
#  endif
#endif
#if PTXW_BENCH_CUTLASS
#  include <cute/arch/copy_sm90_tma.hpp>
#  include <cutlass/pipeline/sm90_pipeline.hpp>
#endif

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <utility>
#include <vector>

#include "harness.h"

namespace {

namespace ptx = cuda::ptx;

constexpr unsigned kStages     = 4;
constexpr unsigned kTileFloats = 4096; // 16 KiB a stage
constexpr unsigned kConsumers  = 4; // warps; warp 0 produces
constexpr unsigned kThreads    = 32 * (1 + kConsumers);
constexpr float kScale         = 1.5f;

struct ring_smem
{
  alignas(128) float tile[kStages][kTileFloats];
};

__device__ void consume(const float* tile, float* out)
{
  const float4* in = reinterpret_cast<const float4*>(tile);
  float4* o        = reinterpret_cast<float4*>(out);
  for (unsigned i = threadIdx.x - 32; i < kTileFloats / 4; i += 32 * kConsumers)
  {
    float4 v = in[i];
    o[i]     = make_float4(v.x * kScale, v.y * kScale, v.z * kScale, v.w * kScale);
  }
}

// Reads: how the consumers declare their reads -- reads_generic (what they are: ld.shared, so the
// slot fences of R4 are placed; the ring to use) or reads_async (no slot fences: the protocol CUTLASS's
// PipelineTmaAsync runs, whose consumer_release places no proxy fence, timed to compare like with
// like: the row "ptxw::pipeline async" against "cutlass PipelineTmaAsync").
template <class Reads>
__global__ void __launch_bounds__(kThreads) ptxw_stream(const float* src, float* dst, unsigned tiles)
{
  using pipe = ptxw::pipeline<kStages, ptxw::bulk_producer, ptxw::consumer_warps<kConsumers, Reads>>;
  __shared__ typename pipe::storage st;
  extern __shared__ ring_smem smem[];
  auto p = pipe::init(st);
  if (threadIdx.x < 32)
  {
    if (auto e = ptxw::elect_one_of_warp())
    {
      auto prod = p.producer(e);
      for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x)
      {
        auto s = prod.acquire();
        s.arm(ptxw::tx_bytes{sizeof(smem->tile[0])});
        s.copy(smem->tile[s.index()], src + std::size_t(t) * kTileFloats, ptxw::tx_bytes{sizeof(smem->tile[0])});
        prod.commit(std::move(s));
      }
    }
  }
  else
  {
    auto cons = p.consumer();
    for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x)
    {
      auto s = cons.wait();
      consume(smem->tile[s.index()], dst + std::size_t(t) * kTileFloats);
      cons.release(std::move(s));
    }
  }
}

// The same ring by hand: raw barriers, a stage index and a parity bit per role.
__global__ void __launch_bounds__(kThreads) hand_stream(const float* src, float* dst, unsigned tiles)
{
  __shared__ uint64_t full[kStages], empty[kStages];
  extern __shared__ ring_smem smem[];
  if (threadIdx.x == 0)
  {
    for (unsigned s = 0; s < kStages; ++s)
    {
      ptx::mbarrier_init(&full[s], 1u);
      ptx::mbarrier_init(&empty[s], 4u);
    }
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();
  uint32_t index = 0;
  if (threadIdx.x == 0)
  {
    uint32_t parity = 1;
    for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x)
    {
      while (!ptx::mbarrier_try_wait_parity(&empty[index], parity))
      {
      }
      const uint32_t bytes = sizeof(smem->tile[0]);
      (void) ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[index], bytes);
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, smem->tile[index], src + std::size_t(t) * kTileFloats,
                         bytes, &full[index]);
      if (++index == kStages)
      {
        index = 0;
        parity ^= 1u;
      }
    }
  }
  else if (threadIdx.x >= 32)
  {
    uint32_t parity = 0;
    for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x)
    {
      while (!ptx::mbarrier_try_wait_parity(&full[index], parity))
      {
      }
      consume(smem->tile[index], dst + std::size_t(t) * kTileFloats);
      __syncwarp();
      if (threadIdx.x % 32 == 0)
      {
        (void) ptx::mbarrier_arrive(&empty[index]);
      }
      if (++index == kStages)
      {
        index = 0;
        parity ^= 1u;
      }
    }
  }
}

#if PTXW_BENCH_CUTLASS
// The same ring on CUTLASS's PipelineTmaAsync, written as CUTLASS's sm90 mainloops write it: Params
// with the role, leader and consumer thread count, the constructor initialising the barriers, the
// producer's PipelineState from make_producer_start_state, its acquire arming the full barrier with
// transaction_bytes, cute's 1-D bulk copy onto producer_get_barrier, and every consumer thread
// releasing (one CTA: each of the 128 threads arrives on the empty barrier, which counts 128).
__global__ void __launch_bounds__(kThreads) cutlass_stream(const float* src, float* dst, unsigned tiles)
{
  using pipe = cutlass::PipelineTmaAsync<kStages>;
  // Its barriers have no default constructor (CUTLASS kernels cast their shared memory): static
  // shared memory, as the other rings' barriers, so that every ring has the same layout and launch.
  __shared__ alignas(pipe::SharedStorage) unsigned char st_bytes[sizeof(pipe::SharedStorage)];
  auto& st = *reinterpret_cast<pipe::SharedStorage*>(st_bytes);
  extern __shared__ ring_smem smem[];
  const int warp = cutlass::canonical_warp_idx_sync();
  pipe::Params params;
  params.transaction_bytes = sizeof(smem->tile[0]);
  params.role          = warp == 0 ? pipe::ThreadCategory::Producer : pipe::ThreadCategory::Consumer;
  params.is_leader     = threadIdx.x == 0;
  params.num_consumers = 32 * kConsumers;
  pipe pipeline(st, params, cute::Shape<cute::_1, cute::_1, cute::_1>{});
  __syncthreads(); // the barriers' init, published by the constructor's fence, before any use
  if (warp == 0)
  {
    if (cute::elect_one_sync())
    {
      auto state = cutlass::make_producer_start_state<pipe>();
      for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x)
      {
        pipeline.producer_acquire(state);
        cute::SM90_BULK_COPY_G2S::copy(src + std::size_t(t) * kTileFloats, pipeline.producer_get_barrier(state),
                                       smem->tile[state.index()], sizeof(smem->tile[0]));
        ++state;
      }
    }
  }
  else
  {
    cutlass::PipelineState<kStages> state;
    for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x)
    {
      pipeline.consumer_wait(state);
      consume(smem->tile[state.index()], dst + std::size_t(t) * kTileFloats);
      pipeline.consumer_release(state);
      ++state;
    }
  }
}
#endif

__global__ void grid_stride(const float4* src, float4* dst, std::size_t n4)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n4; i += std::size_t(gridDim.x) * blockDim.x)
  {
    float4 v = src[i];
    dst[i]   = make_float4(v.x * kScale, v.y * kScale, v.z * kScale, v.w * kScale);
  }
}

struct options
{
  long long log2n = 28, passes = 10;
};

} // namespace

int main(int argc, char** argv)
{
  options o;
  if (!ptxw_bench::parse_options(argc, argv, "ptxw_bench_pipeline_stream [--log2n K] [--passes N]", o,
                                 [&](options& opt, int& i) {
                                   return ptxw_bench::int_option(argc, argv, i, "--log2n", 0, 31, opt.log2n)
                                       || ptxw_bench::int_option(argc, argv, i, "--passes", 1, 1000, opt.passes);
                                 }))
  {
    return 2;
  }
  ptxw_bench::require_device();
  const int log2n     = static_cast<int>(o.log2n);
  const int passes    = static_cast<int>(o.passes);
  const std::size_t n = std::size_t(1) << log2n;
  if (n % kTileFloats != 0)
  {
    std::fprintf(stderr, "ptxw_bench_pipeline_stream: 2^%d floats is not a whole number of %u-float tiles\n", log2n,
                 kTileFloats);
    return 2;
  }
  const unsigned tiles = static_cast<unsigned>(n / kTileFloats);
  cudaDeviceProp prop{};
  PTXW_BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  const int smem = sizeof(ring_smem);
  // Every ring gets the same grid: as many CTAs as fit on every SM for each of them.
  int per_sm = 1 << 30;
  for (auto k : {ptxw_stream<ptxw::reads_generic>, hand_stream, ptxw_stream<ptxw::reads_async>
#if PTXW_BENCH_CUTLASS
                 , cutlass_stream
#endif
       })
  {
    PTXW_BENCH_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    int fit = 0;
    PTXW_BENCH_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, k, kThreads, smem));
    per_sm = fit < per_sm ? fit : per_sm;
  }
  const unsigned ring_grid = static_cast<unsigned>(per_sm * prop.multiProcessorCount);

  std::vector<float> host(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    host[i] = static_cast<float>(i % 1000003) * 0.25f;
  }
  ptxw_bench::device_array<float> src, dst;
  src.upload(host);
  dst.reserve(n);
  ptxw_bench::event_timer timer;

  // The rows, in the order they are timed and printed. "ptxw::pipeline async" and "cutlass
  // PipelineTmaAsync" run the same protocol (no proxy fence at a generic-reading consumer's release);
  // "ptxw::pipeline" is the correct one, with the slot fences of R4.
  using row = std::pair<const char*, std::function<void()>>;
  const std::vector<row> rows = {
    {"cudaMemcpy D2D",
     [&] { PTXW_BENCH_CHECK(cudaMemcpyAsync(dst.get(), src.get(), n * 4, cudaMemcpyDeviceToDevice)); }},
    {"float4 grid-stride",
     [&] {
       grid_stride<<<prop.multiProcessorCount * 8, 256>>>(reinterpret_cast<const float4*>(src.get()),
                                                           reinterpret_cast<float4*>(dst.get()), n / 4);
     }},
    {"hand-written ring", [&] { hand_stream<<<ring_grid, kThreads, smem>>>(src.get(), dst.get(), tiles); }},
    {"ptxw::pipeline", [&] { ptxw_stream<ptxw::reads_generic><<<ring_grid, kThreads, smem>>>(src.get(), dst.get(), tiles); }},
    {"ptxw::pipeline async", [&] { ptxw_stream<ptxw::reads_async><<<ring_grid, kThreads, smem>>>(src.get(), dst.get(), tiles); }},
#if PTXW_BENCH_CUTLASS
    {"cutlass PipelineTmaAsync", [&] { cutlass_stream<<<ring_grid, kThreads, smem>>>(src.get(), dst.get(), tiles); }},
#endif
  };

  // Correctness first: every kernel's output against the host's (memcpy's row copies, unscaled).
  for (std::size_t k = 1; k < rows.size(); ++k)
  {
    rows[k].second();
    PTXW_BENCH_CHECK(cudaGetLastError());
    PTXW_BENCH_CHECK(cudaDeviceSynchronize());
    const std::vector<float> out = ptxw_bench::download(dst.get(), n);
    for (std::size_t i = 0; i < n; ++i)
    {
      if (out[i] != host[i] * kScale)
      {
        std::fprintf(stderr, "%s: wrong value at %zu\n", rows[k].first, i);
        return 1;
      }
    }
    PTXW_BENCH_CHECK(cudaMemset(dst.get(), 0, n * sizeof(float)));
  }

  // Each row in turn, passes times over, and the best of each (ptxw_bench::best_in_turn, for a list).
  std::vector<double> t(rows.size());
  for (int pass = 0; pass < passes; ++pass)
  {
    for (std::size_t k = 0; k < rows.size(); ++k)
    {
      const double us = timer.us(rows[k].second);
      t[k]            = pass == 0 ? us : ptxw_bench::best_of(t[k], us);
    }
  }
  const double bytes = 2.0 * n * sizeof(float);
  std::printf("%s, 2^%d floats, ring: %u stages of %u KiB, %d CTAs/SM x %d SMs, best of %d in turn\n", prop.name, log2n,
              kStages, kTileFloats * 4 / 1024, per_sm, prop.multiProcessorCount, passes);
  std::printf("%-26s %10s %10s %10s %12s\n", "kernel", "us", "GB/s", "x memcpy", "x grid-stride");
  for (std::size_t k = 0; k < rows.size(); ++k)
  {
    std::printf("%-26s %10.1f %10.1f %10.3f %12.3f\n", rows[k].first, t[k], bytes / t[k] / 1e3, t[0] / t[k],
                t[1] / t[k]);
  }
#if PTXW_BENCH_CUTLASS
  std::printf("same protocol: ptxw::pipeline async at %.3fx cutlass PipelineTmaAsync\n", t[5] / t[4]);
#else
  std::printf("cutlass PipelineTmaAsync: not built (no CUTLASS headers on the include path)\n");
#endif
  return 0;
}
