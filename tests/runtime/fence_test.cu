// Generic-proxy writes read by the async proxy, with the fences of ptxw/fence.h in between:
//  - shared memory written with ordinary stores, then cp.async.bulk shared->global (bulk_group,
//    waited with cp.async.bulk.wait_group[.read]); the host checks global memory;
//  - global memory written with ordinary stores, then cp.async.bulk global->shared completing an
//    mbarrier; the kernel and the host check the data.
// A missing fence rarely shows in a single run, so every kernel goes through several rounds that
// rewrite the same bytes with new data: a stale read of any round fails the comparison.
#include <ptxw/ptxw.h>

#include <cuda/ptx> // the kernels also use cuda::ptx directly

#include <cstdint>
#include <ostream>
#include <string>

#include "gpu.h"

namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kRounds  = 8;

// Word i of round r. The top byte is r + 1 (1..127), so no word is 0xffffffff (what the host fills
// the destination with) and rounds never share a word.
__host__ __device__ constexpr std::uint32_t pattern(unsigned round, unsigned i)
{
  return ((round + 1u) << 24) | ((i * 2654435761u) >> 8);
}

// Where the fence_before_async_read(space_shared) goes.
enum class Placement
{
  IssuerAfterSync,       // threads store, __syncthreads, the issuing thread fences, then copies
  EveryWriterBeforeSync, // every thread stores and fences, __syncthreads, one thread copies (CUDA guide)
};

// What the issuing thread waits for before buf may be rewritten.
enum class Wait
{
  Read, // cp.async.bulk.wait_group.read 0: the copy has read its source
  Full, // cp.async.bulk.wait_group 0: the copy has completed
};

__global__ void bulk_store_kernel(std::uint32_t* out, unsigned bytes, Placement placement, Wait wait)
{
  auto* buf            = reinterpret_cast<std::uint32_t*>(ptxw_test::dynamic_smem());
  const unsigned tid   = threadIdx.x;
  const unsigned words = bytes / 4;
  for (unsigned r = 0; r < kRounds; ++r)
  {
    for (unsigned i = tid; i < words; i += kThreads)
    {
      buf[i] = pattern(r, i);
    }
    if (placement == Placement::EveryWriterBeforeSync)
    {
      ptxw::fence_before_async_read(ptx::space_shared);
    }
    __syncthreads();
    if (tid == 0)
    {
      if (placement == Placement::IssuerAfterSync)
      {
        ptxw::fence_before_async_read(ptx::space_shared);
      }
      ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + r * words, buf, bytes);
      ptx::cp_async_bulk_commit_group();
      if (wait == Wait::Read)
      {
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>{});
      }
      else
      {
        ptx::cp_async_bulk_wait_group(ptx::n32_t<0>{});
      }
    }
    // Nobody rewrites buf for the next round before the copy has read it.
    __syncthreads();
  }
}

// Threads write round r's data to global memory (src) with ordinary stores and fence it for the
// async proxy; after a __syncthreads, thread 0 copies it into shared memory with cp.async.bulk,
// completing the barrier's transaction count. Every thread checks the words after the wait and
// copies them to out for the host. `all_spaces` picks fence_proxy_async() over
// fence_before_async_read(space_global).
__global__ void global_then_bulk_load_kernel(std::uint32_t* src, std::uint32_t* out, unsigned bytes, bool all_spaces,
                                             Report* report)
{
  __shared__ ptxw::cta_barrier bar;
  auto* buf            = reinterpret_cast<std::uint32_t*>(ptxw_test::dynamic_smem());
  const unsigned tid   = threadIdx.x;
  const unsigned words = bytes / 4;
  Check check(report);
  if (tid == 0)
  {
    bar.init(ptxw::arrivals{1});
    ptxw::fence_proxy_async(ptx::space_shared); // the init, for the async proxy's complete_tx
  }
  __syncthreads();

  ptxw::phase ph;
  for (unsigned r = 0; r < kRounds; ++r)
  {
    for (unsigned i = tid; i < words; i += kThreads)
    {
      src[i] = pattern(r, i);
    }
    if (all_spaces)
    {
      ptxw::fence_proxy_async();
    }
    else
    {
      ptxw::fence_before_async_read(ptx::space_global);
      // This thread's reads of buf in the previous round, before this round's copy overwrites it.
      ptxw::fence_proxy_async(ptx::space_shared);
    }
    __syncthreads();
    if (tid == 0)
    {
      bar.arrive_expect_tx(ptxw::tx_bytes{bytes});
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src, bytes, bar.native_handle());
    }
    if (check.wait(__LINE__, bar, ph))
    {
      for (unsigned i = tid; i < words; i += kThreads)
      {
        const std::uint32_t v = buf[i];
        check.expect(v == pattern(r, i), __LINE__);
        out[r * words + i] = v;
      }
    }
    // The copy has read src (its bytes arrived); the next round may rewrite it. (A __syncthreads.)
    if (check.cta_gave_up())
    {
      break;
    }
  }
  check.finish();
}

struct StoreCase
{
  unsigned bytes;
  Placement placement;
  Wait wait;
};

std::string describe(const StoreCase& c)
{
  return "B" + std::to_string(c.bytes)
       + (c.placement == Placement::IssuerAfterSync ? "_IssuerFencesAfterSync" : "_EveryWriterFencesBeforeSync")
       + (c.wait == Wait::Read ? "_WaitGroupRead" : "_WaitGroup");
}

std::string store_case_name(const ::testing::TestParamInfo<StoreCase>& info)
{
  return describe(info.param);
}

// What gtest prints for GetParam().
void PrintTo(const StoreCase& c, std::ostream* os)
{
  *os << describe(c);
}

// Compares `words * kRounds` words of out with pattern(round, i).
void expect_rounds(const std::vector<std::uint32_t>& host, std::size_t words)
{
  std::size_t wrong = 0;
  std::size_t first = 0;
  for (std::size_t k = 0; k < host.size(); ++k)
  {
    const auto want = pattern(static_cast<unsigned>(k / words), static_cast<unsigned>(k % words));
    if (host[k] != want && wrong++ == 0)
    {
      first = k;
    }
  }
  EXPECT_EQ(wrong, 0u) << "wrong words; first: round " << first / words << ", word " << first % words << ": got 0x"
                       << std::hex << host[first] << ", want 0x"
                       << pattern(static_cast<unsigned>(first / words), static_cast<unsigned>(first % words));
}

class FenceBulkStore
    : public Gpu
    , public ::testing::WithParamInterface<StoreCase>
{};

class FenceBulkLoad
    : public Gpu
    , public ::testing::WithParamInterface<unsigned>
{};

} // namespace

TEST_P(FenceBulkStore, SharedWritesReachGlobalThroughBulkCopy)
{
  const StoreCase c = GetParam();
  if (!fits_dynamic_smem(c.bytes))
  {
    GTEST_SKIP() << c.bytes << " bytes of dynamic shared memory do not fit this GPU";
  }
  const std::size_t words = c.bytes / 4;
  DeviceBuffer<std::uint32_t> out;
  PTXW_CUDA_OK(out.allocate(words * kRounds));
  PTXW_CUDA_OK(out.fill_bytes(0xff));
  PTXW_CUDA_OK(
    cudaFuncSetAttribute(bulk_store_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(c.bytes)));

  bulk_store_kernel<<<1, kThreads, c.bytes>>>(out.get(), c.bytes, c.placement, c.wait);
  PTXW_LAUNCH_OK();

  std::vector<std::uint32_t> host;
  PTXW_CUDA_OK(out.download(host));
  expect_rounds(host, words);
}

INSTANTIATE_TEST_SUITE_P(Sizes,
                         FenceBulkStore,
                         ::testing::Values(StoreCase{16, Placement::IssuerAfterSync, Wait::Read},
                                           StoreCase{16, Placement::EveryWriterBeforeSync, Wait::Read},
                                           StoreCase{48, Placement::IssuerAfterSync, Wait::Read},
                                           StoreCase{1024, Placement::IssuerAfterSync, Wait::Read},
                                           StoreCase{1024, Placement::EveryWriterBeforeSync, Wait::Read},
                                           StoreCase{1024, Placement::IssuerAfterSync, Wait::Full},
                                           StoreCase{48 * 1024, Placement::IssuerAfterSync, Wait::Read},
                                           StoreCase{48 * 1024, Placement::EveryWriterBeforeSync, Wait::Read},
                                           StoreCase{48 * 1024, Placement::EveryWriterBeforeSync, Wait::Full},
                                           StoreCase{192 * 1024, Placement::IssuerAfterSync, Wait::Read}),
                         store_case_name);

TEST_P(FenceBulkLoad, GlobalWritesReachSharedThroughBulkCopy)
{
  const unsigned bytes    = 16 * 1024;
  const bool all_spaces   = GetParam() != 0;
  const std::size_t words = bytes / 4;
  DeviceBuffer<std::uint32_t> src;
  DeviceBuffer<std::uint32_t> out;
  PTXW_CUDA_OK(src.allocate(words));
  PTXW_CUDA_OK(src.fill_bytes(0xff));
  PTXW_CUDA_OK(out.allocate(words * kRounds));
  PTXW_CUDA_OK(out.fill_bytes(0xff));
  PTXW_NEW_REPORT(report);

  global_then_bulk_load_kernel<<<1, kThreads, bytes>>>(src.get(), out.get(), bytes, all_spaces, report.get());
  PTXW_LAUNCH_OK();

  PTXW_EXPECT_REPORT(report, kRounds * kThreads);
  std::vector<std::uint32_t> host;
  PTXW_CUDA_OK(out.download(host));
  expect_rounds(host, words);
}

INSTANTIATE_TEST_SUITE_P(Fences, FenceBulkLoad, ::testing::Values(0u, 1u), [](const ::testing::TestParamInfo<unsigned>& info) {
  return info.param != 0 ? std::string("FenceProxyAsync") : std::string("FenceBeforeAsyncReadGlobal");
});
