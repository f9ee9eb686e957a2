// ptxw::device::for_each_canceled on real work, against cub::DeviceFor::Bulk,
// cub::DeviceFor::ForEachN and thrust::for_each, same run, interleaved, every output compared with
// CUB's element by element.
//
//   ptxw_bench_device_real_work [--reps N] [--max-log2n K] [--only NAME[,NAME...]] [--quick] [--sweep]
//                               [--out FILE.csv] [--self-test] [--estimate]
//
// Workloads (benchmarks/real_work/*.cuh; each functor is the same code for every contender):
//   mandel-full, mandel-seahorse, mandel-exterior, julia   escape-time fractals, double, one pixel an index
//   spmv-zipf1.5, spmv-zipf2.5                              CSR rows with power-law lengths, one row an index
//   saxpy                                                   a memory-bound map (the aim is parity)
//   raymarch                                                sphere tracing of a signed-distance scene, float
//   neighbours                                              neighbour counts over clustered particles
// at n = 2^16 .. 2^26 indices (spmv-zipf1.5 up to 2^22: 10^9 nonzeros).
//
// Default run: for each workload and n, a CUB Bulk call makes the reference output; then, for each of
// --reps rounds, one call of each contender in turn (ptxw's default, CUB Bulk, CUB ForEachN,
// thrust: A B C D A B C D ...), each timed alone with cudaEvents from an idle GPU (so the host's
// launch work shows), and where CUB's call takes under 1 ms also 4 calls back to back (per call:
// the host's work overlaps the GPU's). Each contender is called once untimed first. Best (min),
// median and worst of the rounds are kept; the tables show min and median and CUB/ptxw on the
// mins (above 1: ptxw faster). The bound column is, where one exists, the bytes a call must move
// over the copy bandwidth measured at the start (cudaMemcpy device to device).
//
// Exactly once, on every timed call: the output is zeroed (saxpy: restored) before each call and
// every functor adds a value that is never 0 to its output (real_work/common.cuh), so a skipped
// index keeps its old value and a repeated one changes it; after each call the whole output is
// compared bit for bit with CUB's (after 1 or 4 calls). For every n the program first checks that
// this comparison would see a skipped index (a zeroed output differs from the reference
// everywhere) and a repeated one (4 calls differ from 1 everywhere). Any difference: exit status 1.
//
// --sweep: instead of the tables, ptxw with 69 policies: stolen tiles (128, 256, 512 threads x 4, 8,
// 16 rounds, half shared, x at least 1, 4, 8 waves, each with the registers ptxas chooses and with
// those of full occupancy; labelled 128x8/4w1f: threads x rounds / shared, waves, f: full) and plain
// launches (128, 256, 512 threads x tiles of 1, 2 or 4 rounds, 0, 1 or half of them shared; labelled
// 256x2/1 plain) on every workload
// at 2^16, 2^20, 2^22, 2^24, 2^25 and 2^26, each round CUB Bulk then the policies in turn with CUB
// again after every 6; back to back where CUB's call takes under 1 ms. Per policy: the geometric
// mean of CUB/ptxw over every workload and n, the worst, and per workload; then rankings. --reps
// defaults to 3 there.
// --reps N: rounds (default 7; 3 with --sweep). --max-log2n K: n up to 2^K. --only NAME: the workloads
// whose names start with NAME (e.g. mandel, spmv, saxpy), comma-separated.
// --quick: n = 2^16, 2^20, 2^24 and 3 rounds (with --sweep: 2^22 and 2^24, 2 rounds).
// --out FILE: every timing as CSV (mode,workload,log2n,n,contender,policy,calls,reps,min_us,
// median_us,max_us,bound_us), for benchmarks/plot.py device_real_work.
// --self-test: checks the workloads' host-side logic on the CPU (no GPU needed).
// --estimate: the run time of the default, quick and sweep runs on an H100 from the workloads'
// sizes (work per index sampled on the CPU) and the rates stated there (no GPU needed).
#include <ptxw/algorithms.h>

#include <cub/device/device_for.cuh>
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <numeric>
#include <string>
#include <vector>

#include "check.h"
#include "real_work/fractals.cuh"
#include "real_work/particles.cuh"
#include "real_work/raymarch.cuh"
#include "real_work/saxpy.cuh"
#include "real_work/spmv.cuh"
#include "tables.h"

namespace {

using namespace ptxw_bench;
using namespace real_work;

// ---------------------------------------------------------------------------------------------
// Policies of the sweep: fixed selectors (every architecture the same policy).

// Stolen tiles of up to Rounds rounds, half of them shared, at least Waves waves; Occupancy as above.
template <int Threads, int Rounds, int Waves, int Occupancy>
struct tiles
{
  constexpr ptxw::device::for_each_policy operator()(ptxw::device::compute_capability) const
  {
    return {Threads, Rounds, 1, ptxw::clc::backend_id::automatic, Rounds / 2, Waves, Occupancy};
  }
};
// A plain launch (no stealing) of tiles of Rounds rounds, Shared of them shared.
template <int Threads, int Rounds, int Shared>
struct plain
{
  constexpr ptxw::device::for_each_policy operator()(ptxw::device::compute_capability) const
  {
    return {Threads, Rounds, 1, ptxw::clc::backend_id::automatic, Shared, 1, 0, false};
  }
};

// Stolen tiles of 4, 8 or 16 rounds (half shared), in at least 1, 4 or 8 waves, with the registers
// ptxas chooses and with those of full occupancy (2048 threads an SM); plain launches of tiles of 1,
// 2 or 4 rounds with none, one or half of them shared.
#define RW_TILES(T, O)                                                                                                 \
  tiles<T, 4, 1, O>, tiles<T, 4, 4, O>, tiles<T, 4, 8, O>, tiles<T, 8, 1, O>, tiles<T, 8, 4, O>, tiles<T, 8, 8, O>,   \
    tiles<T, 16, 1, O>, tiles<T, 16, 4, O>, tiles<T, 16, 8, O>
#define RW_PLAIN(T) plain<T, 1, 0>, plain<T, 2, 0>, plain<T, 2, 1>, plain<T, 4, 1>, plain<T, 4, 2>
using sweep_policies = policy_list<RW_TILES(128, 0), RW_TILES(128, 16), RW_TILES(256, 0), RW_TILES(256, 8),
                                   RW_TILES(512, 0), RW_TILES(512, 4), RW_PLAIN(128), RW_PLAIN(256), RW_PLAIN(512)>;
#undef RW_TILES
#undef RW_PLAIN
constexpr int sweep_policy_count = 69;

constexpr ptxw::device::compute_capability sm90{90};

template <class Selector>
std::string policy_label(Selector s)
{
  const ptxw::device::for_each_policy p = s(sm90);
  char b[32];
  if (!p.steal)
  {
    std::snprintf(b, sizeof b, "%dx%d/%d plain", p.block_threads, p.rounds, p.shared_rounds);
    return b;
  }
  std::snprintf(b, sizeof b, "%dx%d/%dw%d%s", p.block_threads, p.rounds, p.shared_rounds, p.waves,
                p.occupancy != 0 ? "f" : "");
  return b;
}

// ---------------------------------------------------------------------------------------------
// The contenders.

enum contender
{
  c_ptxw,
  c_bulk,
  c_foreachn,
  c_thrust,
  contender_count
};
constexpr const char* contender_id[]    = {"ptxw", "cub_bulk", "cub_foreachn", "thrust"};
constexpr const char* contender_title[] = {"ptxw default", "CUB Bulk", "CUB ForEachN", "thrust"};

class Runner
{
  device_array<unsigned char> temp_;

public:
  Runner()
  {
    temp_.reserve(1 << 20); // far more than for_each_canceled asks at these n: never grows in a timed call
  }
  // Both phases; the size query is host arithmetic.
  template <class Selector, class Op>
  void ptxw_call(const Op& op, int n)
  {
    two_phase(temp_, [&](void* temp, std::size_t& bytes) {
      return ptxw::device::for_each_canceled<Selector>(temp, bytes, n, op);
    });
  }
  template <class Op>
  void call(contender c, const Op& op, int n)
  {
    switch (c)
    {
      case c_ptxw:
        ptxw_call<ptxw::device::for_each_selector>(op, n);
        break;
      case c_bulk:
        PTXW_BENCH_CHECK(cub::DeviceFor::Bulk(n, op));
        break;
      case c_foreachn:
        PTXW_BENCH_CHECK(cub::DeviceFor::ForEachN(thrust::counting_iterator<int>(0), n, op));
        break;
      default:
        thrust::for_each(thrust::device, thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(n), op);
        PTXW_BENCH_CHECK(cudaGetLastError());
        break;
    }
  }
};

// ---------------------------------------------------------------------------------------------
// Options, records, statistics.

struct Options : ptxw_bench::table_options
{
  bool estimate = false;
};

// n of the tables and of the sweep, as log2 (each workload stops at its own largest), and the rounds.
std::vector<int> table_sizes(bool quick)
{
  return quick ? std::vector<int>{16, 20, 24} : std::vector<int>{16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26};
}
std::vector<int> sweep_sizes(bool quick)
{
  return quick ? std::vector<int>{22, 24} : std::vector<int>{16, 20, 22, 24, 25, 26};
}
long long default_reps(bool sweep, bool quick)
{
  return sweep ? (quick ? 2 : 3) : (quick ? 3 : 7);
}

constexpr int back_to_back_calls   = 4;
constexpr double back_to_back_below = 1000.0; // us: CUB's one call shorter than this is also timed back to back

// The CSV file's own column: the bound, where one exists.
constexpr const char* csv_bound_column = ",bound_us";
std::string csv_bound(double bound_us)
{
  char b[32] = ",";
  if (bound_us > 0)
  {
    std::snprintf(b, sizeof b, ",%.3f", bound_us);
  }
  return b;
}

// ---------------------------------------------------------------------------------------------
// The harness.

class Harness : public ptxw_bench::table_harness<Options>
{
  Runner run_;
  device_array<unsigned char> ref1_, ref_b2b_;
  double copy_bytes_per_us_ = 0;
  // main tables: CUB Bulk / ptxw per workload, one call and back to back
  struct Ratios
  {
    std::string workload;
    std::vector<std::pair<int, double>> one, b2b;
  };
  std::vector<Ratios> ratios_;
  // sweep: per policy, per cell (workload, n), CUB Bulk / policy
  std::vector<std::string> policy_names_;
  std::vector<std::pair<std::string, int>> cells_;
  std::vector<std::vector<double>> sweep_ratio_; // [policy][cell]
  std::string default_label_;

public:
  explicit Harness(const Options& o)
      : table_harness(o, csv_bound_column)
  {
    for_each_type(sweep_policies{}, [&](auto p, int) {
      policy_names_.push_back(policy_label(p));
    });
    sweep_ratio_.resize(policy_names_.size());
    default_label_ = policy_label(ptxw::device::for_each_selector{});
  }
  void measure_copy_bandwidth()
  {
    const std::size_t bytes = 256u << 20;
    device_array<unsigned char> a, b;
    a.reserve(bytes), b.reserve(bytes);
    PTXW_BENCH_CHECK(cudaMemset(a.get(), 1, bytes));
    double best = 1e30;
    for (int r = 0; r < 6; ++r)
    {
      const double us = timer_.us([&] {
        PTXW_BENCH_CHECK(cudaMemcpy(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice));
      });
      best = r > 0 ? std::min(best, us) : best; // the first one warms up
    }
    copy_bytes_per_us_ = 2.0 * bytes / best;
    std::printf("copy bandwidth (cudaMemcpy device to device, 256 MiB, read + write): %.0f GB/s\n",
                copy_bytes_per_us_ / 1e3);
  }

  // `calls` calls of `call` from a reset output, back to back, timed together; then the output
  // compared with `ref`. Microseconds per call.
  template <class W, class Call>
  double timed(W& w, unsigned long long n, Call&& call, int calls, const void* ref, const std::string& what)
  {
    w.reset();
    PTXW_BENCH_CHECK(cudaDeviceSynchronize());
    const double us = timer_.us([&] {
      for (int c = 0; c < calls; ++c)
      {
        call();
      }
    });
    ++checks_;
    if (const unsigned long long bad = mismatches(w.out(), ref, n); bad != 0)
    {
      fail(w.name() + " at " + std::to_string(n) + ", " + what + " x " + std::to_string(calls) + ": "
           + std::to_string(bad) + " outputs differ from CUB's");
    }
    return us / calls;
  }

  // CUB Bulk's output after `calls` calls from a reset output, into ref.
  template <class W>
  void reference(W& w, int n, int calls, device_array<unsigned char>& ref)
  {
    using out_t = typename W::out_type;
    ref.reserve(static_cast<std::size_t>(n) * sizeof(out_t));
    w.reset();
    for (int c = 0; c < calls; ++c)
    {
      run_.call(c_bulk, w.op(), n);
    }
    PTXW_BENCH_CHECK(cudaMemcpy(ref.get(), w.out(), static_cast<std::size_t>(n) * sizeof(out_t),
                                cudaMemcpyDeviceToDevice));
  }

  // The references for n, and the proof that the comparison sees a skipped and a repeated index:
  // a reset output differs from one call's everywhere, and 4 calls' from one call's. Returns
  // whether CUB's call is short enough to time back to back too (and then ref_b2b_ holds 4 calls').
  template <class W>
  bool prepare_references(W& w, int n, bool want_b2b)
  {
    using out_t = typename W::out_type;
    reference(w, n, 1, ref1_);
    w.reset();
    if (const unsigned long long same = n - mismatches(w.out(), ref1_.get(), n); same != 0)
    {
      fail(w.name() + " at " + std::to_string(n) + ": " + std::to_string(same)
           + " outputs of one call equal the reset output: a skipped index would not show");
    }
    const double cub_us = timed(w, n, [&] { run_.call(c_bulk, w.op(), n); }, 1, ref1_.get(), "CUB Bulk (first)");
    if (!want_b2b || cub_us >= back_to_back_below)
    {
      return false;
    }
    reference(w, n, back_to_back_calls, ref_b2b_);
    if (const unsigned long long same = n - mismatches(reinterpret_cast<const out_t*>(ref_b2b_.get()), ref1_.get(), n);
        same != 0)
    {
      fail(w.name() + " at " + std::to_string(n) + ": " + std::to_string(same)
           + " outputs of 4 calls equal those of one: a repeated index would not show");
    }
    return true;
  }

  // The table of one workload: every contender at every n.
  template <class W>
  void main_table(W& w)
  {
    if (!selected(w.name()))
    {
      return;
    }
    const std::vector<int> ks = sizes(table_sizes(o_.quick), w.max_log2n());
    std::printf("\n== %s: %s\n", w.name().c_str(), w.title().c_str());
    std::printf("%-5s %9s | %-79s | %-20s | %s\n", "", "", "one call, us: min and median of the rounds",
                "CUB/ptxw on the mins", "back to back, us a call");
    std::printf("%-5s %9s | %9s %9s %9s %9s %9s %9s %9s %9s | %6s %6s %6s | %9s %9s %6s\n", "n", "bound us",
                "ptxw min", "med", "Bulk min", "med", "FEN min", "med", "thr min", "med", "Bulk", "FEN", "thrust",
                "ptxw", "Bulk", "B/p");
    Ratios r{w.name(), {}, {}};
    std::vector<std::string> notes;
    for (int k : ks)
    {
      const int n = 1 << k;
      w.prepare(k);
      const auto op     = w.op();
      const bool b2b    = prepare_references(w, n, true);
      const size_info s = w.info();
      const double bound_us = s.bytes > 0 ? s.bytes / copy_bytes_per_us_ : 0;
      for (int c = 0; c < contender_count; ++c) // each once untimed (CUB Bulk already ran)
      {
        if (c != c_bulk)
        {
          timed(w, n, [&] { run_.call(static_cast<contender>(c), op, n); }, 1, ref1_.get(),
                std::string(contender_title[c]) + " (first)");
        }
      }
      std::vector<double> one[contender_count], bb[contender_count];
      for (long long rep = 0; rep < o_.reps; ++rep)
      {
        for (int c = 0; c < contender_count; ++c)
        {
          one[c].push_back(timed(w, n, [&] { run_.call(static_cast<contender>(c), op, n); }, 1, ref1_.get(),
                                 contender_title[c]));
        }
        for (int c = 0; b2b && c < contender_count; ++c)
        {
          bb[c].push_back(timed(
            w, n,
            [&] {
              run_.call(static_cast<contender>(c), op, n);
            },
            back_to_back_calls, ref_b2b_.get(), std::string(contender_title[c]) + " back to back"));
        }
      }
      round_stats so[contender_count], sb[contender_count];
      for (int c = 0; c < contender_count; ++c)
      {
        so[c] = stats_of(one[c]);
        csv_.row("one", w.name(), k, contender_id[c], c == c_ptxw ? "default" : "", 1, one[c].size(), so[c],
                 csv_bound(bound_us));
        if (b2b)
        {
          sb[c] = stats_of(bb[c]);
          csv_.row("b2b", w.name(), k, contender_id[c], c == c_ptxw ? "default" : "", back_to_back_calls, bb[c].size(),
                   sb[c], csv_bound(bound_us));
        }
      }
      char bound[16] = "-";
      if (bound_us > 0)
      {
        std::snprintf(bound, sizeof bound, "%.1f", bound_us);
      }
      std::printf("%-5s %9s | %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f | %6.3f %6.3f %6.3f |", pow2(k).c_str(),
                  bound, so[c_ptxw].min, so[c_ptxw].median, so[c_bulk].min, so[c_bulk].median, so[c_foreachn].min,
                  so[c_foreachn].median, so[c_thrust].min, so[c_thrust].median, so[c_bulk].min / so[c_ptxw].min,
                  so[c_foreachn].min / so[c_ptxw].min, so[c_thrust].min / so[c_ptxw].min);
      r.one.emplace_back(k, so[c_bulk].min / so[c_ptxw].min);
      if (b2b)
      {
        std::printf(" %9.1f %9.1f %6.3f\n", sb[c_ptxw].min, sb[c_bulk].min, sb[c_bulk].min / sb[c_ptxw].min);
        r.b2b.emplace_back(k, sb[c_bulk].min / sb[c_ptxw].min);
      }
      else
      {
        std::printf(" %9s %9s %6s\n", "-", "-", "-");
      }
      std::fflush(stdout);
      notes.push_back(pow2(k) + ": " + w.stats(reinterpret_cast<const typename W::out_type*>(ref1_.get())));
    }
    w.release();
    for (const std::string& note : notes)
    {
      std::printf("  %s\n", note.c_str());
    }
    ratios_.push_back(r);
  }

  // The policy sweep on one workload.
  template <class W>
  void sweep(W& w)
  {
    if (!selected(w.name()))
    {
      return;
    }
    for (int k : sizes(sweep_sizes(o_.quick), w.max_log2n()))
    {
      const int n = 1 << k;
      w.prepare(k);
      const auto op     = w.op();
      const bool b2b    = prepare_references(w, n, true);
      const int calls   = b2b ? back_to_back_calls : 1;
      const void* ref   = b2b ? ref_b2b_.get() : ref1_.get();
      std::vector<std::vector<double>> t(sweep_policy_count);
      std::vector<double> cub;
      auto cub_run = [&] {
        cub.push_back(timed(w, n, [&] { run_.call(c_bulk, op, n); }, calls, ref, "CUB Bulk"));
      };
      for_each_type(sweep_policies{}, [&](auto p, int j) { // each once untimed
        using selector = decltype(p);
        timed(w, n, [&] { run_.ptxw_call<selector>(op, n); }, calls, ref, policy_names_[j] + " (first)");
      });
      for (long long rep = 0; rep < o_.reps; ++rep)
      {
        cub_run();
        for_each_type(sweep_policies{}, [&](auto p, int j) {
          using selector = decltype(p);
          if (j > 0 && j % 6 == 0)
          {
            cub_run();
          }
          t[j].push_back(timed(w, n, [&] { run_.ptxw_call<selector>(op, n); }, calls, ref, policy_names_[j]));
        });
      }
      const round_stats sc = stats_of(cub);
      csv_.row("sweep", w.name(), k, "cub_bulk", "", calls, cub.size(), sc, csv_bound(0));
      int best = 0, worst = 0, def = -1;
      std::vector<double> ratio(sweep_policy_count);
      for (int j = 0; j < sweep_policy_count; ++j)
      {
        const round_stats s = stats_of(t[j]);
        csv_.row("sweep", w.name(), k, "ptxw", policy_names_[j], calls, t[j].size(), s, csv_bound(0));
        ratio[j] = sc.min / s.min;
        sweep_ratio_[j].push_back(ratio[j]);
        best  = ratio[j] > ratio[best] ? j : best;
        worst = ratio[j] < ratio[worst] ? j : worst;
        def   = policy_names_[j] == default_label_ ? j : def;
      }
      cells_.emplace_back(w.name(), k);
      std::printf("%-16s %-5s %s CUB Bulk %9.1f us | best %-15s %6.3f | worst %-15s %6.3f | default %6.3f\n",
                  w.name().c_str(), pow2(k).c_str(), b2b ? "b2b" : "one", sc.min, policy_names_[best].c_str(),
                  ratio[best], policy_names_[worst].c_str(), ratio[worst], def >= 0 ? ratio[def] : 0.0);
      std::fflush(stdout);
    }
    w.release();
  }

  void print_main_summary() const
  {
    std::printf("\nCUB Bulk / ptxw default (min over rounds; above 1: ptxw faster)\n");
    std::printf("%-16s | %9s %9s %-6s | %9s %9s\n", "workload", "geomean", "worst", "at", "b2b gm", "b2b worst");
    std::vector<double> all, all_b2b;
    for (const Ratios& r : ratios_)
    {
      std::vector<double> v, vb;
      std::pair<int, double> worst{0, 1e30};
      for (const auto& [k, x] : r.one)
      {
        v.push_back(x), all.push_back(x);
        worst = x < worst.second ? std::make_pair(k, x) : worst;
      }
      double worst_b2b = 1e30;
      for (const auto& [k, x] : r.b2b)
      {
        vb.push_back(x), all_b2b.push_back(x);
        worst_b2b = std::min(worst_b2b, x);
      }
      if (v.empty())
      {
        continue;
      }
      std::printf("%-16s | %9.3f %9.3f %-6s |", r.workload.c_str(), geomean(v), worst.second,
                  pow2(worst.first).c_str());
      if (vb.empty())
      {
        std::printf(" %9s %9s\n", "-", "-");
      }
      else
      {
        std::printf(" %9.3f %9.3f\n", geomean(vb), worst_b2b);
      }
    }
    if (!all.empty())
    {
      std::printf("%-16s | %9.3f %9.3f %-6s |", "all", geomean(all), *std::min_element(all.begin(), all.end()), "");
      if (all_b2b.empty())
      {
        std::printf("\n");
      }
      else
      {
        std::printf(" %9.3f %9.3f\n", geomean(all_b2b), *std::min_element(all_b2b.begin(), all_b2b.end()));
      }
    }
  }

  void print_sweep_summary() const
  {
    if (cells_.empty())
    {
      return;
    }
    std::vector<std::string> workloads;
    for (const auto& c : cells_)
    {
      if (std::find(workloads.begin(), workloads.end(), c.first) == workloads.end())
      {
        workloads.push_back(c.first);
      }
    }
    std::printf("\nCUB Bulk / ptxw per policy (threads x rounds / shared rounds), over %zu cells (workload x n); "
                "above 1: ptxw faster\n",
                cells_.size());
    std::printf("%-15s %8s %8s %-22s |", "policy", "geomean", "worst", "worst at");
    for (const std::string& wl : workloads)
    {
      std::printf(" %8.8s", wl.c_str());
    }
    std::printf("\n");
    struct Row
    {
      int j;
      double gm, worst;
    };
    std::vector<Row> rows;
    for (std::size_t j = 0; j < policy_names_.size(); ++j)
    {
      const std::vector<double>& v = sweep_ratio_[j];
      const std::size_t at         = std::min_element(v.begin(), v.end()) - v.begin();
      rows.push_back({static_cast<int>(j), geomean(v), v[at]});
      std::printf("%-15s %8.3f %8.3f %-22s |", policy_names_[j].c_str(), geomean(v), v[at],
                  (cells_[at].first + " " + pow2(cells_[at].second)).c_str());
      for (const std::string& wl : workloads)
      {
        std::vector<double> per;
        for (std::size_t c = 0; c < cells_.size(); ++c)
        {
          if (cells_[c].first == wl)
          {
            per.push_back(v[c]);
          }
        }
        std::printf(" %8.3f", geomean(per));
      }
      std::printf("%s\n", policy_names_[j] == default_label_ ? "  <- default" : "");
    }
    auto show = [&](const char* what, std::vector<Row> r, auto better) {
      std::sort(r.begin(), r.end(), better);
      std::printf("%s:", what);
      for (std::size_t i = 0; i < std::min<std::size_t>(5, r.size()); ++i)
      {
        std::printf("  %s (gm %.3f, worst %.3f)", policy_names_[r[i].j].c_str(), r[i].gm, r[i].worst);
      }
      std::printf("\n");
    };
    std::printf("\n");
    show("best geomean", rows, [](const Row& a, const Row& b) { return a.gm > b.gm; });
    show("best worst case", rows, [](const Row& a, const Row& b) { return a.worst > b.worst; });
    std::vector<Row> goal;
    std::copy_if(rows.begin(), rows.end(), std::back_inserter(goal), [](const Row& r) {
      return r.worst >= 0.98 && r.gm >= 1.0;
    });
    if (goal.empty())
    {
      std::printf("the goal (worst >= 0.98, geomean >= 1.0): met by no policy\n");
    }
    else
    {
      show("the goal (worst >= 0.98, geomean >= 1.0) met, best geomean first", goal,
           [](const Row& a, const Row& b) { return a.gm > b.gm; });
    }
  }

};

// ---------------------------------------------------------------------------------------------
// The workloads, in the tables' order.

template <class F>
void for_each_workload(F&& f)
{
  for (const fractal_view& v : fractal_views)
  {
    fractal_workload w(v);
    f(w);
  }
  {
    spmv_workload w(1.5);
    f(w);
  }
  {
    spmv_workload w(2.5);
    f(w);
  }
  {
    saxpy_workload w;
    f(w);
  }
  {
    raymarch_workload w;
    f(w);
  }
  {
    neighbour_workload w;
    f(w);
  }
}

// ---------------------------------------------------------------------------------------------
// CPU-only modes: the self-test and the run-time estimate.

int self_test();
int estimate(const Options& o);

} // namespace

#include "real_work/cpu_checks.cuh"

int main(int argc, char** argv)
{
  const ptxw_bench::table_program program{
    "ptxw_bench_device_real_work [--reps N] [--max-log2n K] [--only NAME[,NAME...]] [--quick] [--sweep] "
    "[--out FILE.csv] [--self-test] [--estimate]",
    16, 26, "timed calls checked against CUB's output (exactly once, bit for bit)", "all equal"};
  return ptxw_bench::table_main<Harness, Options>(
    argc, argv, program,
    [&](Options& o, int& i) {
      return ptxw_bench::flag_option(argv, i, "--estimate", o.estimate);
    },
    [](const Options& o) {
      return default_reps(o.sweep, o.quick);
    },
    [](const Options& o) {
      return o.self_test ? self_test() : o.estimate ? estimate(o) : -1;
    },
    [](Harness& h, const Options& o, const cudaDeviceProp& prop) {
      int khz = 0;
      PTXW_BENCH_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
      std::printf("%s, %d SMs, %.0f MHz; CCCL %d.%d.%d; %s, %lld rounds%s\n", prop.name, prop.multiProcessorCount,
                  khz / 1000.0, CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION, CCCL_PATCH_VERSION,
                  o.sweep ? "policy sweep" : "tables", o.reps, o.quick ? ", quick" : "");
      h.measure_copy_bandwidth();
      if (o.sweep)
      {
        std::printf("\nsweep: %d policies; per cell the best, the worst and the default (%s) as CUB Bulk / ptxw\n",
                    sweep_policy_count, policy_label(ptxw::device::for_each_selector{}).c_str());
        for_each_workload([&](auto& w) { h.sweep(w); });
        h.print_sweep_summary();
      }
      else
      {
        for_each_workload([&](auto& w) { h.main_table(w); });
        h.print_main_summary();
      }
    });
}
