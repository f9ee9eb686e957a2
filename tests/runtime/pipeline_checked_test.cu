// Checked mode on ptxw::pipeline misuse the types cannot see (R27, R28, R30; R5 for a copy into a
// stage never armed): each kernel plants one violation of a published bug class, and the test
// expects exactly one report naming the cause -- the count that was short, the stage still held,
// the bytes copied -- where a plain mbarrier wait would only time out (R6), hang or read a stage
// before its data landed. Reports go to a default sink with a short timeout, so the kernels end.
#include <ptxw/core/checked_host.h>
#include <ptxw/mbarrier.h>

#include <cstdint>
#include <vector>

#include "gpu.h"
#include "pipeline_rings.h"

namespace {

constexpr unsigned kWords = 1024;

__device__ void sleep_about(unsigned ns)
{
  const auto start = ptxw::checked::now_ns();
  while (ptxw::checked::now_ns() - start < ns)
  {
  }
}

// A bulk ring of 2 stages declared for `Declared` consumer warps while `Running` warps consume.
// A late warp (the last) sleeps before each release.
template <unsigned Declared, unsigned Running, bool LateLast>
__global__ void miscounted_consumers(const std::uint32_t* src, unsigned tiles)
{
  using pipe = ptxw::pipeline<2, ptxw::bulk_producer, ptxw::consumer_warps<Declared>>;
  __shared__ typename pipe::storage st;
  __shared__ alignas(128) std::uint32_t tile[2][kWords];
  auto p = pipe::init(st);
  bulk_roles(
    p, tiles,
    [&](auto& s, unsigned t) { load_tile(s, tile[s.index()], src + t * kWords); },
    [&](auto&, auto&, unsigned) {
      if (LateLast && threadIdx.x / 32 == Running)
      {
        sleep_about(2000000);
      }
    });
}

// A fill armed for `armed` bytes whose copy carries `copied` (armed 0: never armed).
__global__ void bytes_mismatch(const std::uint32_t* src, unsigned armed, unsigned copied, std::uint32_t* out)
{
  using pipe = ptxw::pipeline<2, ptxw::bulk_producer, ptxw::consumer_warps<1>>;
  __shared__ pipe::storage st;
  __shared__ alignas(128) std::uint32_t tile[2][kWords];
  auto p = pipe::init(st);
  if (threadIdx.x < 32)
  {
    if (auto e = ptxw::elect_one_of_warp())
    {
      auto prod = p.producer(e);
      auto s    = prod.acquire();
      if (armed != 0)
      {
        s.arm(ptxw::tx_bytes{armed});
      }
      s.copy(tile[s.index()], src, ptxw::tx_bytes{copied});
      prod.commit(std::move(s));
    }
  }
  else
  {
    auto cons = p.consumer();
    auto s    = cons.wait();
    out[threadIdx.x - 32] = tile[s.index()][threadIdx.x - 32];
    cons.release(std::move(s));
  }
}

// The consumer holds both stages of a 2-stage ring and waits for a third fill, which the producer
// can only make once a stage is released: every role waits (R30).
__global__ void consumer_holds_the_ring()
{
  using pipe = ptxw::pipeline<2, ptxw::store_producer<32>, ptxw::consumer_warps<1>>;
  __shared__ pipe::storage st;
  auto p = pipe::init(st);
  if (threadIdx.x < 32)
  {
    auto prod = p.producer();
    for (unsigned t = 0; t < 3; ++t)
    {
      auto s = prod.acquire();
      prod.commit(std::move(s));
    }
  }
  else
  {
    auto cons = p.consumer();
    auto a    = cons.wait();
    auto b    = cons.wait();
    auto c    = cons.wait();
    cons.release(std::move(a));
    cons.release(std::move(b));
    cons.release(std::move(c));
  }
}

// A store producer declared for 16 threads whose 32 threads all commit: the fill completes after
// the first 16 arrivals, before the other half's stores (NVIDIA/cutlass #2404 on the full side);
// made, those arrivals ended the kernel with an unspecified launch failure on an H200.
// `bytes` != 0: a bulk fill armed with that many bytes instead (beyond the barrier's range, R11).
__global__ void producer_over_arrival(std::uint32_t* out)
{
  using pipe = ptxw::pipeline<2, ptxw::store_producer<16>, ptxw::consumer_warps<1>>;
  __shared__ pipe::storage st;
  __shared__ std::uint32_t tile[2][32];
  auto p = pipe::init(st);
  store_roles(
    p, 4, [&](auto& s, unsigned t) { tile[s.index()][threadIdx.x] = t; },
    [&](auto&, auto& s, unsigned t) { out[t * 32 + threadIdx.x - 32] = tile[s.index()][threadIdx.x - 32]; });
}

__global__ void bytes_beyond_range()
{
  using pipe = ptxw::pipeline<1, ptxw::bulk_producer, ptxw::consumer_warps<1>>;
  __shared__ pipe::storage st;
  auto p = pipe::init(st);
  if (threadIdx.x < 32)
  {
    if (auto e = ptxw::elect_one_of_warp())
    {
      auto prod = p.producer(e);
      auto s    = prod.acquire();
      s.arm(ptxw::tx_bytes{1u << 20});
      prod.commit(std::move(s));
    }
  }
}

// A stage released twice (the second through a moved-from token).
__global__ void released_twice()
{
  using pipe = ptxw::pipeline<2, ptxw::store_producer<32>, ptxw::consumer_warps<1>>;
  __shared__ pipe::storage st;
  auto p = pipe::init(st);
  if (threadIdx.x < 32)
  {
    auto prod = p.producer();
    auto s    = prod.acquire();
    prod.commit(std::move(s));
  }
  else
  {
    auto cons = p.consumer();
    auto s    = cons.wait();
    auto t    = std::move(s);
    cons.release(std::move(t));
    cons.release(std::move(s));
  }
}

class PipelineChecked : public Gpu
{
protected:
  std::vector<ptxw::checked::diagnostic> reports;

  template <class Launch>
  void run(Launch launch)
  {
    ptxw::checked::diagnostics diag(16, 200000000ull); // 0.2 s a wait
    diag.make_default();
    launch();
    PTXW_LAUNCH_OK();
    reports = diag.read();
  }

  void expect_one(ptxw::rule r, std::uint32_t detail)
  {
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_EQ(reports[0].rule, static_cast<std::uint32_t>(r)) << ptxw::checked::describe(reports[0]);
    EXPECT_EQ(reports[0].detail, detail) << ptxw::checked::describe(reports[0]);
  }
};

} // namespace

// NVIDIA/cutlass #2404's class, on the empty side: the pipeline counts four consumer warps, three
// release. The producer's refill waits for a fourth release that never comes; the report names the
// three it got.
TEST_F(PipelineChecked, R28FewerConsumersReleaseThanCounted)
{
  PTXW_SKIP_UNLESS_CHECKED();
  DeviceBuffer<std::uint32_t> src;
  PTXW_CUDA_OK(src.allocate_zeroed(8 * kWords));
  run([&] { miscounted_consumers<4, 3, false><<<1, 32 + 96>>>(src.get(), 8); });
  expect_one(ptxw::rule::stage_accounting, 3);
}

// tile-ai/tilelang #3087's class: one consumer warp counted, two consume, the second late. The first
// release completes the empty phase and the producer refills the stage the late warp still reads.
TEST_F(PipelineChecked, R27StageRefilledWhileAConsumerHoldsIt)
{
  PTXW_SKIP_UNLESS_CHECKED();
  DeviceBuffer<std::uint32_t> src;
  PTXW_CUDA_OK(src.allocate_zeroed(8 * kWords));
  run([&] { miscounted_consumers<1, 2, true><<<1, 32 + 64>>>(src.get(), 8); });
  expect_one(ptxw::rule::stage_ownership, 1);
}

// Armed for 4 KiB, a copy of 2 KiB: reported at commit with the bytes copied (the fill would
// never complete; unchecked it hangs).
TEST_F(PipelineChecked, R28CopiesCarryFewerBytesThanArmed)
{
  PTXW_SKIP_UNLESS_CHECKED();
  DeviceBuffer<std::uint32_t> src;
  DeviceBuffer<std::uint32_t> out;
  PTXW_CUDA_OK(src.allocate_zeroed(kWords));
  PTXW_CUDA_OK(out.allocate_zeroed(32));
  run([&] { bytes_mismatch<<<1, 64>>>(src.get(), 4096, 2048, out.get()); });
  expect_one(ptxw::rule::stage_accounting, 2048);
}

// Armed for 2 KiB, a copy of 4 KiB: reported, and the extra bytes expected before the arrival, so
// the fill completes only when all of the copy landed (the consumer reads the copy's words).
TEST_F(PipelineChecked, R28CopiesCarryMoreBytesThanArmed)
{
  PTXW_SKIP_UNLESS_CHECKED();
  std::vector<std::uint32_t> words(kWords);
  for (unsigned i = 0; i < kWords; ++i)
  {
    words[i] = 7 * i + 1;
  }
  DeviceBuffer<std::uint32_t> src;
  DeviceBuffer<std::uint32_t> out;
  PTXW_CUDA_OK(src.assign(words));
  PTXW_CUDA_OK(out.allocate_zeroed(32));
  run([&] { bytes_mismatch<<<1, 64>>>(src.get(), 2048, 4096, out.get()); });
  expect_one(ptxw::rule::stage_accounting, 4096);
  std::vector<std::uint32_t> got;
  PTXW_CUDA_OK(out.download(got));
  for (unsigned i = 0; i < 32; ++i)
  {
    EXPECT_EQ(got[i], words[i]);
  }
}

// A copy into a stage committed without arm(): the fill would complete on the arrival alone, before
// the copy landed (tile-ai/tilelang #2566's twin). Reported (R5) and the bytes expected, so the
// consumer reads the copy.
TEST_F(PipelineChecked, R5CopyIntoAStageNeverArmed)
{
  PTXW_SKIP_UNLESS_CHECKED();
  std::vector<std::uint32_t> words(kWords, 0xabcdu);
  DeviceBuffer<std::uint32_t> src;
  DeviceBuffer<std::uint32_t> out;
  PTXW_CUDA_OK(src.assign(words));
  PTXW_CUDA_OK(out.allocate_zeroed(32));
  run([&] { bytes_mismatch<<<1, 64>>>(src.get(), 0, 4096, out.get()); });
  expect_one(ptxw::rule::armed_barrier, 4096);
  std::vector<std::uint32_t> got;
  PTXW_CUDA_OK(out.download(got));
  EXPECT_EQ(got, std::vector<std::uint32_t>(32, 0xabcdu));
}

// Every role waits: reported as R30 with the stage of the wait, once, and the kernel ends.
TEST_F(PipelineChecked, R30EveryRoleWaits)
{
  PTXW_SKIP_UNLESS_CHECKED();
  run([&] { consumer_holds_the_ring<<<1, 64>>>(); });
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].rule, static_cast<std::uint32_t>(ptxw::rule::progress)) << ptxw::checked::describe(reports[0]);
  EXPECT_EQ(reports[0].detail, 0u) << "the stage both roles wait on";
}

TEST_F(PipelineChecked, R28MoreProducersArriveThanCounted)
{
  PTXW_SKIP_UNLESS_CHECKED();
  DeviceBuffer<std::uint32_t> out;
  PTXW_CUDA_OK(out.allocate_zeroed(4 * 32));
  run([&] { producer_over_arrival<<<1, 64>>>(out.get()); });
  // The 17th arrival is reported and not made (on the GPU an arrival past a phase's count can
  // fault); the fill completed with 16, before the other threads' stores: the report says so.
  expect_one(ptxw::rule::stage_accounting, 17);
}

// 2^20 bytes is beyond an mbarrier's transaction count: reported (R11), not issued.
TEST_F(PipelineChecked, R11BytesBeyondTheBarriersRange)
{
  PTXW_SKIP_UNLESS_CHECKED();
  run([&] { bytes_beyond_range<<<1, 64>>>(); });
  ASSERT_GE(reports.size(), 1u);
  EXPECT_EQ(reports[0].rule, static_cast<std::uint32_t>(ptxw::rule::units)) << ptxw::checked::describe(reports[0]);
  EXPECT_EQ(reports[0].detail, 1u << 20);
}

TEST_F(PipelineChecked, R27StageReleasedTwice)
{
  PTXW_SKIP_UNLESS_CHECKED();
  run([&] { released_twice<<<1, 64>>>(); });
  expect_one(ptxw::rule::stage_ownership, 0);
}

// The fixed twins of the planted kernels run clean: the right counts, the right bytes.
TEST_F(PipelineChecked, CorrectTwinsReportNothing)
{
  PTXW_SKIP_UNLESS_CHECKED();
  DeviceBuffer<std::uint32_t> src;
  DeviceBuffer<std::uint32_t> out;
  PTXW_CUDA_OK(src.allocate_zeroed(8 * kWords));
  PTXW_CUDA_OK(out.allocate_zeroed(32));
  run([&] {
    miscounted_consumers<3, 3, true><<<1, 32 + 96>>>(src.get(), 8);
    bytes_mismatch<<<1, 64>>>(src.get(), 4096, 4096, out.get());
  });
  EXPECT_EQ(reports.size(), 0u) << (reports.empty() ? "" : ptxw::checked::describe(reports[0]));
}
