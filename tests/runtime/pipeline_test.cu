// ptxw::pipeline on the GPU: every kind of producer and consumer the type offers moves real data
// through a ring of S stages, many rounds per stage, and every word arrives intact -- bulk copies
// (S = 1, 2, 4, 8), generic stores by a producer warp, a cluster of two CTAs sharing each stage by
// multicast, and a TMA store out of the stage. Built checked and unchecked.
#include <ptxw/mbarrier.h>

#include <cstdint>
#include <vector>

#include "gpu.h"
#include "pipeline_rings.h"

namespace {

constexpr unsigned kTileWords = 1024; // 4 KiB a stage
constexpr unsigned kTiles     = 600; // per CTA: 600 / S rounds of every stage

__host__ __device__ std::uint32_t word_of(std::uint32_t i)
{
  return i * 2654435761u ^ 0x9e3779b9u;
}

std::vector<std::uint32_t> words(std::size_t n)
{
  std::vector<std::uint32_t> v(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    v[i] = word_of(static_cast<std::uint32_t>(i));
  }
  return v;
}

// Bulk producer (warp 0's elected lane), four consumer warps copying each stage out.
template <unsigned S>
__global__ void bulk_ring(const std::uint32_t* src, std::uint32_t* dst, unsigned tiles)
{
  using pipe = ptxw::pipeline<S, ptxw::bulk_producer, ptxw::consumer_warps<4>>;
  __shared__ typename pipe::storage st;
  __shared__ alignas(128) std::uint32_t tile[S][kTileWords];
  auto p                   = pipe::init(st);
  const std::uint32_t base = blockIdx.x * tiles * kTileWords;
  bulk_roles(
    p, tiles,
    [&](auto& s, unsigned t) { load_tile(s, tile[s.index()], src + base + t * kTileWords); },
    [&](auto&, auto& s, unsigned t) {
      for (unsigned i = threadIdx.x - 32; i < kTileWords; i += 128)
      {
        dst[base + t * kTileWords + i] = tile[s.index()][i];
      }
    });
}

// A producer warp that writes every stage with generic stores; two consumer warps.
__global__ void store_ring(std::uint32_t* dst, unsigned tiles)
{
  using pipe = ptxw::pipeline<3, ptxw::store_producer<32>, ptxw::consumer_warps<2>>;
  __shared__ pipe::storage st;
  __shared__ std::uint32_t tile[3][kTileWords];
  auto p = pipe::init(st);
  store_roles(
    p, tiles,
    [&](auto& s, unsigned t) {
      for (unsigned i = threadIdx.x; i < kTileWords; i += 32)
      {
        tile[s.index()][i] = word_of(t * kTileWords + i);
      }
    },
    [&](auto&, auto& s, unsigned t) {
      for (unsigned i = threadIdx.x - 32; i < kTileWords; i += 64)
      {
        dst[t * kTileWords + i] = tile[s.index()][i];
      }
    });
}

// Clusters of two: each CTA's producer copies its half of a tile into the stage of both CTAs
// (multicast) and arms its own stage for the whole tile; each CTA's consumers write out what they
// received, so the host sees every tile twice, once per CTA. A consumer releases to both CTAs'
// empty barriers: neither producer may refill before both CTAs read.
__global__ void __cluster_dims__(2, 1, 1) multicast_ring(const std::uint32_t* src, std::uint32_t* dst, unsigned tiles)
{
  using cluster = ptxw::cluster_multicast<2>;
  using pipe    = ptxw::pipeline<4, ptxw::bulk_producer, ptxw::consumer_warps<2>, cluster>;
  __shared__ pipe::storage st;
  __shared__ alignas(128) std::uint32_t tile[4][kTileWords];
  auto p                   = pipe::init(st);
  const unsigned rank      = blockIdx.x % 2;
  const unsigned pair      = blockIdx.x / 2;
  constexpr unsigned half  = kTileWords / 2;
  bulk_roles(
    p, tiles,
    [&](auto& s, unsigned t) {
      s.arm(ptxw::tx_bytes{sizeof(tile[0])});
      const std::uint32_t* from = src + (pair * tiles + t) * kTileWords + rank * half;
      s.copy(&tile[s.index()][rank * half], from, ptxw::tx_bytes{half * 4}, cluster::row_mask(rank));
    },
    [&](auto&, auto& s, unsigned t) {
      for (unsigned i = threadIdx.x - 32; i < kTileWords; i += 64)
      {
        dst[((pair * tiles + t) * 2 + rank) * kTileWords + i] = tile[s.index()][i];
      }
    });
  // No CTA leaves while its peer may still arrive on its barriers or copy into its stages.
  cuda::ptx::barrier_cluster_arrive();
  cuda::ptx::barrier_cluster_wait();
}

// Consumers turn each stage into its output in place (generic writes) and store it with a TMA
// store out of the stage; the fence, the named barrier and the wait for the store's reads are the
// pipeline's.
__global__ void tma_store_ring(const std::uint32_t* src, std::uint32_t* dst, unsigned tiles)
{
  using pipe = ptxw::pipeline<2, ptxw::bulk_producer, ptxw::consumer_warps<4>>;
  __shared__ pipe::storage st;
  __shared__ alignas(128) std::uint32_t tile[2][kTileWords];
  auto p = pipe::init(st);
  bulk_roles(
    p, tiles,
    [&](auto& s, unsigned t) { load_tile(s, tile[s.index()], src + t * kTileWords); },
    [&](auto& cons, auto& s, unsigned t) {
      for (unsigned i = threadIdx.x - 32; i < kTileWords; i += 128)
      {
        tile[s.index()][i] = ~tile[s.index()][i];
      }
      cons.store(s, dst + t * kTileWords, tile[s.index()], ptxw::tx_bytes{sizeof(tile[0])});
    });
}

class Pipeline : public Gpu
{
protected:
  template <class Launch>
  void expect_copy(std::size_t n, const std::vector<std::uint32_t>& expected, Launch launch)
  {
    std::vector<std::uint32_t> source = words(n);
    DeviceBuffer<std::uint32_t> src;
    DeviceBuffer<std::uint32_t> dst;
    PTXW_CUDA_OK(src.assign(source));
    PTXW_CUDA_OK(dst.allocate_zeroed(expected.size()));
    launch(src.get(), dst.get());
    PTXW_LAUNCH_OK();
    std::vector<std::uint32_t> got;
    PTXW_CUDA_OK(dst.download(got));
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
    {
      wrong += got[i] != expected[i];
    }
    EXPECT_EQ(wrong, 0u) << "words of " << got.size() << " that did not come through the ring";
  }

  template <unsigned S>
  void bulk()
  {
    constexpr unsigned ctas = 8;
    const std::size_t n     = std::size_t(ctas) * kTiles * kTileWords;
    expect_copy(n, words(n), [&](const std::uint32_t* s, std::uint32_t* d) {
      bulk_ring<S><<<ctas, 32 + 128>>>(s, d, kTiles);
    });
  }
};

} // namespace

TEST_F(Pipeline, BulkCopiesThroughOneStage)
{
  bulk<1>();
}
TEST_F(Pipeline, BulkCopiesThroughTwoStages)
{
  bulk<2>();
}
TEST_F(Pipeline, BulkCopiesThroughFourStages)
{
  bulk<4>();
}
TEST_F(Pipeline, BulkCopiesThroughEightStages)
{
  bulk<8>();
}

TEST_F(Pipeline, GenericStoresByAProducerWarp)
{
  const std::size_t n = std::size_t(kTiles) * kTileWords;
  expect_copy(1, words(n), [&](const std::uint32_t*, std::uint32_t* d) { store_ring<<<1, 32 + 64>>>(d, kTiles); });
}

TEST_F(Pipeline, MulticastToAClusterOfTwo)
{
  constexpr unsigned pairs = 4;
  const std::size_t n      = std::size_t(pairs) * kTiles * kTileWords;
  const std::vector<std::uint32_t> source = words(n);
  std::vector<std::uint32_t> twice(2 * n);
  for (std::size_t t = 0; t < n / kTileWords; ++t)
  {
    for (unsigned r = 0; r < 2; ++r)
    {
      for (unsigned i = 0; i < kTileWords; ++i)
      {
        twice[(t * 2 + r) * kTileWords + i] = source[t * kTileWords + i];
      }
    }
  }
  expect_copy(n, twice, [&](const std::uint32_t* s, std::uint32_t* d) {
    multicast_ring<<<2 * pairs, 32 + 64>>>(s, d, kTiles);
  });
}

TEST_F(Pipeline, TmaStoreOutOfTheStage)
{
  const std::size_t n = std::size_t(kTiles) * kTileWords;
  std::vector<std::uint32_t> inverted = words(n);
  for (auto& w : inverted)
  {
    w = ~w;
  }
  expect_copy(n, inverted, [&](const std::uint32_t* s, std::uint32_t* d) { tma_store_ring<<<1, 32 + 128>>>(s, d, kTiles); });
}
