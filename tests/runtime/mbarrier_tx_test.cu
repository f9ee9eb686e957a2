// Transaction counts: expect_tx completed by real cp.async.bulk global->shared copies, and by
// complete_tx from a thread of the CTA.
#include <ptxw/ptxw.h>

#include <cuda/ptx> // the kernels also use cuda::ptx directly

#include <cstdint>
#include <ostream>
#include <string>

#include "gpu.h"

namespace {

constexpr unsigned kThreads        = 256;
constexpr std::uint32_t kSentinel  = 0xdeadbeefu; // in shared memory before each copy; never in the source
constexpr unsigned kRounds         = 3;           // phases per kernel, each copying other data

// How the barrier is armed for a phase.
enum class Arm
{
  ArriveExpectTx,     // thread 0: arrive_expect_tx(bytes), then the copies; init(arrivals{1})
  ExpectTxThenArrive, // thread 0: expect_tx(size) before each copy, then arrive(); init(arrivals{1})
  AllThreadsArrive,   // thread 0: arrive_expect_tx(bytes) and the copies, every other thread arrive()
};

// Copies `bytes` from src to dst in `copies` cp.async.bulk, all signalling `bar`. Chunks are
// multiples of 16 bytes; the last one takes the rest.
template <class Barrier>
__device__ void issue_copies(void* dst, const void* src, unsigned bytes, unsigned copies, Barrier& bar, bool expect_each)
{
  const unsigned chunk = (bytes / copies) & ~15u;
  unsigned offset      = 0;
  for (unsigned c = 0; c < copies; ++c)
  {
    const unsigned size = c + 1 == copies ? bytes - offset : chunk;
    if (expect_each)
    {
      bar.expect_tx(ptxw::tx_bytes{size});
    }
    ptx::cp_async_bulk(ptx::space_cluster,
                       ptx::space_global,
                       static_cast<unsigned char*>(dst) + offset,
                       static_cast<const unsigned char*>(src) + offset,
                       size,
                       bar.native_handle());
    offset += size;
  }
}

// kRounds phases. Per round: fill the buffer with kSentinel, arm the barrier, copy round r of src
// into dynamic shared memory, wait (bounded), then compare every word with src and copy it to out
// for the host to compare again.
template <class Barrier>
__global__ void bulk_load_kernel(const std::uint32_t* src, std::uint32_t* out, unsigned bytes, unsigned copies, Arm arm,
                                 Report* report)
{
  __shared__ Barrier bar;
  auto* buf          = reinterpret_cast<std::uint32_t*>(ptxw_test::dynamic_smem());
  const unsigned tid = threadIdx.x;
  const unsigned words = bytes / 4;
  Check check(report);
  if (tid == 0)
  {
    bar.init(ptxw::arrivals{arm == Arm::AllThreadsArrive ? kThreads : 1u});
    // The copies signal the barrier from the async proxy: make the init visible to it (CUDA
    // programming guide, TMA example). The __syncthreads below makes it visible to the CTA.
    ptxw::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();

  ptxw::phase ph;
  for (unsigned r = 0; r < kRounds; ++r)
  {
    const std::uint32_t* round_src = src + r * words;
    for (unsigned i = tid; i < words; i += kThreads)
    {
      buf[i] = kSentinel;
    }
    // Orders this thread's generic accesses to buf (the sentinel just written, and its reads of the
    // previous round) before the async-proxy writes of this round's copies.
    ptxw::fence_proxy_async(ptx::space_shared);
    __syncthreads();

    if (tid == 0)
    {
      check.expect(!bar.test_wait(ph), __LINE__); // the arming thread has not arrived
      if (arm == Arm::ExpectTxThenArrive)
      {
        issue_copies(buf, round_src, bytes, copies, bar, true);
        // The copies may all have landed: the arrival is still pending, so the phase is not complete.
        check.expect(!bar.test_wait(ph), __LINE__);
        bar.arrive();
      }
      else
      {
        bar.arrive_expect_tx(ptxw::tx_bytes{bytes});
        check.expect(!bar.test_wait(ph), __LINE__); // arrived, but no byte copied yet
        issue_copies(buf, round_src, bytes, copies, bar, false);
      }
    }
    else if (arm == Arm::AllThreadsArrive)
    {
      bar.arrive();
    }

    if (check.wait(__LINE__, bar, ph))
    {
      for (unsigned i = tid; i < words; i += kThreads)
      {
        const std::uint32_t v = buf[i];
        check.expect(v == round_src[i], __LINE__);
        out[r * words + i] = v;
      }
    }
    if (check.cta_gave_up())
    {
      break;
    }
  }
  check.finish();
}

// complete_tx from a thread of the CTA (no copy): the phase completes when the pending bytes reach
// zero, not before. Alternates arrive_expect_tx with expect_tx + arrive, and the default
// overloads with the explicit (sem_relaxed, scope) ones.
template <class Barrier>
__global__ void local_complete_tx_kernel(unsigned phases, Report* report)
{
  __shared__ Barrier bar;
  using scope        = typename Barrier::scope_type;
  const unsigned tid = threadIdx.x;
  Check check(report);
  if (tid == 0)
  {
    bar.init(ptxw::arrivals{1});
  }
  __syncthreads();

  ptxw::phase ph;
  for (unsigned i = 0; i < phases; ++i)
  {
    const unsigned bytes = 16u * (i + 1) * 97u; // up to 97 KiB for 64 phases, below 2^20
    const unsigned first = bytes / 3;
    if (tid == 0)
    {
      if (i % 2 == 0)
      {
        bar.arrive_expect_tx(ptxw::tx_bytes{bytes});
      }
      else
      {
        bar.expect_tx(ptx::sem_relaxed, scope{}, ptxw::tx_bytes{bytes});
        bar.arrive();
      }
    }
    check.expect_open(__LINE__, bar, ph); // arrived, all bytes pending
    if (tid == 0)
    {
      if (i % 2 == 0)
      {
        bar.complete_tx(ptxw::tx_bytes{first});
      }
      else
      {
        bar.complete_tx(ptx::sem_relaxed, scope{}, ptxw::tx_bytes{first});
      }
    }
    check.expect_open(__LINE__, bar, ph); // bytes - first pending
    if (tid == 1)
    {
      bar.complete_tx(ptxw::tx_bytes{bytes - first});
    }
    check.wait(__LINE__, bar, ph);
    if (check.cta_gave_up())
    {
      break;
    }
  }
  check.finish();
}

struct TxCase
{
  unsigned bytes;
  Arm arm;
  unsigned copies;
  bool cluster_barrier;
};

std::string describe(const TxCase& c)
{
  std::string name = "B" + std::to_string(c.bytes);
  switch (c.arm)
  {
    case Arm::ArriveExpectTx:
      name += "_ArriveExpectTx";
      break;
    case Arm::ExpectTxThenArrive:
      name += "_ExpectTxThenArrive";
      break;
    case Arm::AllThreadsArrive:
      name += "_AllThreadsArrive";
      break;
  }
  name += "_" + std::to_string(c.copies) + (c.copies == 1 ? "Copy" : "Copies");
  if (c.cluster_barrier)
  {
    name += "_ClusterBarrier";
  }
  return name;
}

std::string case_name(const ::testing::TestParamInfo<TxCase>& info)
{
  return describe(info.param);
}

// What gtest prints for GetParam() (the struct has padding it would otherwise dump as bytes).
void PrintTo(const TxCase& c, std::ostream* os)
{
  *os << describe(c);
}

// Source words for kRounds rounds: distinct per round and position, never kSentinel.
std::vector<std::uint32_t> make_source(std::size_t words)
{
  std::vector<std::uint32_t> v(words);
  std::uint32_t x = 0x12345678u;
  for (auto& w : v)
  {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    w = x == kSentinel ? ~x : x;
  }
  return v;
}

class MbarrierTx
    : public Gpu
    , public ::testing::WithParamInterface<TxCase>
{};

class MbarrierCompleteTx : public Gpu
{};

} // namespace

TEST_P(MbarrierTx, BulkCopyCompletesThePhase)
{
  const TxCase c = GetParam();
  if (!fits_dynamic_smem(c.bytes))
  {
    GTEST_SKIP() << c.bytes << " bytes of dynamic shared memory do not fit this GPU (" << max_dynamic_smem_
                 << " per block)";
  }
  const std::size_t words = c.bytes / 4;
  const std::vector<std::uint32_t> source = make_source(words * kRounds);
  DeviceBuffer<std::uint32_t> src;
  DeviceBuffer<std::uint32_t> out;
  PTXW_CUDA_OK(src.assign(source));
  PTXW_CUDA_OK(out.allocate_zeroed(source.size()));
  PTXW_NEW_REPORT(report);

  auto kernel = c.cluster_barrier ? bulk_load_kernel<ptxw::cluster_barrier> : bulk_load_kernel<ptxw::cta_barrier>;
  PTXW_CUDA_OK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(c.bytes)));
  kernel<<<1, kThreads, c.bytes>>>(src.get(), out.get(), c.bytes, c.copies, c.arm, report.get());
  PTXW_LAUNCH_OK();

  PTXW_EXPECT_REPORT(report, kRounds * kThreads);
  std::vector<std::uint32_t> host;
  PTXW_CUDA_OK(out.download(host));
  std::size_t wrong = 0;
  std::size_t first = 0;
  for (std::size_t i = 0; i < host.size(); ++i)
  {
    if (host[i] != source[i] && wrong++ == 0)
    {
      first = i;
    }
  }
  EXPECT_EQ(wrong, 0u) << "words that did not land; first: round " << first / words << ", byte "
                       << (first % words) * 4 << ": got 0x" << std::hex << host[first] << ", want 0x" << source[first];
}

INSTANTIATE_TEST_SUITE_P(
  Sizes,
  MbarrierTx,
  ::testing::Values(
    // One copy per phase, every size and every way of arming.
    TxCase{16, Arm::ArriveExpectTx, 1, false},
    TxCase{16, Arm::ExpectTxThenArrive, 1, false},
    TxCase{16, Arm::AllThreadsArrive, 1, false},
    TxCase{48, Arm::ArriveExpectTx, 1, false},
    TxCase{48, Arm::ExpectTxThenArrive, 1, false},
    TxCase{48, Arm::AllThreadsArrive, 1, false},
    TxCase{1024, Arm::ArriveExpectTx, 1, false},
    TxCase{1024, Arm::ExpectTxThenArrive, 1, false},
    TxCase{1024, Arm::AllThreadsArrive, 1, false},
    TxCase{16 * 1024, Arm::ArriveExpectTx, 1, false},
    TxCase{16 * 1024, Arm::ExpectTxThenArrive, 1, false},
    TxCase{16 * 1024, Arm::AllThreadsArrive, 1, false},
    TxCase{48 * 1024, Arm::ArriveExpectTx, 1, false},
    TxCase{48 * 1024, Arm::ExpectTxThenArrive, 1, false},
    TxCase{48 * 1024, Arm::AllThreadsArrive, 1, false},
    TxCase{192 * 1024, Arm::ArriveExpectTx, 1, false},
    TxCase{192 * 1024, Arm::ExpectTxThenArrive, 1, false},
    // Several copies completing one phase, including chunks of unequal size (4144 = 4*816 + 880).
    TxCase{1024, Arm::ArriveExpectTx, 4, false},
    TxCase{4144, Arm::ArriveExpectTx, 5, false},
    TxCase{4144, Arm::ExpectTxThenArrive, 5, false},
    TxCase{48 * 1024, Arm::ArriveExpectTx, 3, false},
    TxCase{48 * 1024, Arm::ExpectTxThenArrive, 3, false},
    TxCase{192 * 1024, Arm::AllThreadsArrive, 12, false},
    // A cluster_barrier as the copy's barrier (cluster-scope arrive and wait), in a launch without
    // clusters (each CTA is a cluster of one).
    TxCase{16, Arm::ArriveExpectTx, 1, true},
    TxCase{48 * 1024, Arm::ExpectTxThenArrive, 3, true},
    TxCase{1024, Arm::AllThreadsArrive, 1, true}),
  case_name);

TEST_F(MbarrierCompleteTx, LocalCompleteTxOnCtaBarrier)
{
  constexpr unsigned phases = 64;
  PTXW_NEW_REPORT(report);
  local_complete_tx_kernel<ptxw::cta_barrier><<<1, 128>>>(phases, report.get());
  PTXW_LAUNCH_OK();
  PTXW_EXPECT_REPORT(report, phases * 128);
}

TEST_F(MbarrierCompleteTx, LocalCompleteTxOnClusterBarrier)
{
  constexpr unsigned phases = 64;
  PTXW_NEW_REPORT(report);
  local_complete_tx_kernel<ptxw::cluster_barrier><<<1, 128>>>(phases, report.get());
  PTXW_LAUNCH_OK();
  PTXW_EXPECT_REPORT(report, phases * 128);
}
