// ptxw::device::for_each_with_state (issue 21, part 3): work with per-CTA state -- privatised
// histograms against cub::DeviceHistogram::HistogramEven, and a table built in shared memory per
// CTA -- each also against the same op written as one block per tile (set-up and flush per block),
// same run, interleaved, best of N with the spread, every output checked.
//
//   ptxw_bench_device_state [--reps N] [--quick] [--only NAME[,NAME...]] [--max-log2n K] [--sweep]
//                           [--out FILE.csv] [--self-test]
//
// Workloads (each op is the same code for ptxw and for the plain launch):
//   hist-u8-256-{uniform,skewed}     8-bit samples, 256 bins; 32 samples an index (two 16-byte loads);
//                                    state: 32 copies of the bins, copy l for lane l (33 KiB), so a
//                                    lane's atomic never conflicts with another's, skewed or not
//   hist-f32-256-{uniform,skewed}    float samples in [0, 1), 256 bins; 8 samples an index; the same state
//   hist-f32-4096-{uniform,skewed}   float samples, 4096 bins; 8 samples an index; state: 2 copies of
//                                    the bins (33 KiB), an index's samples equal to its first counted
//                                    with one atomic. CUB keeps more than 256 bins in global memory.
//   table-1k-deg8, table-4k-deg64, table-4k-deg256
//                                    y = f(x) for float x in [0, 1), 4 an index, f interpolated in a
//                                    table of 1024 (4096) entries that each CTA builds in shared
//                                    memory from a polynomial of degree 8 (64, 256): a cheap set-up, a
//                                    moderate one and a costly one (about 1M FMAs a CTA). Against the
//                                    plain launch only.
// "skewed": 90% of the samples in one bin (the others uniform). n (samples, or table elements) =
// 2^20 .. 2^28.
//
// Contenders: CUB (histograms), ptxw's default policy (for_each_state_selector), and "plain": the
// same op, one CTA of 256 threads per tile of 256 x 16 indices (the default's tile), each running
// set-up, its tile and flush. The histogram calls include zeroing the output (ptxw and plain flush
// into it with atomics; CUB's call zeroes it with a kernel of its own).
//
// Timing: for each workload and n, every contender is called once untimed; then --reps rounds, each
// timing every contender in turn (A B C A B C ...): K calls back to back from an idle GPU, per call,
// K = 1 where the reference's (CUB's, or plain's for the tables) call, timed once warm, took 200 us or more,
// else up to 16 (so a short call's host work overlaps the GPU's, as in a stream of calls). Min,
// median and max of the rounds are kept; ratios are reference / ptxw on the mins (above 1: ptxw
// faster), and the spread is (max - min) / min.
//
// Checks, on every timed measurement (any failure: exit status 1):
//   exactly once: each ptxw and plain call counts, through the state, the indices it ran and their
//     sum, flushed into a slot of its own: both must be n and n(n-1)/2 for every call;
//   histograms: the output (of the last call) equals CUB's bin for bin;
//   tables: the output, set to NaN before the calls, equals the reference (the plain launch's first
//     call, itself checked against a CPU evaluation at 4096 points) bit for bit: every element was
//     written. With the counts: every index ran, and n times in all, so each exactly once.
//
// --sweep: ptxw with 11 policies (threads x rounds / shared, min_rounds, o: CTAs an SM compiled for) on hist-u8-256-uniform,
// hist-f32-4096-skewed and table-4k-deg64 at 2^20, 2^24 and 2^28, against the same reference.
// --quick: n = 2^20, 2^24, 2^26 and 3 rounds. --reps N: rounds (default 11). --max-log2n K: n up to 2^K.
// --only NAME: the workloads whose names start with NAME, comma-separated. --out FILE: every timing as
// CSV (mode,workload,log2n,n,contender,policy,calls,reps,min_us,median_us,max_us).
// --self-test: the host side on the CPU (no GPU needed): the samples' bins, the plain launch's tiles,
// the CPU table, the default's plan.
#include <ptxw/device.h>

#include <cub/device/device_histogram.cuh>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "check.h"

namespace {

// ---------------------------------------------------------------------------------------------
// Buffers.

template <class T>
class dbuf
{
  T* p_       = nullptr;
  std::size_t n_ = 0;

public:
  dbuf() = default;
  dbuf(const dbuf&)            = delete;
  dbuf& operator=(const dbuf&) = delete;
  ~dbuf()
  {
    release();
  }
  void reserve(std::size_t n)
  {
    if (n > n_)
    {
      release();
      PTXW_BENCH_CHECK(cudaMalloc(&p_, std::max<std::size_t>(n, 1) * sizeof(T)));
      n_ = n;
    }
  }
  void release()
  {
    if (p_ != nullptr)
    {
      PTXW_BENCH_CHECK(cudaFree(p_));
    }
    p_ = nullptr;
    n_ = 0;
  }
  T* get() const
  {
    return p_;
  }
  std::size_t size() const
  {
    return n_;
  }
  std::vector<T> download(std::size_t n) const
  {
    std::vector<T> h(n);
    PTXW_BENCH_CHECK(cudaMemcpy(h.data(), p_, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }
};

// ---------------------------------------------------------------------------------------------
// The samples: one hash per index, the same on the host (self-test) and the device.

__host__ __device__ inline unsigned long long mix(unsigned long long x)
{
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

constexpr unsigned hot_4096 = 17 * 16 + 8; // the skewed float samples' bin: 280 of 4096, 17 of 256
constexpr unsigned hot_byte = 17;

// 90% of skewed samples in the hot bin (the rest uniform, the hot bin among them).
__host__ __device__ inline bool is_hot(unsigned long long h, bool skewed)
{
  return skewed && h % 10 != 0;
}

__host__ __device__ inline unsigned char byte_sample(unsigned long long i, bool skewed)
{
  const unsigned long long h = mix(i ^ (skewed ? 0x5eedull : 0x1234ull));
  return is_hot(h, skewed) ? static_cast<unsigned char>(hot_byte) : static_cast<unsigned char>(h >> 24);
}

// A float in [0, 1) within its bin of 4096, at least 0.19 bin widths from either edge (so any
// rounding of the bin arithmetic, CUB's or ours, gives the same bin, for 4096 bins and for 256).
__host__ __device__ inline unsigned float_bin_4096(unsigned long long i, bool skewed)
{
  const unsigned long long h = mix(i ^ (skewed ? 0xf00dull : 0xabcdull));
  return is_hot(h, skewed) ? hot_4096 : static_cast<unsigned>((h >> 20) % 4096);
}
__host__ __device__ inline float float_sample(unsigned long long i, bool skewed)
{
  const unsigned long long h = mix(i ^ (skewed ? 0xf00dull : 0xabcdull));
  const unsigned b           = is_hot(h, skewed) ? hot_4096 : static_cast<unsigned>((h >> 20) % 4096);
  const double jitter        = (static_cast<double>((h >> 40) & 0xffff) / 65536.0) * 0.6 - 0.3;
  return static_cast<float>((b + 0.5 + jitter) / 4096.0);
}

template <class T>
__global__ void fill_samples(T* out, unsigned long long n, bool skewed)
{
  for (unsigned long long i = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<unsigned long long>(gridDim.x) * blockDim.x)
  {
    if constexpr (sizeof(T) == 1)
    {
      out[i] = byte_sample(i, skewed);
    }
    else
    {
      out[i] = float_sample(i, skewed);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The ops. Each counts the indices it ran and their sum in its state (a slot per lane: no two lanes
// of a warp on one address), flushed into tally[0] and tally[1].

struct tally_part
{
  unsigned long long sum[32];
  unsigned count[32];
};

__device__ inline void count_index(tally_part& t, unsigned long long i)
{
  const unsigned lane = threadIdx.x % 32;
  atomicAdd(&t.count[lane], 1u);
  atomicAdd(&t.sum[lane], i);
}

// Called by every thread (flush): warp 0 sums the slots and adds them to tally.
__device__ inline void flush_tally(const tally_part& t, unsigned long long* tally)
{
  if (threadIdx.x < 32)
  {
    unsigned long long c = t.count[threadIdx.x], s = t.sum[threadIdx.x];
    for (int o = 16; o > 0; o /= 2)
    {
      c += __shfl_down_sync(~0u, c, o);
      s += __shfl_down_sync(~0u, s, o);
    }
    if (threadIdx.x == 0)
    {
      atomicAdd(tally, c);
      atomicAdd(tally + 1, s);
    }
  }
}

// Zero `bytes` (a multiple of 16) of shared memory at p (16-aligned), by every thread.
__device__ inline void zero_shared(void* p, unsigned bytes)
{
  uint4* w = static_cast<uint4*>(p);
  for (unsigned k = threadIdx.x; k < bytes / 16; k += blockDim.x)
  {
    w[k] = make_uint4(0, 0, 0, 0);
  }
}

// A privatised histogram of Bins even bins: Sample is unsigned char (bin = value, Bins = 256) or float
// in [0, 1). Per samples an index (32 bytes, two 16-byte loads). Copies copies of the bins, lane l
// counting into copy l % Copies (with 32, bank l: no conflicts at all); below 32, an index's samples
// equal to its first are counted with one atomic.
template <class Sample, int Bins, int Copies>
struct hist_op
{
  static constexpr int per = 32 / static_cast<int>(sizeof(Sample));
  static_assert(Copies == 32 || (Copies >= 1 && Copies <= 4), "copies: one per lane, or a few");
  static_assert(Bins * Copies % 4 == 0 && (Bins & (Bins - 1)) == 0, "whole 16-byte words, a power of 2");
  struct alignas(16) state
  {
    tally_part tally;
    unsigned bins[Bins * Copies];
  };
  const Sample* in;
  unsigned long long n; // samples
  unsigned* out;
  unsigned long long* tally;

  // The bin of a sample, or -1 outside [lower, upper), as CUB's HistogramEven.
  static __device__ int bin_of(Sample v)
  {
    if constexpr (sizeof(Sample) == 1)
    {
      return static_cast<int>(v);
    }
    else
    {
      return v >= 0.0f && v < 1.0f ? min(static_cast<int>(v * static_cast<float>(Bins)), Bins - 1) : -1;
    }
  }
  static __device__ void add(state& s, int b, unsigned lane, unsigned count)
  {
    if (b >= 0)
    {
      atomicAdd(&s.bins[b * Copies + (Copies == 32 ? lane : lane % Copies)], count);
    }
  }

  __device__ void setup(state& s) const
  {
    zero_shared(&s, sizeof(state));
  }
  __device__ void operator()(state& s, unsigned long long i) const
  {
    const unsigned lane            = threadIdx.x % 32;
    const unsigned long long first = i * per;
    if (first + per <= n)
    {
      union
      {
        uint4 w[2];
        Sample v[per];
      } u;
      const uint4* p = reinterpret_cast<const uint4*>(in + first);
      u.w[0]         = __ldg(p);
      u.w[1]         = __ldg(p + 1);
      if constexpr (Copies == 32)
      {
#pragma unroll
        for (int k = 0; k < per; ++k)
        {
          add(s, bin_of(u.v[k]), lane, 1u);
        }
      }
      else
      {
        const int first_bin = bin_of(u.v[0]);
        unsigned same       = 1;
#pragma unroll
        for (int k = 1; k < per; ++k)
        {
          const int b = bin_of(u.v[k]);
          if (b == first_bin)
          {
            ++same;
          }
          else
          {
            add(s, b, lane, 1u);
          }
        }
        add(s, first_bin, lane, same);
      }
    }
    else
    {
      for (unsigned long long k = first; k < n; ++k)
      {
        add(s, bin_of(in[k]), lane, 1u);
      }
    }
    count_index(s.tally, i);
  }
  __device__ void flush(state& s) const
  {
    const unsigned rotate = blockIdx.x * 61u; // CTAs flush from different bins: less contention in L2
    for (unsigned k = threadIdx.x; k < Bins; k += blockDim.x)
    {
      const unsigned b = (k + rotate) & (Bins - 1);
      unsigned total   = 0;
#pragma unroll
      for (unsigned c = 0; c < Copies; ++c)
      {
        total += s.bins[b * Copies + (c + b) % Copies]; // rotated: the lanes of a warp read 32 banks
      }
      if (total != 0)
      {
        atomicAdd(out + b, total);
      }
    }
    flush_tally(s.tally, tally);
  }
};

// The table's polynomial: coefficient d = cos(d) / (d + 1)^2 (|f| < 1.65 on [0, 1]).
inline std::vector<float> table_coefficients(int degree)
{
  std::vector<float> c(degree + 1);
  for (int d = 0; d <= degree; ++d)
  {
    c[d] = static_cast<float>(std::cos(static_cast<double>(d)) / ((d + 1.0) * (d + 1.0)));
  }
  return c;
}

// y[i] = f(x[i]) for the 4 floats of index i, f interpolated linearly in a table of Entries + 1 knots
// of a polynomial of Degree that each CTA builds in shared memory: the coefficients staged from
// global memory, a barrier, then Horner at each knot.
template <int Entries, int Degree>
struct table_op
{
  struct alignas(16) state
  {
    tally_part tally;
    float c[Degree + 1];
    float t[Entries + 4];
  };
  const float4* x;
  float4* y;
  const float* coefficients;
  unsigned long long* tally;

  __device__ void setup(state& s) const
  {
    zero_shared(&s.tally, sizeof(tally_part));
    for (int d = threadIdx.x; d <= Degree; d += blockDim.x)
    {
      s.c[d] = coefficients[d];
    }
    __syncthreads(); // setup() is called by every thread of the CTA, converged
    for (int k = threadIdx.x; k <= Entries; k += blockDim.x)
    {
      const float u = __fdiv_rn(static_cast<float>(k), static_cast<float>(Entries));
      float r       = s.c[Degree];
#pragma unroll 8
      for (int d = Degree - 1; d >= 0; --d)
      {
        r = fmaf(r, u, s.c[d]);
      }
      s.t[k] = r;
    }
  }
  static __device__ float lookup(const state& s, float v)
  {
    // Rounded operations only (no contraction the compiler might make in one kernel and not in the
    // other): ptxw's and the plain launch's outputs are compared bit for bit.
    const float u = __fmul_rn(fminf(fmaxf(v, 0.0f), 1.0f), static_cast<float>(Entries));
    const int j   = min(static_cast<int>(u), Entries - 1);
    const float f = __fsub_rn(u, static_cast<float>(j));
    const float a = s.t[j];
    return fmaf(f, __fsub_rn(s.t[j + 1], a), a);
  }
  __device__ void operator()(state& s, unsigned long long i) const
  {
    const float4 v = __ldg(x + i);
    y[i]           = make_float4(lookup(s, v.x), lookup(s, v.y), lookup(s, v.z), lookup(s, v.w));
    count_index(s.tally, i);
  }
  __device__ void flush(state& s) const
  {
    flush_tally(s.tally, tally);
  }
};

// The same f on the CPU, in double.
double table_cpu(const std::vector<float>& c, int entries, float v)
{
  auto poly = [&](double u) {
    double r = c.back();
    for (int d = static_cast<int>(c.size()) - 2; d >= 0; --d)
    {
      r = r * u + c[d];
    }
    return r;
  };
  const double u = std::min(std::max(static_cast<double>(v), 0.0), 1.0) * entries;
  const int j    = std::min(static_cast<int>(u), entries - 1);
  const double f = u - j;
  const double a = poly(static_cast<double>(j) / entries), b = poly(static_cast<double>(j + 1) / entries);
  return a + f * (b - a);
}

// ---------------------------------------------------------------------------------------------
// The plain launch: one CTA of Threads per tile of Threads x Rounds consecutive indices (round r:
// Threads consecutive indices), each with set-up, its tile and flush.

constexpr int plain_threads = 256;
constexpr int plain_rounds  = 16;

template <int Threads, int Rounds, class Op>
__global__ __launch_bounds__(Threads) void plain_kernel(Op op, unsigned long long n)
{
  extern __shared__ __align__(16) unsigned char plain_state[];
  auto& st = *reinterpret_cast<typename Op::state*>(plain_state);
  op.setup(st);
  __syncthreads();
  const unsigned long long base = blockIdx.x * static_cast<unsigned long long>(Threads * Rounds);
#pragma unroll 4
  for (int r = 0; r < Rounds; ++r)
  {
    if (const unsigned long long i = base + static_cast<unsigned long long>(r) * Threads + threadIdx.x; i < n)
    {
      op(st, i);
    }
  }
  __syncthreads();
  op.flush(st);
}

constexpr unsigned long long plain_blocks(unsigned long long n)
{
  return (n + plain_threads * plain_rounds - 1) / (plain_threads * plain_rounds);
}

template <class Op>
void plain_call(const Op& op, unsigned long long n, cudaStream_t stream = 0)
{
  constexpr auto* kernel   = plain_kernel<plain_threads, plain_rounds, Op>;
  constexpr std::size_t sm = sizeof(typename Op::state);
  static bool allowed      = false; // the attribute, once (one device)
  if (!allowed && sm > 48 * 1024)
  {
    PTXW_BENCH_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(sm)));
  }
  allowed = true;
  kernel<<<static_cast<unsigned>(plain_blocks(n)), plain_threads, sm, stream>>>(op, n);
  PTXW_BENCH_CHECK(cudaGetLastError());
}

// ---------------------------------------------------------------------------------------------
// Policies of the sweep (every architecture the same).

template <int Threads, int Rounds, int Shared, int MinRounds, int Occupancy = 0>
struct state_policy
{
  constexpr ptxw::device::for_each_state_policy operator()(ptxw::device::compute_capability) const
  {
    return {Threads, Rounds, ptxw::clc::backend_id::automatic, Shared, MinRounds, 1, Occupancy};
  }
};

template <class... P>
struct policy_list
{};

template <class... P, class F>
void for_each_type(policy_list<P...>, F&& f)
{
  int j = 0;
  (f(P{}, j++), ...);
}

using sweep_policies =
  policy_list<state_policy<128, 8, 2, 1>, state_policy<128, 16, 4, 4>, state_policy<256, 8, 2, 1>,
              state_policy<256, 16, 0, 4>, ptxw::device::for_each_state_selector, state_policy<256, 16, 4, 4, 5>,
              state_policy<256, 16, 4, 4, 6>, state_policy<256, 32, 8, 8>, state_policy<512, 16, 4, 4>,
              state_policy<512, 32, 8, 4>, state_policy<1024, 8, 2, 2>>;

template <class Selector>
std::string policy_label(Selector s)
{
  const ptxw::device::for_each_state_policy p = s(ptxw::device::compute_capability{90});
  char b[40];
  std::snprintf(b, sizeof b, "%dx%d/%dm%d", p.block_threads, p.rounds, p.shared_rounds, p.min_rounds);
  if (p.occupancy != 0)
  {
    std::snprintf(b + std::strlen(b), sizeof b - std::strlen(b), "o%d", p.occupancy);
  }
  return b;
}

// ---------------------------------------------------------------------------------------------
// Options, statistics, CSV.

struct Options
{
  long long reps      = 11;
  bool reps_given     = false;
  long long max_log2n = 28;
  std::vector<std::string> only;
  bool quick     = false;
  bool sweep     = false;
  bool self_test = false;
  std::string out;
};

struct Stats
{
  double min = 0, median = 0, max = 0;
};

Stats stats_of(std::vector<double> v)
{
  Stats s;
  if (v.empty())
  {
    return s;
  }
  std::sort(v.begin(), v.end());
  s.min    = v.front();
  s.max    = v.back();
  s.median = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  return s;
}

double geomean(const std::vector<double>& v)
{
  double s = 0;
  for (double x : v)
  {
    s += std::log(x);
  }
  return v.empty() ? 0 : std::exp(s / v.size());
}

class Csv
{
  std::FILE* f_ = nullptr;

public:
  explicit Csv(const std::string& path)
  {
    if (!path.empty())
    {
      f_ = std::fopen(path.c_str(), "w");
      if (f_ == nullptr)
      {
        std::fprintf(stderr, "cannot write %s\n", path.c_str());
        std::exit(2);
      }
      std::fprintf(f_, "mode,workload,log2n,n,contender,policy,calls,reps,min_us,median_us,max_us\n");
    }
  }
  ~Csv()
  {
    if (f_ != nullptr)
    {
      std::fclose(f_);
    }
  }
  void row(const char* mode, const std::string& workload, int log2n, const std::string& contender,
           const std::string& policy, int calls, std::size_t reps, const Stats& s)
  {
    if (f_ != nullptr)
    {
      std::fprintf(f_, "%s,%s,%d,%llu,%s,%s,%d,%zu,%.3f,%.3f,%.3f\n", mode, workload.c_str(), log2n, 1ull << log2n,
                   contender.c_str(), policy.c_str(), calls, reps, s.min, s.median, s.max);
      std::fflush(f_);
    }
  }
};

std::string pow2(int k)
{
  return "2^" + std::to_string(k);
}

constexpr int max_calls = 16;

// ---------------------------------------------------------------------------------------------
// The harness.

class Harness
{
  Options o_;
  Csv csv_;
  cudaEvent_t start_{}, stop_{};
  dbuf<unsigned long long> tally_;
  dbuf<unsigned long long> mismatches_;
  dbuf<unsigned char> ptxw_temp_, cub_temp_;
  unsigned long long checks_ = 0, failures_ = 0;
  struct Row
  {
    std::string workload;
    int log2n;
    double ratio; // reference / ptxw, on the mins
    double plain; // plain / ptxw (histograms; the tables' reference is plain)
  };
  std::vector<Row> rows_;
  // sweep: per policy, per cell, reference / policy
  std::vector<std::string> sweep_names_;
  std::vector<std::vector<double>> sweep_ratio_;
  std::vector<std::string> sweep_cells_;

public:
  explicit Harness(const Options& o)
      : o_(o)
      , csv_(o.out)
  {
    PTXW_BENCH_CHECK(cudaEventCreate(&start_));
    PTXW_BENCH_CHECK(cudaEventCreate(&stop_));
    tally_.reserve(2 * max_calls);
    mismatches_.reserve(1);
    for_each_type(sweep_policies{}, [&](auto p, int) {
      sweep_names_.push_back(policy_label(p));
    });
    sweep_ratio_.resize(sweep_names_.size());
  }
  ~Harness()
  {
    (void) cudaEventDestroy(start_);
    (void) cudaEventDestroy(stop_);
  }

  bool selected(const std::string& name) const
  {
    if (o_.only.empty())
    {
      return true;
    }
    for (const std::string& s : o_.only)
    {
      if (name.compare(0, s.size(), s) == 0)
      {
        return true;
      }
    }
    return false;
  }

  std::vector<int> sizes() const
  {
    std::vector<int> all = o_.sweep ? std::vector<int>{20, 24, 28}
                         : o_.quick ? std::vector<int>{20, 24, 26}
                                    : std::vector<int>{20, 21, 22, 23, 24, 25, 26, 27, 28};
    std::vector<int> ks;
    for (int k : all)
    {
      if (k <= o_.max_log2n)
      {
        ks.push_back(k);
      }
    }
    return ks;
  }
  int largest() const
  {
    const std::vector<int> ks = sizes();
    return ks.empty() ? 0 : ks.back();
  }

  void fail(const std::string& what)
  {
    ++failures_;
    std::printf("  FAILED: %s\n", what.c_str());
    std::fflush(stdout);
  }
  unsigned long long checks() const
  {
    return checks_;
  }
  unsigned long long failures() const
  {
    return failures_;
  }

  unsigned long long* tally(int call) const
  {
    return tally_.get() + 2 * call;
  }

  // K calls of call(c) back to back, from an idle GPU: microseconds per call.
  template <class Call>
  double timed(int calls, Call&& call)
  {
    PTXW_BENCH_CHECK(cudaMemset(tally_.get(), 0, 2 * max_calls * sizeof(unsigned long long)));
    PTXW_BENCH_CHECK(cudaDeviceSynchronize());
    PTXW_BENCH_CHECK(cudaEventRecord(start_));
    for (int c = 0; c < calls; ++c)
    {
      call(c);
    }
    PTXW_BENCH_CHECK(cudaEventRecord(stop_));
    PTXW_BENCH_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    PTXW_BENCH_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms * 1000.0 / calls;
  }

  // Every call of the last measurement ran each of n indices once: count n, sum n(n-1)/2.
  void check_tally(int calls, unsigned long long n, const std::string& what)
  {
    const std::vector<unsigned long long> t = tally_.download(2 * calls);
    const unsigned long long sum            = n % 2 == 0 ? n / 2 * (n - 1) : (n - 1) / 2 * n; // mod 2^64
    for (int c = 0; c < calls; ++c)
    {
      if (t[2 * c] != n || t[2 * c + 1] != sum)
      {
        fail(what + ", call " + std::to_string(c + 1) + " of " + std::to_string(calls) + ": ran "
             + std::to_string(t[2 * c]) + " indices of " + std::to_string(n) + " (sum of indices "
             + std::to_string(t[2 * c + 1]) + ", expected " + std::to_string(sum) + ")");
        return;
      }
    }
  }

  // Both phases of for_each_with_state into a buffer kept across calls (the size query is host
  // arithmetic; the buffer only grows before the timed calls).
  template <class Selector, class Op>
  void ptxw_call(const Op& op, unsigned long long n)
  {
    std::size_t bytes = 0;
    PTXW_BENCH_CHECK(ptxw::device::for_each_with_state<Selector>(nullptr, bytes, n, op));
    ptxw_temp_.reserve(bytes);
    bytes = ptxw_temp_.size();
    PTXW_BENCH_CHECK(ptxw::device::for_each_with_state<Selector>(ptxw_temp_.get(), bytes, n, op));
  }

  // ---- histograms ----

  template <class Sample, int Bins, int Copies>
  struct hist_case
  {
    using op_t = hist_op<Sample, Bins, Copies>;
    std::string name;
    const Sample* in;
    unsigned long long n; // samples
    unsigned* out;
    unsigned long long indices() const
    {
      return (n + op_t::per - 1) / op_t::per;
    }
  };

  // One HistogramEven call: the size query where temp is null. CUB's size query does the dispatch's
  // device queries (its storage depends on its grid), so the timed calls reuse one answer.
  template <class Sample, int Bins, int Copies>
  static void cub_histogram(const hist_case<Sample, Bins, Copies>& h, void* temp, std::size_t& bytes)
  {
    const int count = static_cast<int>(h.n);
    if constexpr (sizeof(Sample) == 1)
    {
      PTXW_BENCH_CHECK(cub::DeviceHistogram::HistogramEven(temp, bytes, h.in, h.out, Bins + 1, 0, 256, count));
    }
    else
    {
      PTXW_BENCH_CHECK(cub::DeviceHistogram::HistogramEven(temp, bytes, h.in, h.out, Bins + 1, 0.0f, 1.0f, count));
    }
  }
  // CUB's storage for h, once; then a call that reuses it.
  template <class Sample, int Bins, int Copies>
  auto cub_caller(const hist_case<Sample, Bins, Copies>& h)
  {
    std::size_t bytes = 0;
    cub_histogram(h, nullptr, bytes);
    cub_temp_.reserve(bytes);
    return [this, h, bytes] {
      std::size_t b = bytes;
      cub_histogram(h, cub_temp_.get(), b);
    };
  }

  template <class Selector, class Sample, int Bins, int Copies>
  void ptxw_histogram(const hist_case<Sample, Bins, Copies>& h, int call)
  {
    PTXW_BENCH_CHECK(cudaMemsetAsync(h.out, 0, Bins * sizeof(unsigned)));
    ptxw_call<Selector>(typename hist_case<Sample, Bins, Copies>::op_t{h.in, h.n, h.out, tally(call)}, h.indices());
  }

  template <class Sample, int Bins, int Copies>
  void plain_histogram(const hist_case<Sample, Bins, Copies>& h, int call)
  {
    PTXW_BENCH_CHECK(cudaMemsetAsync(h.out, 0, Bins * sizeof(unsigned)));
    plain_call(typename hist_case<Sample, Bins, Copies>::op_t{h.in, h.n, h.out, tally(call)}, h.indices());
  }

  // The output equals the reference bin for bin (after the calls), and for ptxw and plain every
  // call ran every index once.
  template <class Sample, int Bins, int Copies>
  void check_histogram(const hist_case<Sample, Bins, Copies>& h, const std::vector<unsigned>& ref, int calls,
                       bool tallied, const std::string& what)
  {
    ++checks_;
    const std::vector<unsigned> got = dbuf_download(h.out, Bins);
    for (int b = 0; b < Bins; ++b)
    {
      if (got[b] != ref[b])
      {
        fail(h.name + " at " + std::to_string(h.n) + ", " + what + ": bin " + std::to_string(b) + " is "
             + std::to_string(got[b]) + ", CUB's " + std::to_string(ref[b]));
        return;
      }
    }
    if (tallied)
    {
      check_tally(calls, h.indices(), h.name + " at " + std::to_string(h.n) + ", " + what);
    }
  }

  static std::vector<unsigned> dbuf_download(const unsigned* p, int n)
  {
    std::vector<unsigned> v(n);
    PTXW_BENCH_CHECK(cudaMemcpy(v.data(), p, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    return v;
  }

  // How many calls a measurement takes: 1 where the reference's call takes 200 us or more.
  static int calls_for(double reference_us)
  {
    return reference_us >= 200.0 ? 1 : std::min(max_calls, std::max(1, static_cast<int>(200.0 / reference_us)));
  }

  template <class Sample, int Bins, int Copies>
  void histogram_table(const std::string& name, const std::string& title, const Sample* samples)
  {
    if (!selected(name))
    {
      return;
    }
    using hc = hist_case<Sample, Bins, Copies>;
    std::printf("\n== %s: %s\n", name.c_str(), title.c_str());
    std::printf("%-5s %5s | %-26s | %-26s | %-26s | %8s %8s\n", "n", "calls", "CUB us: min med spread",
                "ptxw us: min med spread", "plain us: min med spread", "CUB/ptxw", "plain/p");
    dbuf<unsigned> out;
    out.reserve(Bins);
    for (int k : sizes())
    {
      const hc h{name, samples, 1ull << k, out.get()};
      // CUB's histogram: the reference (its bins must add up to n).
      const auto cub_call = cub_caller(h);
      cub_call(); // warm: its kernels loaded
      PTXW_BENCH_CHECK(cudaMemset(out.get(), 0xab, Bins * sizeof(unsigned)));
      const double first = timed(1, [&](int) { cub_call(); });
      const std::vector<unsigned> ref = dbuf_download(out.get(), Bins);
      unsigned long long total        = 0;
      for (unsigned v : ref)
      {
        total += v;
      }
      if (total != h.n)
      {
        fail(name + " at " + std::to_string(h.n) + ": CUB's bins add up to " + std::to_string(total));
      }
      const int calls = calls_for(first);
      // Each contender once untimed, then the rounds.
      enum
      {
        cub,
        ptxw,
        plain,
        count
      };
      const char* ids[count] = {"cub", "ptxw", "plain"};
      auto run               = [&](int c, int call) {
        if (c == cub)
        {
          cub_call();
        }
        else if (c == ptxw)
        {
          ptxw_histogram<ptxw::device::for_each_state_selector>(h, call);
        }
        else
        {
          plain_histogram(h, call);
        }
      };
      std::vector<double> t[count];
      for (int rep = -1; rep < o_.reps; ++rep)
      {
        for (int c = 0; c < count; ++c)
        {
          PTXW_BENCH_CHECK(cudaMemset(out.get(), 0xab, Bins * sizeof(unsigned)));
          const double us = timed(rep < 0 ? 1 : calls, [&](int call) { run(c, call); });
          check_histogram(h, ref, rep < 0 ? 1 : calls, c != cub, std::string(ids[c]) + (rep < 0 ? " (first)" : ""));
          if (rep >= 0)
          {
            t[c].push_back(us);
          }
        }
      }
      Stats s[count];
      for (int c = 0; c < count; ++c)
      {
        s[c] = stats_of(t[c]);
        csv_.row("table", name, k, ids[c], c == ptxw ? policy_label(ptxw::device::for_each_state_selector{}) : "",
                 calls, t[c].size(), s[c]);
      }
      auto cell = [](const Stats& x) {
        char b[40];
        std::snprintf(b, sizeof b, "%8.1f %8.1f %7.1f%%", x.min, x.median, 100.0 * (x.max - x.min) / x.min);
        return std::string(b);
      };
      const double r = s[cub].min / s[ptxw].min, p = s[plain].min / s[ptxw].min;
      std::printf("%-5s %5d | %s | %s | %s | %8.3f %8.3f\n", pow2(k).c_str(), calls, cell(s[cub]).c_str(),
                  cell(s[ptxw]).c_str(), cell(s[plain]).c_str(), r, p);
      std::fflush(stdout);
      rows_.push_back({name, k, r, p});
    }
  }

  // ---- tables ----

  template <int Entries, int Degree>
  void table_table(const std::string& name, const std::string& title, const float* xs, dbuf<float>& y,
                   dbuf<float>& ref)
  {
    if (!selected(name))
    {
      return;
    }
    using op_t = table_op<Entries, Degree>;
    const std::vector<float> coeff = table_coefficients(Degree);
    dbuf<float> dc;
    dc.reserve(coeff.size());
    PTXW_BENCH_CHECK(cudaMemcpy(dc.get(), coeff.data(), coeff.size() * sizeof(float), cudaMemcpyHostToDevice));
    std::printf("\n== %s: %s\n", name.c_str(), title.c_str());
    std::printf("%-5s %5s | %-26s | %-26s | %8s\n", "n", "calls", "plain us: min med spread", "ptxw us: min med spread",
                "plain/p");
    for (int k : sizes())
    {
      const unsigned long long n = 1ull << k, idx = n / 4;
      auto op                    = [&](int call) {
        return op_t{reinterpret_cast<const float4*>(xs), reinterpret_cast<float4*>(y.get()), dc.get(), tally(call)};
      };
      // The reference: the plain launch's first call, checked on the CPU at 4096 points.
      plain_call(op(0), idx); // warm: the kernel loaded
      PTXW_BENCH_CHECK(cudaMemset(y.get(), 0xff, n * sizeof(float)));
      const double first = timed(1, [&](int call) { plain_call(op(call), idx); });
      check_tally(1, idx, name + " at " + std::to_string(n) + ", plain (reference)");
      PTXW_BENCH_CHECK(cudaMemcpy(ref.get(), y.get(), n * sizeof(float), cudaMemcpyDeviceToDevice));
      {
        // 4096 elements: 1024 at the start, middle and end each, and 1024 scattered (one by one).
        std::vector<unsigned long long> at;
        for (unsigned long long j = 0; j < 1024; ++j)
        {
          at.push_back(j), at.push_back(n / 2 + j), at.push_back(n - 1 - j), at.push_back(mix(j) % n);
        }
        std::vector<float> xh(3 * 1024), yh(xh.size()); // n >= 2^20
        for (const unsigned long long start : {0ull, n / 2, n - 1024})
        {
          const std::size_t off = start == 0 ? 0 : start == n / 2 ? 1024 : 2048;
          PTXW_BENCH_CHECK(cudaMemcpy(xh.data() + off, xs + start, 1024 * sizeof(float), cudaMemcpyDeviceToHost));
          PTXW_BENCH_CHECK(cudaMemcpy(yh.data() + off, y.get() + start, 1024 * sizeof(float), cudaMemcpyDeviceToHost));
        }
        for (std::size_t q = 0; q < at.size(); ++q)
        {
          const unsigned long long e = at[q];
          float xv = 0, yv = 0;
          if (q % 4 == 3)
          {
            PTXW_BENCH_CHECK(cudaMemcpy(&xv, xs + e, sizeof(float), cudaMemcpyDeviceToHost));
            PTXW_BENCH_CHECK(cudaMemcpy(&yv, y.get() + e, sizeof(float), cudaMemcpyDeviceToHost));
          }
          else
          {
            const std::size_t j   = q / 4;
            const std::size_t off = q % 4 == 2 ? 2048 + 1023 - j : (q % 4) * 1024 + j;
            xv = xh[off], yv = yh[off];
          }
          const double want = table_cpu(coeff, Entries, xv);
          if (!(std::fabs(yv - want) <= 1e-3 * (1.0 + std::fabs(want))))
          {
            fail(name + " at " + std::to_string(n) + ": element " + std::to_string(e) + " is " + std::to_string(yv)
                 + ", the CPU's " + std::to_string(want));
            break;
          }
        }
      }
      const int calls = calls_for(first);
      enum
      {
        plain,
        ptxw,
        count
      };
      const char* ids[count] = {"plain", "ptxw"};
      std::vector<double> t[count];
      for (int rep = -1; rep < o_.reps; ++rep)
      {
        for (int c = 0; c < count; ++c)
        {
          PTXW_BENCH_CHECK(cudaMemset(y.get(), 0xff, n * sizeof(float))); // NaN: an element never written shows
          const int m     = rep < 0 ? 1 : calls;
          const double us = timed(m, [&](int call) {
            if (c == plain)
            {
              plain_call(op(call), idx);
            }
            else
            {
              ptxw_call<ptxw::device::for_each_state_selector>(op(call), idx);
            }
          });
          check_table(y.get(), ref.get(), n, m, idx, name, std::string(ids[c]) + (rep < 0 ? " (first)" : ""));
          if (rep >= 0)
          {
            t[c].push_back(us);
          }
        }
      }
      Stats s[count];
      for (int c = 0; c < count; ++c)
      {
        s[c] = stats_of(t[c]);
        csv_.row("table", name, k, ids[c], c == ptxw ? policy_label(ptxw::device::for_each_state_selector{}) : "",
                 calls, t[c].size(), s[c]);
      }
      auto cell = [](const Stats& x) {
        char b[40];
        std::snprintf(b, sizeof b, "%8.1f %8.1f %7.1f%%", x.min, x.median, 100.0 * (x.max - x.min) / x.min);
        return std::string(b);
      };
      const double p = s[plain].min / s[ptxw].min;
      std::printf("%-5s %5d | %s | %s | %8.3f\n", pow2(k).c_str(), calls, cell(s[plain]).c_str(), cell(s[ptxw]).c_str(),
                  p);
      std::fflush(stdout);
      rows_.push_back({name, k, p, p});
    }
  }

  void check_table(const float* y, const float* ref, unsigned long long n, int calls, unsigned long long idx,
                   const std::string& name, const std::string& what)
  {
    ++checks_;
    if (const unsigned long long bad = mismatches(y, ref, n); bad != 0)
    {
      fail(name + " at " + std::to_string(n) + ", " + what + ": " + std::to_string(bad)
           + " outputs differ from the reference (bit for bit; NaN where never written)");
    }
    check_tally(calls, idx, name + " at " + std::to_string(n) + ", " + what);
  }

  unsigned long long mismatches(const float* a, const float* b, unsigned long long n);

  // ---- the sweep ----

  template <class Run, class Reference>
  void sweep_cell(const std::string& workload, int log2n, int calls, Reference&& reference, Run&& run)
  {
    std::vector<double> ref;
    std::vector<std::vector<double>> t(sweep_names_.size());
    for (int rep = -1; rep < o_.reps; ++rep)
    {
      const double r = reference(rep < 0 ? 1 : calls);
      if (rep >= 0)
      {
        ref.push_back(r);
      }
      for_each_type(sweep_policies{}, [&](auto p, int j) {
        const double us = run(p, rep < 0 ? 1 : calls);
        if (rep >= 0)
        {
          t[j].push_back(us);
        }
      });
    }
    const std::string cell = workload + " " + pow2(log2n);
    const Stats sr         = stats_of(ref);
    csv_.row("sweep", workload, log2n, "reference", "", calls, ref.size(), sr);
    std::printf("%-26s reference %9.1f us |", cell.c_str(), sr.min);
    for (std::size_t j = 0; j < t.size(); ++j)
    {
      const Stats s = stats_of(t[j]);
      sweep_ratio_[j].push_back(sr.min / s.min);
      std::printf(" %6.3f", sr.min / s.min);
      csv_.row("sweep", workload, log2n, "ptxw", sweep_names_[j], calls, t[j].size(), s);
    }
    std::printf("\n");
    std::fflush(stdout);
    sweep_cells_.push_back(cell);
  }

  template <class Sample, int Bins, int Copies>
  void histogram_sweep(const std::string& name, const Sample* samples)
  {
    if (!selected(name))
    {
      return;
    }
    using hc = hist_case<Sample, Bins, Copies>;
    dbuf<unsigned> out;
    out.reserve(Bins);
    for (int k : sizes())
    {
      const hc h{name, samples, 1ull << k, out.get()};
      const auto cub_call = cub_caller(h);
      cub_call(); // warm
      const double first              = timed(1, [&](int) { cub_call(); });
      const std::vector<unsigned> ref = dbuf_download(out.get(), Bins);
      const int calls                 = calls_for(first);
      sweep_cell(
        name, k, calls,
        [&](int m) {
          const double us = timed(m, [&](int) { cub_call(); });
          check_histogram(h, ref, m, false, "CUB");
          return us;
        },
        [&](auto p, int m) {
          using selector  = decltype(p);
          const double us = timed(m, [&](int call) { ptxw_histogram<selector>(h, call); });
          check_histogram(h, ref, m, true, policy_label(p));
          return us;
        });
    }
  }

  template <int Entries, int Degree>
  void table_sweep(const std::string& name, const float* xs, dbuf<float>& y, dbuf<float>& ref)
  {
    if (!selected(name))
    {
      return;
    }
    using op_t                     = table_op<Entries, Degree>;
    const std::vector<float> coeff = table_coefficients(Degree);
    dbuf<float> dc;
    dc.reserve(coeff.size());
    PTXW_BENCH_CHECK(cudaMemcpy(dc.get(), coeff.data(), coeff.size() * sizeof(float), cudaMemcpyHostToDevice));
    for (int k : sizes())
    {
      const unsigned long long n = 1ull << k, idx = n / 4;
      auto op                    = [&](int call) {
        return op_t{reinterpret_cast<const float4*>(xs), reinterpret_cast<float4*>(y.get()), dc.get(), tally(call)};
      };
      plain_call(op(0), idx); // warm
      const double first = timed(1, [&](int call) { plain_call(op(call), idx); });
      check_tally(1, idx, name + " at " + std::to_string(n) + ", plain (reference)");
      PTXW_BENCH_CHECK(cudaMemcpy(ref.get(), y.get(), n * sizeof(float), cudaMemcpyDeviceToDevice));
      const int calls = calls_for(first);
      auto measure    = [&](int m, const std::string& what, auto&& call) {
        PTXW_BENCH_CHECK(cudaMemset(y.get(), 0xff, n * sizeof(float)));
        const double us = timed(m, call);
        check_table(y.get(), ref.get(), n, m, idx, name, what);
        return us;
      };
      sweep_cell(
        name, k, calls,
        [&](int m) {
          return measure(m, "plain", [&](int call) { plain_call(op(call), idx); });
        },
        [&](auto p, int m) {
          using selector = decltype(p);
          return measure(m, policy_label(p), [&](int call) { ptxw_call<selector>(op(call), idx); });
        });
    }
  }

  // ---- summaries ----

  void print_summary() const
  {
    if (rows_.empty())
    {
      return;
    }
    std::printf("\nreference / ptxw on the mins (reference: CUB for the histograms, the plain launch for the tables; "
                "above 1: ptxw faster)\n");
    std::printf("%-22s | %8s %8s %-6s %8s | %8s %8s\n", "workload", "geomean", "worst", "at", "best", "plain gm",
                "plain min");
    std::vector<std::string> names;
    for (const Row& r : rows_)
    {
      if (std::find(names.begin(), names.end(), r.workload) == names.end())
      {
        names.push_back(r.workload);
      }
    }
    double worst_all = 1e30;
    std::string worst_at;
    for (const std::string& w : names)
    {
      std::vector<double> v, p;
      double worst = 1e30, best = 0;
      int at       = 0;
      for (const Row& r : rows_)
      {
        if (r.workload == w)
        {
          v.push_back(r.ratio), p.push_back(r.plain);
          if (r.ratio < worst)
          {
            worst = r.ratio, at = r.log2n;
          }
          best = std::max(best, r.ratio);
        }
      }
      std::printf("%-22s | %8.3f %8.3f %-6s %8.3f | %8.3f %8.3f\n", w.c_str(), geomean(v), worst, pow2(at).c_str(),
                  best, geomean(p), *std::min_element(p.begin(), p.end()));
      if (worst < worst_all)
      {
        worst_all = worst, worst_at = w + " " + pow2(at);
      }
    }
    std::printf("\nissue 21's goal, never below 0.98x the reference: %s (worst %.3f, %s)\n",
                worst_all >= 0.98 ? "met" : "MISSED", worst_all, worst_at.c_str());
    std::printf("at least 1.2x where the set-up or flush is significant (hist-f32-4096-*: CUB privatises in global "
                "memory; table-4k-deg256: a set-up of 4097 x 256 FMAs per CTA): see their geomean and worst above\n");
  }

  void print_sweep_summary() const
  {
    if (sweep_cells_.empty())
    {
      return;
    }
    std::printf("\nsweep: reference / ptxw per policy (threads x rounds / shared, min_rounds) over %zu cells\n",
                sweep_cells_.size());
    for (std::size_t j = 0; j < sweep_names_.size(); ++j)
    {
      const std::vector<double>& v = sweep_ratio_[j];
      const std::size_t at         = std::min_element(v.begin(), v.end()) - v.begin();
      std::printf("%-12s geomean %6.3f  worst %6.3f (%s)%s\n", sweep_names_[j].c_str(), geomean(v), v[at],
                  sweep_cells_[at].c_str(),
                  sweep_names_[j] == policy_label(ptxw::device::for_each_state_selector{}) ? "  <- default" : "");
    }
  }
};

__global__ void mismatch_kernel(const unsigned* a, const unsigned* b, unsigned long long n, unsigned long long* count)
{
  unsigned long long bad = 0;
  for (unsigned long long i = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<unsigned long long>(gridDim.x) * blockDim.x)
  {
    bad += a[i] != b[i];
  }
  if (bad != 0)
  {
    atomicAdd(count, bad);
  }
}

unsigned long long Harness::mismatches(const float* a, const float* b, unsigned long long n)
{
  PTXW_BENCH_CHECK(cudaMemset(mismatches_.get(), 0, sizeof(unsigned long long)));
  mismatch_kernel<<<1024, 256>>>(reinterpret_cast<const unsigned*>(a), reinterpret_cast<const unsigned*>(b), n,
                                 mismatches_.get());
  PTXW_BENCH_CHECK(cudaGetLastError());
  return mismatches_.download(1)[0];
}

template <class T>
void generate(dbuf<T>& d, unsigned long long n, bool skewed)
{
  d.reserve(n);
  fill_samples<<<1024, 256>>>(d.get(), n, skewed);
  PTXW_BENCH_CHECK(cudaGetLastError());
  PTXW_BENCH_CHECK(cudaDeviceSynchronize());
}

void run(Harness& h, const Options& o)
{
  const unsigned long long n = 1ull << h.largest();
  if (h.largest() == 0)
  {
    return;
  }
  using u8_256   = hist_op<unsigned char, 256, 32>;
  using f32_256  = hist_op<float, 256, 32>;
  using f32_4096 = hist_op<float, 4096, 2>;
  static_assert(sizeof(u8_256::state) < 48 * 1024 && sizeof(f32_4096::state) < 48 * 1024);
  const char* u8_title   = "8-bit samples, 256 bins, %s; 32 an index; state 32 lane copies of the bins (33 KiB)";
  const char* f256_title = "float samples, 256 bins, %s; 8 an index; state 32 lane copies of the bins (33 KiB)";
  const char* f4k_title  = "float samples, 4096 bins, %s; 8 an index; state 2 copies of the bins (33 KiB)";
  auto title             = [](const char* f, const char* dist) {
    char b[160];
    std::snprintf(b, sizeof b, f, dist);
    return std::string(b);
  };
  {
    dbuf<unsigned char> bytes;
    for (bool skewed : {false, true})
    {
      const char* dist = skewed ? "skewed (90% in bin 17)" : "uniform";
      const std::string name = std::string("hist-u8-256-") + (skewed ? "skewed" : "uniform");
      if (!h.selected(name) || (o.sweep && skewed))
      {
        continue;
      }
      generate(bytes, n, skewed);
      if (o.sweep)
      {
        h.histogram_sweep<unsigned char, 256, 32>(name, bytes.get());
      }
      else
      {
        h.histogram_table<unsigned char, 256, 32>(name, title(u8_title, dist), bytes.get());
      }
    }
  }
  dbuf<float> floats, y, ref;
  for (bool skewed : {false, true})
  {
    const char* dist             = skewed ? "skewed (90% in bin 280 of 4096, 17 of 256)" : "uniform";
    const std::string d          = skewed ? "skewed" : "uniform";
    const bool want_tables       = !skewed && (h.selected("table-1k-deg8") || h.selected("table-4k-deg64")
                                         || h.selected("table-4k-deg256"));
    if (!h.selected("hist-f32-256-" + d) && !h.selected("hist-f32-4096-" + d) && !want_tables)
    {
      continue;
    }
    generate(floats, n, skewed);
    if (o.sweep)
    {
      if (skewed)
      {
        h.histogram_sweep<float, 4096, 2>("hist-f32-4096-skewed", floats.get());
      }
      else if (h.selected("table-4k-deg64"))
      {
        y.reserve(n), ref.reserve(n);
        h.table_sweep<4096, 64>("table-4k-deg64", floats.get(), y, ref);
      }
      continue;
    }
    h.histogram_table<float, 256, 32>("hist-f32-256-" + d, title(f256_title, dist), floats.get());
    h.histogram_table<float, 4096, 2>("hist-f32-4096-" + d, title(f4k_title, dist), floats.get());
    if (want_tables)
    {
      y.reserve(n), ref.reserve(n);
      h.table_table<1024, 8>("table-1k-deg8", "y = f(x), f in a 1024-entry table each CTA builds from a "
                                              "polynomial of degree 8 (a cheap set-up); 4 floats an index",
                             floats.get(), y, ref);
      h.table_table<4096, 64>("table-4k-deg64", "y = f(x), f in a 4096-entry table each CTA builds from a "
                                                "polynomial of degree 64 (a moderate set-up); 4 floats an index",
                              floats.get(), y, ref);
      h.table_table<4096, 256>("table-4k-deg256", "y = f(x), f in a 4096-entry table each CTA builds from a "
                                                  "polynomial of degree 256 (a costly set-up); 4 floats an index",
                               floats.get(), y, ref);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The self-test: the host side, on the CPU.

int self_test()
{
  int failures = 0;
  auto expect  = [&](bool ok, const std::string& what) {
    if (!ok)
    {
      ++failures;
      std::printf("FAILED: %s\n", what.c_str());
    }
  };
  // The float samples: in [0, 1), in the bin they were drawn for, at least 0.19 bin widths from its
  // edges (0.2 before rounding to float), for 4096 bins and for 256 (so CUB's and the op's arithmetic agree); 90% of skewed ones hot.
  for (bool skewed : {false, true})
  {
    unsigned long long hot = 0;
    const unsigned long long m = 1000000;
    std::vector<unsigned> per_byte(256, 0);
    for (unsigned long long i = 0; i < m; ++i)
    {
      const float x    = float_sample(i, skewed);
      const unsigned b = float_bin_4096(i, skewed);
      const double pos = static_cast<double>(x) * 4096.0 - b;
      if (!(x >= 0.0f && x < 1.0f && pos >= 0.19 && pos <= 0.81))
      {
        expect(false, "float sample " + std::to_string(i) + " at " + std::to_string(pos) + " of bin " + std::to_string(b));
        break;
      }
      expect(static_cast<unsigned>(x * 4096.0f) == b && static_cast<unsigned>(x * 256.0f) == b / 16,
             "float sample " + std::to_string(i) + ": the op's bins");
      hot += b == hot_4096;
      ++per_byte[byte_sample(i, skewed)];
    }
    const double frac = static_cast<double>(hot) / m;
    expect(skewed ? frac > 0.89 && frac < 0.91 : frac < 0.001, "fraction of hot float samples " + std::to_string(frac));
    const double byte_frac = static_cast<double>(per_byte[hot_byte]) / m;
    expect(skewed ? byte_frac > 0.89 && byte_frac < 0.91 : byte_frac < 0.006,
           "fraction of hot bytes " + std::to_string(byte_frac));
    if (!skewed)
    {
      expect(*std::min_element(per_byte.begin(), per_byte.end()) > 3000, "uniform bytes reach every bin");
    }
  }
  // The plain launch's tiles: every index in exactly one (block, round, thread).
  for (unsigned long long n : {1ull, 4095ull, 4096ull, 4097ull, 100000ull})
  {
    std::vector<unsigned char> seen(n, 0);
    for (unsigned long long b = 0; b < plain_blocks(n); ++b)
    {
      for (int r = 0; r < plain_rounds; ++r)
      {
        for (int t = 0; t < plain_threads; ++t)
        {
          const unsigned long long i = b * plain_threads * plain_rounds + static_cast<unsigned long long>(r) * plain_threads + t;
          if (i < n)
          {
            ++seen[i];
          }
        }
      }
    }
    expect(std::count(seen.begin(), seen.end(), 1) == static_cast<long>(n), "plain tiles at n " + std::to_string(n));
  }
  // The CPU table: the polynomial's ends.
  const std::vector<float> c = table_coefficients(64);
  double at1 = 0;
  for (float v : c)
  {
    at1 += v;
  }
  expect(std::fabs(table_cpu(c, 4096, 1.0f) - at1) < 1e-9 && std::fabs(table_cpu(c, 4096, 0.0f) - c[0]) < 1e-12,
         "the CPU table at 0 and 1");
  // The op's knots (Horner in float, fmaf as on the device) against the CPU's in double, for the
  // three tables: far within the device check's tolerance (1e-3, relative to 1 + |f|).
  for (const auto [entries, degree] : {std::pair{1024, 8}, std::pair{4096, 64}, std::pair{4096, 256}})
  {
    const std::vector<float> cd = table_coefficients(degree);
    double worst                = 0;
    for (int k = 0; k <= entries; ++k)
    {
      const float u = static_cast<float>(k) / static_cast<float>(entries);
      float r       = cd[degree];
      for (int d = degree - 1; d >= 0; --d)
      {
        r = std::fmaf(r, u, cd[d]);
      }
      worst = std::max(worst, std::fabs(r - table_cpu(cd, entries, u)));
    }
    expect(worst < 1e-5, "float knots of degree " + std::to_string(degree) + " off by " + std::to_string(worst));
  }
  // The default's plan on an H100 (6 CTAs of 256 threads and 33 KiB an SM: 792): 2^28 bytes at 32
  // an index in whole waves, 2^20 on fewer CTAs of at least 4 rows.
  constexpr ptxw::device::for_each_state_policy p = ptxw::device::for_each_state_selector{}({90});
  const auto big                                  = ptxw::device::detail::plan_with_state(p, 1ull << 23, 792);
  expect(big.tiles % 792 == 0 && big.rounds <= p.rounds, "the default's plan at 2^23 indices");
  const auto small = ptxw::device::detail::plan_with_state(p, 1ull << 15, 792);
  expect(small.tiles == 32 && small.rounds == 4, "the default's plan at 2^15 indices: " + std::to_string(small.tiles)
                                                   + " tiles of " + std::to_string(small.rounds));
  std::printf("self-test: %s\n", failures ? "FAILED" : "passed");
  return failures ? 1 : 0;
}

void usage()
{
  std::fprintf(stderr, "usage: ptxw_bench_device_state [--reps N] [--quick] [--only NAME[,NAME...]] [--max-log2n K] "
                       "[--sweep] [--out FILE.csv] [--self-test]\n");
}

} // namespace

int main(int argc, char** argv)
{
  Options o;
  for (int i = 1; i < argc; ++i)
  {
    const std::string a = argv[i];
    if (a == "--quick")
    {
      o.quick = true;
    }
    else if (a == "--sweep")
    {
      o.sweep = true;
    }
    else if (a == "--self-test")
    {
      o.self_test = true;
    }
    else if ((a == "--only" || a == "--out") && i + 1 < argc)
    {
      const std::string v = argv[++i];
      if (a == "--out")
      {
        o.out = v;
      }
      else
      {
        for (std::size_t p = 0; p <= v.size();)
        {
          const std::size_t q = std::min(v.find(',', p), v.size());
          if (q > p)
          {
            o.only.push_back(v.substr(p, q - p));
          }
          p = q + 1;
        }
      }
    }
    else if (ptxw_bench::int_option(argc, argv, i, "--reps", 1, 100, o.reps))
    {
      o.reps_given = true;
    }
    else if (!ptxw_bench::int_option(argc, argv, i, "--max-log2n", 20, 28, o.max_log2n))
    {
      usage();
      return 2;
    }
  }
  if (!o.reps_given)
  {
    o.reps = o.quick || o.sweep ? 3 : 11;
  }
  if (o.self_test)
  {
    return self_test();
  }
  ptxw_bench::require_device();
  const auto t0 = std::chrono::steady_clock::now();
  cudaDeviceProp prop{};
  PTXW_BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, %d SMs; CCCL %d.%d.%d; %s, %lld rounds%s; ptxw default %s, plain %dx%d\n", prop.name,
              prop.multiProcessorCount, CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION, CCCL_PATCH_VERSION,
              o.sweep ? "policy sweep" : "tables", o.reps, o.quick ? ", quick" : "",
              policy_label(ptxw::device::for_each_state_selector{}).c_str(), plain_threads, plain_rounds);
  Harness h(o);
  if (o.sweep)
  {
    std::printf("\nsweep: reference / ptxw per policy, in this order:");
    for_each_type(sweep_policies{}, [&](auto p, int) { std::printf(" %s", policy_label(p).c_str()); });
    std::printf("\n");
  }
  run(h, o);
  if (o.sweep)
  {
    h.print_sweep_summary();
  }
  else
  {
    h.print_summary();
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("\n%llu timed measurements checked (exactly once per call; histograms equal to CUB's, tables bit for "
              "bit): %s. %.0f s in all.\n",
              h.checks(), h.failures() ? "FAILURES above" : "all passed", s);
  return h.failures() ? 1 : 0;
}
