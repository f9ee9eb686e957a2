// A ring of shared-memory slots filled by cp.async.bulk and drained by consumer warps: `full`
// barriers complete on the copies' transaction bytes, `empty` barriers on the consumers' arrivals,
// and the slot-reuse fences of R4 (fence_after_slot_read / fence_before_slot_write) order the
// consumers' generic reads before the next async write into the slot. Many phases per barrier,
// with one ptxw::phase per barrier and thread.
#include <ptxw/ptxw.h>

#include <cuda/ptx> // the kernels also use cuda::ptx directly

#include <cstdint>

#include "gpu.h"

namespace {

constexpr unsigned kStages    = 3;
constexpr unsigned kTileBytes = 4096;
constexpr unsigned kTileWords = kTileBytes / 4;
constexpr unsigned kTiles     = 300; // 100 phases per barrier
constexpr unsigned kConsumers = 128; // warps 1..4; warp 0's lane 0 produces
constexpr unsigned kThreads   = 32 + kConsumers;

// Producer (thread 0), tile t into slot s = t % kStages: wait until every consumer released the
// slot (empty[s]; the first round waits on ptxw::phase::preceding(), complete from the start),
// fence_before_slot_write, arm full[s]
// with the tile's bytes and copy. Consumers: wait full[s], check the tile word by word against
// src and copy it to out, fence_after_slot_read, arrive on empty[s]. A thread whose wait timed out
// stops (the others then time out too, and nothing hangs).
__global__ void pipeline_kernel(const std::uint32_t* src, std::uint32_t* out, Report* report)
{
  __shared__ ptxw::cta_barrier full[kStages];
  __shared__ ptxw::cta_barrier empty[kStages];
  __shared__ alignas(128) std::uint32_t slot[kStages][kTileWords];
  Check check(report);
  const unsigned tid = threadIdx.x;
  if (tid == 0)
  {
    for (unsigned s = 0; s < kStages; ++s)
    {
      full[s].init(ptxw::arrivals{1});
      empty[s].init(ptxw::arrivals{kConsumers});
    }
    ptxw::fence_proxy_async(ptx::space_shared); // the inits, for the copies' complete_tx
  }
  __syncthreads();

  if (tid == 0)
  {
    // Slots start out free: the producer's first wait on each empty barrier is on the phase
    // before its first, which counts as complete.
    static_assert(kStages == 3, "one phase::preceding() per stage");
    ptxw::phase empty_ph[kStages] = {ptxw::phase::preceding(), ptxw::phase::preceding(), ptxw::phase::preceding()};
    for (unsigned t = 0; t < kTiles; ++t)
    {
      const unsigned s = t % kStages;
      if (!check.wait(__LINE__, empty[s], empty_ph[s]))
      {
        break;
      }
      ptxw::fence_before_slot_write();
      const std::uint32_t bytes = kTileBytes; // cp_async_bulk takes the size by reference
      full[s].arrive_expect_tx(ptxw::tx_bytes{bytes});
      ptx::cp_async_bulk(
        ptx::space_cluster, ptx::space_global, &slot[s][0], src + t * kTileWords, bytes, full[s].native_handle());
    }
  }
  else if (tid >= 32)
  {
    const unsigned c = tid - 32;
    ptxw::phase full_ph[kStages];
    for (unsigned t = 0; t < kTiles; ++t)
    {
      const unsigned s = t % kStages;
      if (!check.wait(__LINE__, full[s], full_ph[s]))
      {
        break;
      }
      for (unsigned j = c; j < kTileWords; j += kConsumers)
      {
        const std::uint32_t v = slot[s][j];
        check.expect(v == src[t * kTileWords + j], __LINE__);
        out[t * kTileWords + j] = v;
      }
      ptxw::fence_after_slot_read();
      empty[s].arrive();
    }
  }
  check.finish();
}

class MbarrierPipeline : public Gpu
{};

} // namespace

TEST_F(MbarrierPipeline, BulkCopyRingWithSlotFences)
{
  std::vector<std::uint32_t> source(static_cast<std::size_t>(kTiles) * kTileWords);
  for (std::size_t k = 0; k < source.size(); ++k)
  {
    source[k] = static_cast<std::uint32_t>(k * 2246822519u) ^ 0x5bd1e995u;
  }
  DeviceBuffer<std::uint32_t> src;
  DeviceBuffer<std::uint32_t> out;
  PTXW_CUDA_OK(src.assign(source));
  PTXW_CUDA_OK(out.allocate_zeroed(source.size()));
  PTXW_NEW_REPORT(report);

  pipeline_kernel<<<1, kThreads>>>(src.get(), out.get(), report.get());
  PTXW_LAUNCH_OK();

  PTXW_EXPECT_REPORT(report, kTiles + static_cast<unsigned long long>(kTiles) * kConsumers);
  std::vector<std::uint32_t> host;
  PTXW_CUDA_OK(out.download(host));
  std::size_t wrong = 0;
  for (std::size_t k = 0; k < host.size(); ++k)
  {
    wrong += host[k] != source[k];
  }
  EXPECT_EQ(wrong, 0u) << "words of " << host.size() << " that did not come through the ring";
}
