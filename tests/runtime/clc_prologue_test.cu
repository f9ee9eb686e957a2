// The prologue of for_each_canceled_block is done in every thread of the CTA -- for
// for_each_canceled_cluster, in every CTA of the cluster -- before any thread runs the first block
// (docs/clc.md), on counter_t (launched as the resident prefix and as the whole grid) and on
// emulated_t. The use the prologue is for: a per-CTA lookup table in shared memory, here the CRC-32
// table of the launch's polynomial (1 KiB), each thread building a slice of it, every thread of
// every block reading entries that other threads wrote (for the cluster form, half of the table in
// each CTA of a cluster of two, read across distributed shared memory). Each launch takes another
// polynomial, so a block that reads the table before it is written reads a stale table and checks a
// wrong CRC; and the warp that builds the table's last entries builds them late, so that a missing
// barrier shows on the GPU, not only under compute-sanitizer racecheck (tests/runtime/run_on_gpu.sh),
// which reports the hazard whatever the timing.
#include <ptxw/ptxw.h>

#include <cooperative_groups.h>

#include "clc_launch.h"
#include "gpu.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace {

namespace cg  = cooperative_groups;
namespace clc = ptxw::clc;

constexpr unsigned kThreads     = 128;
constexpr unsigned kEntries     = 256; // one per byte value
constexpr unsigned kPerThread   = kEntries / kThreads; // the CTA form's slice
constexpr unsigned kClusterSize = 2; // the cluster form: half of the table in each CTA
constexpr unsigned kBlocks      = 1024;
// Dynamic shared memory the kernels ask for and do not use, as a kernel with a larger working set
// would: fewer CTAs fit at once, so counter_t's resident prefix is shorter than the grid and its
// CTAs run blocks after their first, on the table they built.
constexpr std::size_t kUnusedSmem = 40 * 1024;
// CRC-32, CRC-32C (Castagnoli) and CRC-32K (Koopman), reflected: one a launch, in this order.
constexpr unsigned kPolynomials[] = {0xEDB88320u, 0x82F63B78u, 0xEB31D82Eu};

// Entry `byte` of the table of `poly`: the CRC register after shifting one byte through it.
__host__ __device__ unsigned crc_entry(unsigned poly, unsigned byte)
{
  unsigned c = byte;
  for (int k = 0; k < 8; ++k)
  {
    c = (c >> 1) ^ ((c & 1u) != 0 ? poly : 0u);
  }
  return c;
}

// The warp that builds the table's last entries (in the cluster form: of the last CTA) waits first,
// so that without a barrier after the prologue the others' first block reads those entries before
// they are written.
__device__ void build_late(bool last)
{
  if (last && threadIdx.x >= kThreads - 32)
  {
    for (int i = 0; i < 4; ++i)
    {
      __nanosleep(10000);
    }
  }
}

// CRC-32 (initial value and final xor ~0) of the 8 bytes of `chunk` in memory order, one table
// lookup per byte: lookup(i) is entry i, at an index that the data and the running CRC choose.
template <class Lookup>
__device__ unsigned crc_of(uint2 chunk, Lookup lookup)
{
  unsigned crc            = ~0u;
  const unsigned words[2] = {chunk.x, chunk.y};
  for (unsigned word : words)
  {
    for (int b = 0; b < 4; ++b)
    {
      crc = lookup((crc ^ (word >> (8 * b))) & 0xffu) ^ (crc >> 8);
    }
  }
  return ~crc;
}

struct Out
{
  unsigned* crc; // per chunk: thread t of block b checks chunk b * kThreads + t
  unsigned* hits; // per block index: callbacks that ran it
  unsigned* stolen; // callbacks with a block other than the CTA's first
};

// Thread 0 counts the block, every thread checks its chunk.
template <class Lookup>
__device__ void check_block(const uint2* data, Out out, dim3 block, bool& first, Lookup lookup)
{
  const unsigned chunk = block.x * kThreads + threadIdx.x;
  out.crc[chunk]       = crc_of(data[chunk], lookup);
  if (threadIdx.x == 0)
  {
    atomicAdd(&out.hits[block.x], 1u);
    if (!first)
    {
      atomicAdd(out.stolen, 1u);
    }
  }
  first = false;
}

// The CTA form: the whole table in this CTA, thread t building entries [t * kPerThread, (t + 1) * kPerThread).
template <class Backend>
__global__ void __launch_bounds__(kThreads) crc_cta(const uint2* data, unsigned poly, Out out, clc::context<Backend> ctx)
{
  __shared__ unsigned table[kEntries];
  bool first = true;
  ptxw::for_each_canceled_block<1>(
    ctx,
    [&] {
      build_late(true);
      for (unsigned k = 0; k < kPerThread; ++k)
      {
        const unsigned i = threadIdx.x * kPerThread + k;
        table[i]         = crc_entry(poly, i);
      }
    },
    [&](dim3 block) {
      check_block(data, out, block, first, [&](unsigned i) {
        return table[i];
      });
    });
}

// The cluster form: CTA rank r holds entries [r * kThreads, (r + 1) * kThreads), thread t building
// entry r * kThreads + t; a lookup reads the CTA that holds the entry, this one or the other.
template <class Backend>
__global__ void __launch_bounds__(kThreads) crc_cluster(const uint2* data, unsigned poly, Out out, clc::context<Backend> ctx)
{
  static_assert(kThreads * kClusterSize == kEntries, "a CTA holds its share of the table, an entry per thread");
  __shared__ unsigned part[kThreads];
  const cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank             = cluster.block_rank();
  const unsigned* parts[kClusterSize];
  for (unsigned r = 0; r < kClusterSize; ++r)
  {
    parts[r] = cluster.map_shared_rank(part, r);
  }
  bool first = true;
  ptxw::for_each_canceled_cluster<1>(
    ctx,
    [&] {
      build_late(rank == kClusterSize - 1);
      part[threadIdx.x] = crc_entry(poly, rank * kThreads + threadIdx.x);
    },
    [&](dim3 block) {
      check_block(data, out, block, first, [&](unsigned i) {
        return parts[i / kThreads][i % kThreads];
      });
    });
  ptxw_test::cluster_sync(); // no CTA leaves while the other may still read its part of the table
}

// The host's CRC-32 of `poly` over `n` bytes, bit by bit (no table).
unsigned crc_reference(unsigned poly, const unsigned char* bytes, std::size_t n)
{
  unsigned crc = ~0u;
  for (std::size_t i = 0; i < n; ++i)
  {
    crc ^= bytes[i];
    for (int k = 0; k < 8; ++k)
    {
      crc = (crc >> 1) ^ ((crc & 1u) != 0 ? poly : 0u);
    }
  }
  return ~crc;
}

class ClcPrologue : public Gpu
{
protected:
  // Three launches of the CTA form (clusters: the cluster form) over kBlocks blocks, each with the
  // next polynomial, through one scheduler: every chunk's CRC that of the launch's polynomial,
  // every block index run once, no checked-mode report.
  template <class Backend>
  void run(bool clusters, bool whole_grid)
  {
    const unsigned chunks = kBlocks * kThreads;
    std::vector<uint2> host(chunks);
    std::uint64_t x = 0x2545f4914f6cdd1dull;
    for (uint2& c : host)
    {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      c = {static_cast<unsigned>(x), static_cast<unsigned>(x >> 32)};
    }
    DeviceBuffer<uint2> data;
    PTXW_CUDA_OK(data.assign(host));
    DeviceBuffer<unsigned> crc, hits, stolen;
    PTXW_CUDA_OK(crc.allocate(chunks));
    PTXW_CUDA_OK(hits.allocate(kBlocks));
    PTXW_CUDA_OK(stolen.allocate(1));

    auto diag = ptxw_test::long_wait_diagnostics();
    const dim3 cluster = clusters ? dim3(kClusterSize) : dim3(1);
    clc::scheduler scheduler(std::is_same_v<Backend, clc::emulated_t> ? kBlocks : 0);
    auto kernel = clusters ? crc_cluster<Backend> : crc_cta<Backend>;

    for (unsigned poly : kPolynomials)
    {
      PTXW_CUDA_OK(crc.fill_bytes(0));
      PTXW_CUDA_OK(hits.fill_bytes(0));
      PTXW_CUDA_OK(stolen.fill_bytes(0));
      auto plan = scheduler.prepare(kernel, dim3(kBlocks), dim3(kThreads), kUnusedSmem, cluster, 0, diag.device_sink());
      if (whole_grid)
      {
        plan.grid = dim3(kBlocks);
      }
      const Out out{crc.get(), hits.get(), stolen.get()};
      if (clusters)
      {
        PTXW_CUDA_OK(clc::launch_in_clusters(kernel, plan.grid, dim3(kThreads), cluster, kUnusedSmem, 0, data.get(),
                                             poly, out, plan.ctx));
      }
      else
      {
        kernel<<<plan.grid, kThreads, kUnusedSmem>>>(data.get(), poly, out, plan.ctx);
      }
      PTXW_LAUNCH_OK();

      std::vector<unsigned> got, ran, steals;
      PTXW_CUDA_OK(crc.download(got));
      PTXW_CUDA_OK(hits.download(ran));
      PTXW_CUDA_OK(stolen.download(steals));
      unsigned wrong = 0, first_wrong = chunks;
      for (unsigned c = 0; c < chunks; ++c)
      {
        unsigned char bytes[sizeof(uint2)];
        std::memcpy(bytes, &host[c], sizeof bytes);
        if (got[c] != crc_reference(poly, bytes, sizeof bytes))
        {
          wrong += 1;
          first_wrong = first_wrong == chunks ? c : first_wrong;
        }
      }
      EXPECT_EQ(wrong, 0u) << "polynomial " << std::hex << poly << std::dec << ": chunks checked against a table "
                           << "not yet written; the first is chunk " << first_wrong << ", of block "
                           << first_wrong / kThreads;
      unsigned not_once = 0;
      for (unsigned h : ran)
      {
        not_once += h != 1;
      }
      EXPECT_EQ(not_once, 0u) << "block indices not run exactly once";
      if (!whole_grid && !std::is_same_v<Backend, clc::emulated_t>)
      {
        EXPECT_LT(plan.grid.x, kBlocks) << "the resident prefix is the whole grid: no block reuses the table";
        EXPECT_GT(steals[0], 0u) << "no CTA ran a block after its first";
      }
      const auto reports = ptxw_test::read_reports(diag);
      EXPECT_EQ(reports.total, 0u) << "a conforming kernel made checked-mode reports:\n" << reports.text;
    }
  }
};

TEST_F(ClcPrologue, CtaTableOnCounter)
{
  run<clc::counter_t>(false, false);
}

TEST_F(ClcPrologue, CtaTableOnCounterWholeGrid)
{
  run<clc::counter_t>(false, true);
}

TEST_F(ClcPrologue, CtaTableOnEmulated)
{
  run<clc::emulated_t>(false, false);
}

TEST_F(ClcPrologue, ClusterTableOnCounter)
{
  run<clc::counter_t>(true, false);
}

TEST_F(ClcPrologue, ClusterTableOnEmulated)
{
  run<clc::emulated_t>(true, false);
}

} // namespace
