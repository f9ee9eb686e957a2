// A streaming kernel (bulk loads into a ring of stages -> compute -> stores) on ptxw::pipeline, side
// by side in one run with what a user would pick instead: cudaMemcpy device to device (the copy
// bound), a float4 grid-stride kernel, and the same ring written by hand in cuda::ptx. Prints GB/s
// (bytes read plus bytes written) and each kernel's ratio to memcpy and to the grid-stride kernel.
//
//   ptxw_bench_pipeline_stream [log2 floats, default 28] [passes, default 10]
#include <ptxw/mbarrier.h>

#include <cuda/ptx>

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

__global__ void __launch_bounds__(kThreads) ptxw_stream(const float* src, float* dst, unsigned tiles)
{
  using pipe = ptxw::pipeline<kStages, ptxw::bulk_producer, ptxw::consumer_warps<kConsumers>>;
  __shared__ pipe::storage st;
  extern __shared__ ring_smem smem[];
  auto p = pipe::init(st);
  if (threadIdx.x < 32)
  {
    if (auto e = ptxw::elect_one())
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

__global__ void grid_stride(const float4* src, float4* dst, std::size_t n4)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n4; i += std::size_t(gridDim.x) * blockDim.x)
  {
    float4 v = src[i];
    dst[i]   = make_float4(v.x * kScale, v.y * kScale, v.z * kScale, v.w * kScale);
  }
}

} // namespace

int main(int argc, char** argv)
{
  const int log2n  = argc > 1 ? std::atoi(argv[1]) : 28;
  const int passes = argc > 2 ? std::atoi(argv[2]) : 10;
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
  for (auto k : {ptxw_stream, hand_stream})
  {
    PTXW_BENCH_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  }
  int per_sm = 0;
  PTXW_BENCH_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ptxw_stream, kThreads, smem));
  const unsigned ring_grid = static_cast<unsigned>(per_sm * prop.multiProcessorCount);

  std::vector<float> host(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    host[i] = static_cast<float>(i % 1000003) * 0.25f;
  }
  ptxw_bench::device_array<float> src, dst;
  src.reserve(n);
  dst.reserve(n);
  ptxw_bench::upload(src, host);
  ptxw_bench::event_timer timer;

  // Correctness first: every kernel's output against the host's.
  const auto check = [&](const char* name) {
    const std::vector<float> out = ptxw_bench::download(dst.get(), n);
    for (std::size_t i = 0; i < n; ++i)
    {
      if (out[i] != host[i] * kScale)
      {
        std::fprintf(stderr, "%s: wrong value at %zu\n", name, i);
        std::exit(1);
      }
    }
    PTXW_BENCH_CHECK(cudaMemset(dst.get(), 0, n * sizeof(float)));
  };
  const auto run_ptxw = [&] { ptxw_stream<<<ring_grid, kThreads, smem>>>(src.get(), dst.get(), tiles); };
  const auto run_hand = [&] { hand_stream<<<ring_grid, kThreads, smem>>>(src.get(), dst.get(), tiles); };
  const auto run_grid = [&] {
    grid_stride<<<prop.multiProcessorCount * 8, 256>>>(reinterpret_cast<const float4*>(src.get()),
                                                        reinterpret_cast<float4*>(dst.get()), n / 4);
  };
  for (auto [name, run] : {std::pair<const char*, std::function<void()>>{"ptxw::pipeline", run_ptxw},
                           {"hand-written ring", run_hand}, {"float4 grid-stride", run_grid}})
  {
    run();
    PTXW_BENCH_CHECK(cudaDeviceSynchronize());
    check(name);
  }

  const auto t = ptxw_bench::best_in_turn<double>(
    passes,
    [&] {
      return timer.us([&] { PTXW_BENCH_CHECK(cudaMemcpyAsync(dst.get(), src.get(), n * 4, cudaMemcpyDeviceToDevice)); });
    },
    [&] { return timer.us(run_grid); }, [&] { return timer.us(run_hand); }, [&] { return timer.us(run_ptxw); });
  const double bytes = 2.0 * n * sizeof(float);
  std::printf("%s, 2^%d floats, ring: %u stages of %u KiB, %d CTAs/SM x %d SMs, best of %d in turn\n", prop.name, log2n,
              kStages, kTileFloats * 4 / 1024, per_sm, prop.multiProcessorCount, passes);
  std::printf("%-22s %10s %10s %10s %12s\n", "kernel", "us", "GB/s", "x memcpy", "x grid-stride");
  const char* names[] = {"cudaMemcpy D2D", "float4 grid-stride", "hand-written ring", "ptxw::pipeline"};
  for (int k = 0; k < 4; ++k)
  {
    std::printf("%-22s %10.1f %10.1f %10.3f %12.3f\n", names[k], t[k], bytes / t[k] / 1e3, t[0] / t[k], t[1] / t[k]);
  }
  return 0;
}
