// benchmarks/tables.h: what the benchmark programs that print tables of rounds share beyond
// harness.h (device_real_work.cu, device_state.cu): their common options, the statistics of the
// rounds, the CSV file of every timing, the sweeps' lists of policies, and the base of their
// harnesses (the output comparison and the count of checks and failures).
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <type_traits>
#include <vector>

#include "check.h"
#include "harness.h"

namespace ptxw_bench {

// ---------------------------------------------------------------------------------------------
// Options.

// The options every table program takes.
struct table_options
{
  long long reps      = 0;
  bool reps_given     = false; // else the program's default for its mode
  long long max_log2n = 0;
  std::vector<std::string> only; // workloads whose names start with one of these; empty: all
  bool quick     = false;
  bool sweep     = false;
  bool self_test = false;
  std::string out; // the CSV file; empty: none

  bool selected(const std::string& name) const
  {
    if (only.empty())
    {
      return true;
    }
    for (const std::string& s : only)
    {
      if (name.compare(0, s.size(), s) == 0)
      {
        return true;
      }
    }
    return false;
  }
};

// One of table_options at argv[i] (moving i past its value): --quick, --sweep, --self-test, --only
// NAME[,NAME...], --out FILE, --reps N (1 to 100), --max-log2n K (min_log2n to max_log2n).
inline bool table_option(int argc, char** argv, int& i, table_options& o, long long min_log2n, long long max_log2n)
{
  if (flag_option(argv, i, "--quick", o.quick) || flag_option(argv, i, "--sweep", o.sweep)
      || flag_option(argv, i, "--self-test", o.self_test))
  {
    return true;
  }
  if (list_option(argc, argv, i, "--only", o.only) || string_option(argc, argv, i, "--out", o.out))
  {
    return true;
  }
  if (int_option(argc, argv, i, "--reps", 1, 100, o.reps))
  {
    o.reps_given = true;
    return true;
  }
  return int_option(argc, argv, i, "--max-log2n", min_log2n, max_log2n, o.max_log2n);
}

// What a table program's main says of it besides its callables (table_main).
struct table_program
{
  const char* usage;
  long long min_log2n, max_log2n; // the range of --max-log2n; its default: the largest
  const char* checked;            // what the closing line calls the checks
  const char* passed;             // and what it says where none failed
};

// A table program's main. The options: table_option's, then the program's own through more(o, i)
// (Options derives from table_options), else the usage and exit status 2; --reps defaults to
// default_reps(o). Then a CPU-only mode where cpu_only(o) runs one (its exit status; -1: none).
// Else on the device: run(h, o, prop) on a Harness(o) (prop: the device's properties, for the
// program's first line), and the closing line: the checks made, whether all passed, the seconds in
// all. Exit status 1 where a check failed or the run threw.
template <class Harness, class Options, class More, class DefaultReps, class CpuOnly, class Run>
int table_main(int argc, char** argv, const table_program& p, More more, DefaultReps default_reps, CpuOnly cpu_only,
               Run run)
{
  Options o;
  o.max_log2n = p.max_log2n;
  if (!parse_options(argc, argv, p.usage, o, [&](Options& opt, int& i) {
        return table_option(argc, argv, i, opt, p.min_log2n, p.max_log2n) || more(opt, i);
      }))
  {
    return 2;
  }
  if (!o.reps_given)
  {
    o.reps = default_reps(o);
  }
  if (const int status = cpu_only(o); status >= 0)
  {
    return status;
  }
  require_device();
  const auto t0 = std::chrono::steady_clock::now();
  try
  {
    cudaDeviceProp prop{};
    PTXW_BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
    Harness h(o);
    run(h, o, prop);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("\n%llu %s: %s. %.0f s in all.\n", h.checks(), p.checked, h.failures() ? "FAILURES above" : p.passed,
                s);
    return h.failures() ? 1 : 0;
  }
  catch (const std::exception& e)
  {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}

// ---------------------------------------------------------------------------------------------
// Statistics of the rounds.

// The geometric mean; 0 for none.
inline double geomean(const std::vector<double>& v)
{
  if (v.empty())
  {
    return 0;
  }
  double s = 0;
  for (double x : v)
  {
    s += std::log(x);
  }
  return std::exp(s / v.size());
}

inline std::string pow2(int k)
{
  return "2^" + std::to_string(k);
}

// ---------------------------------------------------------------------------------------------
// The CSV file: a row a timing, mode,workload,log2n,n,contender,policy,calls,reps,min_us,median_us,
// max_us and the program's own columns after them. Nothing where no path is given.

class csv_file
{
  csv_out out_;

public:
  // more: the program's own columns, each with its leading comma (",bound_us"), or "".
  csv_file(const std::string& path, const char* more)
      : out_(path, std::string("mode,workload,log2n,n,contender,policy,calls,reps,min_us,median_us,max_us") + more)
  {}
  // more: the row's own columns, as in the header.
  void row(const char* mode, const std::string& workload, int log2n, const std::string& contender,
           const std::string& policy, int calls, std::size_t reps, const round_stats& s, const std::string& more = "")
  {
    out_.row("%s,%s,%d,%llu,%s,%s,%d,%zu,%.3f,%.3f,%.3f%s", mode, workload.c_str(), log2n, 1ull << log2n,
             contender.c_str(), policy.c_str(), calls, reps, s.min, s.median, s.max, more.c_str());
    out_.flush();
  }
};

// ---------------------------------------------------------------------------------------------
// A sweep's policies: selector types, visited in order as f(P{}, j).

template <class... P>
struct policy_list
{};

template <class... P, class F>
void for_each_type(policy_list<P...>, F&& f)
{
  int j = 0;
  (f(P{}, j++), ...);
}

// ---------------------------------------------------------------------------------------------
// The base of a table program's harness.

// Counts the words (4 or 8 bytes) of a and b that differ into *count.
template <class Word>
__global__ void mismatch_kernel(const Word* a, const Word* b, unsigned long long n, unsigned long long* count)
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

// Options (from table_options), the CSV file, the event timer, the comparison of outputs, and the
// checks made and failed.
template <class Options>
class table_harness
{
protected:
  Options o_;
  csv_file csv_;
  event_timer timer_;
  device_array<unsigned long long> mismatch_count_;
  unsigned long long checks_ = 0, failures_ = 0;

public:
  // csv_columns: the program's own CSV columns (csv_file).
  table_harness(const Options& o, const char* csv_columns)
      : o_(o)
      , csv_(o.out, csv_columns)
  {
    mismatch_count_.reserve(1);
  }

  bool selected(const std::string& name) const
  {
    return o_.selected(name);
  }

  // The sizes of `all` (log2) up to --max-log2n and `most`.
  std::vector<int> sizes(const std::vector<int>& all, long long most) const
  {
    std::vector<int> ks;
    for (int k : all)
    {
      if (k <= std::min(o_.max_log2n, most))
      {
        ks.push_back(k);
      }
    }
    return ks;
  }

  // The outputs of a and b (n of T, 4 or 8 bytes each) that differ, as bits.
  template <class T>
  unsigned long long mismatches(const T* a, const void* b, unsigned long long n)
  {
    using word = std::conditional_t<sizeof(T) == 8, unsigned long long, unsigned>;
    static_assert(sizeof(T) == sizeof(word), "outputs are 4 or 8 bytes");
    PTXW_BENCH_CHECK(cudaMemsetAsync(mismatch_count_.get(), 0, sizeof(unsigned long long)));
    mismatch_kernel<word><<<1024, 256>>>(reinterpret_cast<const word*>(a), static_cast<const word*>(b), n,
                                         mismatch_count_.get());
    PTXW_BENCH_CHECK(cudaGetLastError());
    unsigned long long bad = 0;
    PTXW_BENCH_CHECK(cudaMemcpy(&bad, mismatch_count_.get(), sizeof bad, cudaMemcpyDeviceToHost));
    return bad;
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
};

} // namespace ptxw_bench
