// ptxw/algorithms/for_each_with_state.h: per-CTA state around for_each_canceled's schedule. DeviceStateArgs
// runs without a GPU (the checks before any CUDA call, the plan); DeviceState on the H100:
// exactly once, set-up and flush once per CTA that ran and never in a canceled one, the barriers
// around them, privatised histograms against the CPU, exact storage, both overloads.
#include <ptxw/algorithms.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "device_fixture.h"

namespace {

// What a CTA did, by blockIdx.x: its set-ups and flushes (counted by thread 0, which every call
// includes), the indices it ran (from the body), and the indices counted through its state (added
// to `total` at its flush). `launched`: gridDim.x.
struct instrumented
{
  struct state
  {
    unsigned long long indices;
  };
  unsigned* hits;
  unsigned* setups;
  unsigned* flushes;
  unsigned* own;
  unsigned long long* total;
  unsigned* launched;

  __device__ void setup(state& s) const
  {
    if (threadIdx.x == 0)
    {
      s.indices = 0;
      atomicAdd(setups + blockIdx.x, 1u);
      atomicMax(launched, gridDim.x);
    }
  }
  template <class I>
  __device__ void operator()(state& s, I i) const
  {
    atomicAdd(hits + i, 1u);
    atomicAdd(own + blockIdx.x, 1u);
    atomicAdd(&s.indices, 1ull);
  }
  __device__ void flush(state& s) const
  {
    if (threadIdx.x == 0)
    {
      atomicAdd(flushes + blockIdx.x, 1u);
      atomicAdd(total, s.indices);
    }
  }
};

// The barriers around the indices: thread 0 initialises the state 20 us late, and warp 1 runs each
// index 20 us late. Without the barrier after setup() the other threads count into the state before
// it is initialised (and their counts are overwritten); without the one before flush() thread 0
// flushes while warp 1 still counts.
struct late_setup_and_tail
{
  struct state
  {
    unsigned count;
  };
  unsigned long long* total;

  __device__ void setup(state& s) const
  {
    if (threadIdx.x == 0)
    {
      sleep_ns(20000);
      s.count = 0;
    }
  }
  __device__ void operator()(state& s, unsigned) const
  {
    if (threadIdx.x / 32 == 1)
    {
      sleep_ns(20000);
    }
    atomicAdd(&s.count, 1u);
  }
  __device__ void flush(state& s) const
  {
    if (threadIdx.x == 0)
    {
      atomicAdd(total, static_cast<unsigned long long>(s.count));
    }
  }
};

// A privatised histogram of bytes: 32 copies of the 256 bins, copy l for lane l (bank l), 32 KiB.
struct byte_histogram
{
  struct state
  {
    unsigned bins[256 * 32];
  };
  const unsigned char* in;
  unsigned* out;

  __device__ void setup(state& s) const
  {
    for (unsigned k = threadIdx.x; k < 256 * 32; k += blockDim.x)
    {
      s.bins[k] = 0;
    }
  }
  __device__ void operator()(state& s, long long i) const
  {
    atomicAdd(&s.bins[in[i] * 32u + threadIdx.x % 32], 1u);
  }
  __device__ void flush(state& s) const
  {
    for (unsigned b = threadIdx.x; b < 256; b += blockDim.x)
    {
      unsigned sum = 0;
      for (unsigned c = 0; c < 32; ++c)
      {
        sum += s.bins[b * 32 + (c + b) % 32];
      }
      if (sum != 0)
      {
        atomicAdd(out + b, sum);
      }
    }
  }
};

// 16384 bins in one copy: a 64 KiB state, beyond the 48 KiB a kernel gets without asking.
struct wide_histogram
{
  static constexpr unsigned bins_count = 16384;
  struct state
  {
    unsigned bins[bins_count];
  };
  const unsigned short* in;
  unsigned* out;

  __device__ void setup(state& s) const
  {
    for (unsigned k = threadIdx.x; k < bins_count; k += blockDim.x)
    {
      s.bins[k] = 0;
    }
  }
  __device__ void operator()(state& s, unsigned long long i) const
  {
    atomicAdd(&s.bins[in[i] % bins_count], 1u);
  }
  __device__ void flush(state& s) const
  {
    for (unsigned b = threadIdx.x; b < bins_count; b += blockDim.x)
    {
      if (s.bins[b] != 0)
      {
        atomicAdd(out + b, s.bins[b]);
      }
    }
  }
};

// No set-up and no flush: the state is the op's own business (here: unused).
struct no_callbacks
{
  struct state
  {
    int unused;
  };
  unsigned* hits;
  __device__ void operator()(state&, unsigned i) const
  {
    atomicAdd(hits + i, 1u);
  }
};

// A 2D shape: coordinates within their extents, x fastest.
struct count_2d
{
  struct state
  {
    unsigned count;
  };
  unsigned* hits;
  unsigned long long nx, ny;
  unsigned long long* total;
  __device__ void setup(state& s) const
  {
    if (threadIdx.x == 0)
    {
      s.count = 0;
    }
  }
  __device__ void operator()(state& s, unsigned long long x, unsigned long long y) const
  {
    if (x < nx && y < ny)
    {
      atomicAdd(hits + x + nx * y, 1u);
      atomicAdd(&s.count, 1u);
    }
  }
  __device__ void flush(state& s) const
  {
    if (threadIdx.x == 0)
    {
      atomicAdd(total, static_cast<unsigned long long>(s.count));
    }
  }
};

} // namespace

// The op's optional callbacks, detected (external linkage: declared, never called).
namespace device_state_test {
struct no_state
{
  __device__ void operator()(int) const;
};
struct setup_only
{
  struct state
  {
    int x;
  };
  __device__ void setup(state&) const;
  __device__ void operator()(state&, int) const;
};
} // namespace device_state_test
static_assert(ptxw::device::detail::has_state<instrumented> && !ptxw::device::detail::has_state<device_state_test::no_state>);
static_assert(ptxw::device::detail::has_setup<instrumented> && ptxw::device::detail::has_flush<instrumented>);
static_assert(ptxw::device::detail::has_setup<device_state_test::setup_only>
              && !ptxw::device::detail::has_flush<device_state_test::setup_only>);
static_assert(!ptxw::device::detail::has_setup<no_callbacks> && !ptxw::device::detail::has_flush<no_callbacks>);

namespace {

// Selectors that differ from the default: the faithful emulation (whose canceled CTAs are
// launched, and must run neither set-up nor flush), counter_t in tiles of up to 8 rounds, and
// tiles of at least 2 rows for the emulation's storage.
struct emulated_selector
{
  constexpr ptxw::device::for_each_state_policy operator()(ptxw::device::compute_capability) const
  {
    return {128, 2, ptxw::clc::backend_id::emulated};
  }
};
struct emulated_min2_selector
{
  constexpr ptxw::device::for_each_state_policy operator()(ptxw::device::compute_capability) const
  {
    return {128, 4, ptxw::clc::backend_id::emulated, 0, 2};
  }
};
struct counter_selector
{
  constexpr ptxw::device::for_each_state_policy operator()(ptxw::device::compute_capability) const
  {
    return {512, 8, ptxw::clc::backend_id::counter, 2};
  }
};

constexpr ptxw::device::for_each_state_policy default_policy = ptxw::device::for_each_state_selector{}({90});

} // namespace

// ---- without a GPU: what is checked before any CUDA call, and the plan ----

TEST(DeviceStateArgs, SizeQueryWritesTheSizeAndAtLeastTheStateItNeeds)
{
  std::size_t small = 0, large = 0, emulated_small = 0, emulated_large = 0, min2_small = 0, min2_large = 0;
  const instrumented op{};
  EXPECT_EQ(ptxw::device::for_each_with_state(nullptr, small, 1000, op), cudaSuccess);
  EXPECT_EQ(ptxw::device::for_each_with_state(nullptr, large, 100000000000ll, op), cudaSuccess);
  // counter_t and the hardware need the counters only; the emulation a claim and a response per tile.
  EXPECT_EQ(small, large);
  EXPECT_GE(small, 2 * sizeof(unsigned long long));
  EXPECT_EQ(ptxw::device::for_each_with_state<emulated_selector>(nullptr, emulated_small, 128, op), cudaSuccess);
  EXPECT_EQ(ptxw::device::for_each_with_state<emulated_selector>(nullptr, emulated_large, 128 * 1001, op), cudaSuccess);
  // Sized for one row per tile (the most tiles any device can be given): 1000 tiles more.
  EXPECT_GE(emulated_large - emulated_small, 1000u * (4 + 16));
  // Tiles of at least 2 rows: half as many tiles at most.
  EXPECT_EQ(ptxw::device::for_each_with_state<emulated_min2_selector>(nullptr, min2_small, 128 * 2, op), cudaSuccess);
  EXPECT_EQ(ptxw::device::for_each_with_state<emulated_min2_selector>(nullptr, min2_large, 128 * 2002, op),
            cudaSuccess);
  EXPECT_GE(min2_large - min2_small, 1000u * (4 + 16));
  EXPECT_LE(min2_large - min2_small, 1000u * (4 + 16) + 32);
}

// How n indices are cut: every row in a tile, no round beyond the last, at most the policy's rounds,
// never more tiles than rows / min_rounds (so each tile has at least min_rounds rows where n has
// them), whole waves where one wave does not take them all, the shared rounds in proportion.
TEST(DeviceStateArgs, PlanKeepsMinRoundsAndWholeWaves)
{
  using ptxw::device::for_each_state_policy;
  const ptxw::clc::backend_id automatic = ptxw::clc::backend_id::automatic;
  for (const for_each_state_policy p :
       {default_policy, for_each_state_policy{128, 8, automatic, 4, 4}, for_each_state_policy{512, 2, automatic},
        for_each_state_policy{256, 16, automatic, 0, 8, 4}, for_each_state_policy{64, 7, automatic, 3, 3},
        for_each_state_policy{128, 9, automatic, 2, 4, 8}})
  {
    for (unsigned long long resident : {1ull, 7ull, 528ull, 1056ull})
    {
      for (unsigned long long n : {1ull, 255ull, 256ull, 2048ull, 2049ull, 32768ull, 1ull << 22, 20000003ull,
                                   1ull << 28, 1ull << 34})
      {
        const auto pl         = ptxw::device::detail::plan_with_state(p, n, resident);
        const auto tp         = ptxw::device::detail::tiles_of(p);
        const auto rows       = ptxw::device::detail::rows(tp, n);
        const std::string why = "policy " + std::to_string(p.block_threads) + "x" + std::to_string(p.rounds) + "/"
                              + std::to_string(p.min_rounds) + " n " + std::to_string(n) + " resident "
                              + std::to_string(resident);
        EXPECT_GE(pl.tiles * pl.rounds, rows) << why;
        EXPECT_LT(pl.tiles * (pl.rounds - 1), rows) << why;
        EXPECT_LE(pl.rounds, p.rounds) << why;
        EXPECT_EQ(pl.tiles, pl.units) << why;
        EXPECT_GE(pl.tiles, 1u) << why;
        EXPECT_LE(pl.tiles, std::max<unsigned long long>(1, rows / p.min_rounds)) << why;
        EXPECT_GE(rows / pl.tiles, std::min<unsigned long long>(p.min_rounds, rows)) << why; // min_rounds rows a tile
        if (rows > resident * p.rounds || pl.tiles > resident)
        {
          EXPECT_EQ(pl.tiles % resident, 0u) << why; // whole waves
        }
        else
        {
          EXPECT_LE(pl.tiles, resident) << why; // one wave: nothing to steal
        }
        EXPECT_LE(pl.shared * p.rounds, pl.rounds * p.shared_rounds) << why;
        EXPECT_GT((pl.shared + 1) * p.rounds, pl.rounds * p.shared_rounds) << why;
      }
    }
  }
  // The default on an H100 with 528 resident CTAs (4 of 512 threads an SM): 4096 indices (8 rows)
  // in 2 tiles of 4 rounds, not 8 tiles of 1; 2^24 (32768 rows) in 4 waves of 16 rounds, 4 shared.
  const auto a = ptxw::device::detail::plan_with_state(default_policy, 4096, 528);
  EXPECT_EQ(a.tiles, 2u);
  EXPECT_EQ(a.rounds, 4);
  EXPECT_EQ(a.shared, 1);
  const auto b = ptxw::device::detail::plan_with_state(default_policy, 1ull << 24, 528);
  EXPECT_EQ(b.tiles, 4u * 528u);
  EXPECT_EQ(b.rounds, 16);
  EXPECT_EQ(b.shared, 4);
}

TEST(DeviceStateArgs, TooSmallStorageIsRefusedAndNothingIsWritten)
{
  for (long long n : {1000ll, 128ll * 5000})
  {
    std::size_t bytes = 0, emulated = 0;
    ASSERT_EQ(ptxw::device::for_each_with_state(nullptr, bytes, n, instrumented{}), cudaSuccess);
    ASSERT_EQ(ptxw::device::for_each_with_state<emulated_selector>(nullptr, emulated, n, instrumented{}), cudaSuccess);
    std::vector<unsigned char> host(std::max(bytes, emulated), 0xab); // host memory: a write or a launch would show
    std::size_t less = bytes - 1;
    EXPECT_EQ(ptxw::device::for_each_with_state(host.data(), less, n, instrumented{}), cudaErrorInvalidValue);
    EXPECT_EQ(less, bytes - 1);
    less = emulated - 1;
    EXPECT_EQ(ptxw::device::for_each_with_state<emulated_selector>(host.data(), less, n, instrumented{}),
              cudaErrorInvalidValue);
    EXPECT_EQ(less, emulated - 1);
    for (unsigned char c : host)
    {
      ASSERT_EQ(c, 0xab);
    }
  }
}

TEST(DeviceStateArgs, BadArgumentsAreInvalidValueAndNothingIsWritten)
{
  std::vector<unsigned char> host(4096, 0xab);
  std::size_t bytes = host.size();
  EXPECT_EQ(ptxw::device::for_each_with_state(host.data(), bytes, -1, instrumented{}), cudaErrorInvalidValue);
  EXPECT_EQ(ptxw::device::for_each_with_state(host.data(), bytes, static_cast<short>(-5), instrumented{}),
            cudaErrorInvalidValue);
  // 2^33 x 2^33: more indices than 64 bits count; 2^62: more tiles than a grid has.
  const ptxw::device::shape<2> overflow{{1ull << 33, 1ull << 33}};
  EXPECT_EQ(ptxw::device::for_each_with_state(host.data(), bytes, overflow, count_2d{}), cudaErrorInvalidValue);
  EXPECT_EQ(ptxw::device::for_each_with_state(host.data(), bytes, 1ull << 62, instrumented{}), cudaErrorInvalidValue);
  EXPECT_EQ(ptxw::device::for_each_with_state<emulated_selector>(host.data(), bytes, 1ull << 62, instrumented{}),
            cudaErrorInvalidValue);
  // The size query answers the same for a bad count: nothing written there either.
  std::size_t queried = 12345;
  EXPECT_EQ(ptxw::device::for_each_with_state(nullptr, queried, -7, instrumented{}), cudaErrorInvalidValue);
  EXPECT_EQ(queried, 12345u);
  EXPECT_EQ(bytes, host.size());
  for (unsigned char c : host)
  {
    ASSERT_EQ(c, 0xab);
  }
}

TEST(DeviceStateArgs, EmptyShapesAreValidNoOps)
{
  std::vector<unsigned char> host(4096, 0xab); // host memory: any memset or launch would fail or show
  std::size_t bytes = host.size();
  EXPECT_EQ(ptxw::device::for_each_with_state(host.data(), bytes, 0, instrumented{}), cudaSuccess);
  EXPECT_EQ(ptxw::device::for_each_with_state(host.data(), bytes, 0ull, instrumented{}), cudaSuccess);
  EXPECT_EQ(ptxw::device::for_each_with_state(host.data(), bytes, ptxw::device::shape<2>{{5, 0}}, count_2d{}),
            cudaSuccess);
  EXPECT_EQ(ptxw::device::for_each_with_state<emulated_selector>(host.data(), bytes, 0, instrumented{}), cudaSuccess);
  for (unsigned char c : host)
  {
    ASSERT_EQ(c, 0xab);
  }
}

// ---- on the GPU ----

// with_exact_storage, expect_all and capture_and_replay: device_fixture.h.
class DeviceState : public DeviceAlgorithm
{
protected:
  // The instrumented op's buffers for n indices (CTAs: at most one per row of 32 indices).
  struct Record
  {
    DeviceBuffer<unsigned> hits, setups, flushes, own, launched;
    DeviceBuffer<unsigned long long> total;
    std::size_t ctas = 0;
    cudaError_t allocate(unsigned long long n)
    {
      ctas = n / 32 + 1;
      cudaError_t e = hits.allocate_zeroed(n);
      for (DeviceBuffer<unsigned>* b : {&setups, &flushes, &own})
      {
        e = e != cudaSuccess ? e : b->allocate_zeroed(ctas);
      }
      e = e != cudaSuccess ? e : launched.allocate_zeroed(1);
      return e != cudaSuccess ? e : total.allocate_zeroed(1);
    }
    instrumented op() const
    {
      return {hits.get(), setups.get(), flushes.get(), own.get(), total.get(), launched.get()};
    }
    // The two-phase call, call(temp, bytes), of for_each_with_state<Selector> on op() over n indices.
    template <class Selector = ptxw::device::for_each_state_selector>
    auto call(unsigned long long n) const
    {
      return [this, n](void* temp, std::size_t& bytes) {
        return ptxw::device::for_each_with_state<Selector>(temp, bytes, n, op());
      };
    }
  };

  // What every run must show: each index once, counted through the state and flushed; per CTA one
  // set-up and one flush where it ran indices, none where it ran none (a canceled CTA), none
  // beyond the launch. Returns {CTAs launched, CTAs that ran}.
  static std::pair<unsigned, unsigned> expect_once_per_cta(const Record& r, unsigned long long n)
  {
    expect_all(r.hits, 1);
    std::vector<unsigned long long> total;
    std::vector<unsigned> setups, flushes, own, launched;
    EXPECT_EQ(r.total.download(total), cudaSuccess);
    EXPECT_EQ(r.setups.download(setups), cudaSuccess);
    EXPECT_EQ(r.flushes.download(flushes), cudaSuccess);
    EXPECT_EQ(r.own.download(own), cudaSuccess);
    EXPECT_EQ(r.launched.download(launched), cudaSuccess);
    EXPECT_EQ(total[0], n) << "indices counted in the states and flushed";
    unsigned ran = 0;
    std::size_t bad = 0, first = setups.size();
    for (std::size_t b = 0; b < setups.size(); ++b)
    {
      const unsigned expected = b < launched[0] && own[b] > 0 ? 1u : 0u;
      if (setups[b] != expected || flushes[b] != expected)
      {
        first = bad++ == 0 ? b : first;
      }
      ran += own[b] > 0;
    }
    EXPECT_EQ(bad, 0u) << "CTAs whose set-ups or flushes are not 1 where they ran indices and 0 elsewhere; the "
                          "first: "
                       << first << " (set-ups " << setups[first < setups.size() ? first : 0] << ", flushes "
                       << flushes[first < setups.size() ? first : 0] << ", indices "
                       << own[first < setups.size() ? first : 0] << ")";
    return {launched[0], ran};
  }
};

TEST_F(DeviceState, RunsEveryIndexOnceWithSetupAndFlushOncePerCtaThatRan)
{
  // 1, 31, 4096: one wave, no scheduler (4096: 2 tiles of 4 rows, min_rounds); 1000003: one wave of
  // the default on an H100; 20000003: 39063 rows, at least 2442 tiles of up to 16 rounds, more than
  // fit at once, stolen by a persistent grid.
  for (unsigned long long n : {1ull, 31ull, 4096ull, 1000003ull, 20000003ull})
  {
    Record r;
    PTXW_CUDA_OK(r.allocate(n));
    PTXW_CUDA_OK(with_exact_storage(r.call(n)));
    const auto [launched, ran] = expect_once_per_cta(r, n);
    const unsigned long long rows = (n + default_policy.block_threads - 1) / default_policy.block_threads;
    EXPECT_LE(launched, std::max<unsigned long long>(1, rows / default_policy.min_rounds)) << "n " << n;
    EXPECT_EQ(ran, launched) << "n " << n; // counter_t and one wave launch no CTA that does not run
    if (n == 20000003)
    {
      // Fewer set-ups than tiles: once per CTA, not once per tile.
      EXPECT_LT(launched, rows / default_policy.rounds) << "n " << n;
    }
  }
}

TEST_F(DeviceState, CanceledCtasRunNeitherSetupNorFlush)
{
  // The emulation launches the whole grid: 23438 tiles of 2 rows for 3000017 indices, far more than
  // fit at once, so most CTAs start after their tile was stolen and return before the prologue.
  const unsigned long long n = 3000017;
  Record r;
  PTXW_CUDA_OK(r.allocate(n));
  PTXW_CUDA_OK(with_exact_storage(r.call<emulated_selector>(n)));
  const auto [launched, ran] = expect_once_per_cta(r, n);
  EXPECT_GT(launched, ran) << "no CTA was canceled: the test saw nothing";
  EXPECT_GT(ran, 0u);
  // counter_t, tiles of 8 rounds of 512, 2 shared: each launched CTA once, fewer than tiles.
  Record c;
  PTXW_CUDA_OK(c.allocate(n));
  PTXW_CUDA_OK(with_exact_storage(c.call<counter_selector>(n)));
  const auto [c_launched, c_ran] = expect_once_per_cta(c, n);
  EXPECT_EQ(c_ran, c_launched);
  EXPECT_LT(c_launched, (n + 512 * 8 - 1) / (512 * 8));
}

TEST_F(DeviceState, SetupAndFlushAreSeparatedFromTheIndicesByBarriers)
{
  // One wave without a scheduler (4096 indices of the default: 4 tiles of 4 rows), the emulation,
  // and counter_t stealing (4000000 indices: 7813 rows of 512, two waves of 8-round tiles on an
  // H100): every count reaches the state after its set-up and before its flush. (counter_t's loop
  // has a barrier of its own after the last tile; the other two have none but the flush's.)
  DeviceBuffer<unsigned long long> total;
  PTXW_CUDA_OK(total.allocate_zeroed(1));
  auto check = [&](unsigned long long n, const char* what, auto call) {
    PTXW_CUDA_OK(total.fill_bytes(0));
    PTXW_CUDA_OK(call(n));
    PTXW_CUDA_OK(cudaDeviceSynchronize());
    std::vector<unsigned long long> t;
    PTXW_CUDA_OK(total.download(t));
    EXPECT_EQ(t[0], n) << what;
  };
  const late_setup_and_tail op{total.get()};
  check(4096, "one wave", [&](unsigned long long n) {
    return ptxw::device::for_each_with_state(static_cast<unsigned>(n), op, ptxw::device::env{});
  });
  check(128 * 2 * 40, "emulation", [&](unsigned long long n) {
    return ptxw::device::for_each_with_state<emulated_selector>(static_cast<unsigned>(n), op, ptxw::device::env{});
  });
  check(4000000, "counter_t", [&](unsigned long long n) {
    return ptxw::device::for_each_with_state<counter_selector>(static_cast<unsigned>(n), op, ptxw::device::env{});
  });
}

TEST_F(DeviceState, PrivatisedHistogramsEqualTheCpus)
{
  // Bytes with a skew (every 7th sample 42), over many CTAs and one, through the three schedulers
  // and the env overload; n = 0 leaves the bins as they are.
  const long long max_n = 20000011;
  std::vector<unsigned char> samples(max_n);
  for (long long i = 0; i < max_n; ++i)
  {
    samples[i] = i % 7 == 0 ? 42 : static_cast<unsigned char>((i * 2654435761ull) >> 13);
  }
  DeviceBuffer<unsigned char> in;
  DeviceBuffer<unsigned> bins;
  PTXW_CUDA_OK(in.assign(samples));
  PTXW_CUDA_OK(bins.allocate(256));
  auto expect_histogram = [&](long long n, const std::string& what) {
    std::vector<unsigned> expected(256, 0), got;
    for (long long i = 0; i < n; ++i)
    {
      ++expected[samples[i]];
    }
    PTXW_CUDA_OK(bins.download(got));
    EXPECT_EQ(got, expected) << what << " n " << n;
  };
  for (long long n : {0ll, 1ll, 4097ll, 1000003ll, max_n})
  {
    const byte_histogram op{in.get(), bins.get()};
    PTXW_CUDA_OK(bins.fill_bytes(0));
    PTXW_CUDA_OK(with_exact_storage([&](void* t, std::size_t& b) {
      return ptxw::device::for_each_with_state(t, b, n, op);
    }));
    expect_histogram(n, "default");
    PTXW_CUDA_OK(bins.fill_bytes(0));
    PTXW_CUDA_OK(with_exact_storage([&](void* t, std::size_t& b) {
      return ptxw::device::for_each_with_state<emulated_selector>(t, b, n, op);
    }));
    expect_histogram(n, "emulation");
    PTXW_CUDA_OK(bins.fill_bytes(0));
    PTXW_CUDA_OK(ptxw::device::for_each_with_state<counter_selector>(n, op, ptxw::device::env{}));
    PTXW_CUDA_OK(cudaDeviceSynchronize());
    expect_histogram(n, "counter_t, env");
  }
}

// Small enough for compute-sanitizer (tests/runtime/run_on_gpu.sh runs racecheck on it): the state's
// set-up, the atomics of the indices and the flush's reads, separated by the barriers, one wave
// without a scheduler and the emulation's protocol.
TEST_F(DeviceState, SmallPrivatisedHistogram)
{
  const long long n = 100003;
  std::vector<unsigned char> samples(n);
  std::vector<unsigned> expected(256, 0), got;
  for (long long i = 0; i < n; ++i)
  {
    samples[i] = static_cast<unsigned char>((i * 2654435761ull) >> 11);
    ++expected[samples[i]];
  }
  DeviceBuffer<unsigned char> in;
  DeviceBuffer<unsigned> bins;
  PTXW_CUDA_OK(in.assign(samples));
  PTXW_CUDA_OK(bins.allocate_zeroed(256));
  PTXW_CUDA_OK(ptxw::device::for_each_with_state(n, byte_histogram{in.get(), bins.get()}, ptxw::device::env{}));
  PTXW_CUDA_OK(cudaDeviceSynchronize());
  PTXW_CUDA_OK(bins.download(got));
  EXPECT_EQ(got, expected);
  PTXW_CUDA_OK(bins.fill_bytes(0));
  PTXW_CUDA_OK(ptxw::device::for_each_with_state<emulated_selector>(n, byte_histogram{in.get(), bins.get()},
                                                                    ptxw::device::env{}));
  PTXW_CUDA_OK(cudaDeviceSynchronize());
  PTXW_CUDA_OK(bins.download(got));
  EXPECT_EQ(got, expected) << "emulation";
}

TEST_F(DeviceState, HistogramWithAStateBeyond48KiB)
{
  // 64 KiB of bins: the kernel is allowed that much dynamic shared memory before its occupancy is
  // asked and it is launched.
  ASSERT_TRUE(fits_dynamic_smem(sizeof(wide_histogram::state)));
  const unsigned long long n = 30000001;
  std::vector<unsigned short> samples(n);
  std::vector<unsigned> expected(wide_histogram::bins_count, 0), got;
  for (unsigned long long i = 0; i < n; ++i)
  {
    samples[i] = static_cast<unsigned short>((i * 40503ull) ^ (i >> 7));
    ++expected[samples[i] % wide_histogram::bins_count];
  }
  DeviceBuffer<unsigned short> in;
  DeviceBuffer<unsigned> bins;
  PTXW_CUDA_OK(in.assign(samples));
  PTXW_CUDA_OK(bins.allocate_zeroed(wide_histogram::bins_count));
  PTXW_CUDA_OK(with_exact_storage([&](void* t, std::size_t& b) {
    return ptxw::device::for_each_with_state(t, b, n, wide_histogram{in.get(), bins.get()});
  }));
  PTXW_CUDA_OK(bins.download(got));
  EXPECT_EQ(got, expected);
  PTXW_CUDA_OK(bins.fill_bytes(0));
  PTXW_CUDA_OK(with_exact_storage([&](void* t, std::size_t& b) {
    return ptxw::device::for_each_with_state<emulated_selector>(t, b, n, wide_histogram{in.get(), bins.get()});
  }));
  PTXW_CUDA_OK(bins.download(got));
  EXPECT_EQ(got, expected) << "emulation";
}

TEST_F(DeviceState, OpsWithoutCallbacksAnd2dShapes)
{
  const unsigned n = 5000011;
  DeviceBuffer<unsigned> hits;
  PTXW_CUDA_OK(hits.allocate_zeroed(n));
  PTXW_CUDA_OK(ptxw::device::for_each_with_state(n, no_callbacks{hits.get()}, ptxw::device::env{}));
  PTXW_CUDA_OK(cudaDeviceSynchronize());
  expect_all(hits, 1);
  const unsigned long long nx = 1001, ny = 3777;
  DeviceBuffer<unsigned> h2;
  DeviceBuffer<unsigned long long> total;
  PTXW_CUDA_OK(h2.allocate_zeroed(nx * ny));
  PTXW_CUDA_OK(total.allocate_zeroed(1));
  PTXW_CUDA_OK(with_exact_storage([&](void* t, std::size_t& b) {
    return ptxw::device::for_each_with_state(t, b, ptxw::device::shape<2>{{nx, ny}},
                                             count_2d{h2.get(), nx, ny, total.get()});
  }));
  expect_all(h2, 1);
  std::vector<unsigned long long> t;
  PTXW_CUDA_OK(total.download(t));
  EXPECT_EQ(t[0], nx * ny);
}

TEST_F(DeviceState, TooSmallStorageLaunchesNothing)
{
  const unsigned long long n = 20000003;
  Record r;
  PTXW_CUDA_OK(r.allocate(n));
  ASSERT_NO_FATAL_FAILURE(expect_too_small_refused(r.call<emulated_selector>(n)));
  std::vector<unsigned> setups;
  PTXW_CUDA_OK(r.setups.download(setups));
  EXPECT_EQ(std::accumulate(setups.begin(), setups.end(), 0ull), 0ull);
}

TEST_F(DeviceState, GraphCaptureOfTheTwoPhaseCall)
{
  // 20000003 indices: stolen, so each replay needs the captured reset of the cursor.
  const unsigned n = 20000003;
  DeviceBuffer<unsigned> hits;
  PTXW_CUDA_OK(hits.allocate_zeroed(n));
  std::size_t bytes = 0;
  DeviceBuffer<unsigned char> temp;
  ASSERT_NO_FATAL_FAILURE(allocate_queried(temp, bytes, [&](void* t, std::size_t& b) {
    return ptxw::device::for_each_with_state(t, b, n, no_callbacks{hits.get()});
  }));
  ASSERT_NO_FATAL_FAILURE(capture_and_replay(3, [&](cudaStream_t s) {
    return ptxw::device::for_each_with_state(temp.get(), bytes, n, no_callbacks{hits.get()}, s);
  }));
  expect_all(hits, 3);
}
