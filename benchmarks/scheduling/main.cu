// Scheduling benchmark: ptxw's work stealing against what a kernel author would use instead, on
// fair synthetic work and on memory-bound work, measured side by side in one run.
//
//   build/benchmarks/ptxw_bench_scheduling [--items N] [--threads T] [--reps R] [--only NAME,...] [--out DIR]
//
// For each workload: the SM clock and the lower bound of this run, every strategy's best time of R
// launches (strategies interleaved per repetition), its ratio to the bound and to the best other
// strategy, the CTAs it launched, how many ran the prologue and how many ran items, and its checks:
// `ok`, `ITEMS` (an item was lost or ran twice) or, for ptxw, `PROLOG` (a CTA that ran no block --
// a canceled one -- ran the prologue). A failed check makes the exit code 1.
// Cluster forms run on costs that are equal within each cluster (its CTAs work on one unit
// together), next to the block form on the same costs. Writes DIR/scheduling.md (the tables),
// DIR/scheduling.json (every number) and DIR/timelines.txt (per-SM timelines of one untimed run
// per strategy and workload: CTAs and blocks of the first SMs, the occupancy of all;
// benchmarks/plot.py scheduling draws them).
#include "../harness.h"
#include "strategies.cuh"
#include "workloads.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace sched {
namespace {

struct Options
{
  unsigned items   = 200000;
  unsigned threads = 128;
  int reps         = 5;
  std::vector<std::string> only;
  std::string out = ".";
  bool timelines  = true;
};

const char* const usage = "ptxw_bench_scheduling [--items N] [--threads T (32..256)] [--reps R] [--only WORKLOAD,...] "
                          "[--out DIR] [--no-timelines]";

// One option at argv[i] (check.h's forms), moving i past its value; false: not an option of this program.
bool option(int argc, char** argv, Options& o, int& i)
{
  long long v = 0;
  if (ptxw_bench::int_option(argc, argv, i, "--items", 4, 1ll << 30, v))
  {
    o.items = static_cast<unsigned>(v);
    return true;
  }
  if (ptxw_bench::int_option(argc, argv, i, "--threads", 32, 256, v))
  {
    o.threads = static_cast<unsigned>(v);
    return true;
  }
  if (ptxw_bench::int_option(argc, argv, i, "--reps", 1, 1000, v))
  {
    o.reps = static_cast<int>(v);
    return true;
  }
  return ptxw_bench::list_option(argc, argv, i, "--only", o.only) || ptxw_bench::string_option(argc, argv, i, "--out", o.out)
      || ptxw_bench::flag_option(argv, i, "--no-timelines", o.timelines, false);
}

// The SM clock under full load: every resident CTA spins `cycles` on one warp and times it.
__global__ SCHED_BOUNDS void clock_under_load(long long cycles, unsigned long long* ns)
{
  const unsigned long long start = now_ns();
  spin(cycles);
  if (leader())
  {
    ns[blockIdx.x] = now_ns() - start;
  }
}

double measure_mhz(unsigned resident, unsigned threads)
{
  const long long cycles   = 20000000; // about 10 ms
  ptxw_bench::device_array<unsigned long long> d_ns(resident, "the clock's samples");
  clock_under_load<<<resident, threads>>>(cycles, d_ns.get());
  PTXW_BENCH_CHECK(cudaDeviceSynchronize());
  std::vector<unsigned long long> ns = d_ns.download(resident);
  std::nth_element(ns.begin(), ns.begin() + resident / 2, ns.end());
  return cycles * 1000.0 / static_cast<double>(ns[resident / 2]);
}

// The best read bandwidth of this GPU on the memory workload's array: every thread streams float4s.
__global__ void stream_read(const float4* data, unsigned long long count, float* out)
{
  float sum = 0.0f;
  for (unsigned long long i = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<unsigned long long>(gridDim.x) * blockDim.x)
  {
    const float4 v = data[i];
    sum += v.x + v.y + v.z + v.w;
  }
  if (sum == -1.0f)
  {
    *out = sum;
  }
}

struct Run
{
  std::string strategy;
  unsigned group;
  double best_ms = 1e30;
  std::vector<double> ms;
  unsigned launched = 0;
  Counts counts{};
  unsigned wrong = 0; // items not run exactly once, summed over runs
  unsigned stray = 0; // ptxw: prologues run by CTAs that ran no block (canceled ones), summed over runs
};

struct Measured
{
  std::string workload;
  unsigned group;
  double bound_ms;
  double mean_us, max_us;
  std::vector<Run> runs;
};

std::string json_escape(const std::string& s)
{
  std::string out;
  for (char c : s)
  {
    if (c == '"' || c == '\\')
    {
      out += '\\';
    }
    out += c;
  }
  return out;
}

class Bench
{
  Options o_;
  unsigned sms_ = 0, resident_ = 0;
  double mhz_ = 0, bandwidth_gbs_ = 0;
  ptxw::clc::scheduler scheduler_;
  ptxw::work_queue_host<unsigned> queue_;
  std::vector<Strategy> strategies_ = strategies();
  // Device buffers, sized for the items.
  ptxw_bench::device_array<long long> cost_;
  ptxw_bench::device_array<unsigned> hits_, next_, cta_ids_;
  ptxw_bench::device_array<Counts> counts_;
  ptxw_bench::device_array<float4> data_;
  ptxw_bench::device_array<float> out_;
  ptxw_bench::device_array<CtaEvent> cta_events_;
  ptxw_bench::device_array<ItemEvent> item_events_;
  ptxw_bench::event_timer timer_;
  unsigned chunk_        = 1024; // float4 per memory item: 16 KiB
  std::ofstream timelines_;

public:
  explicit Bench(Options o)
      : o_(std::move(o))
      , scheduler_(o_.items)
      , queue_(o_.items)
  {
    std::vector<unsigned> items(o_.items);
    for (unsigned i = 0; i < o_.items; ++i)
    {
      items[i] = i;
    }
    queue_.fill(items);
    cudaDeviceProp prop{};
    PTXW_BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
    sms_ = prop.multiProcessorCount;
    int per_sm = 0;
    PTXW_BENCH_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, one_per_item, o_.threads, 0));
    resident_ = per_sm * sms_;
    mhz_      = measure_mhz(resident_, o_.threads);
    std::printf("%s, %u SMs, %u threads per block, %u resident blocks; SM clock under load %.0f MHz; %u items, "
                "best of %d\n",
                prop.name, sms_, o_.threads, resident_, mhz_, o_.items, o_.reps);
    print_occupancy();
    cost_.reserve(o_.items);
    hits_.reserve(o_.items);
    next_.reserve(1);
    counts_.reserve(1);
    out_.reserve(o_.items);
    cta_events_.reserve(o_.items);
    item_events_.reserve(o_.items);
    cta_ids_.reserve(1);
    if (o_.timelines)
    {
      timelines_.open(o_.out + "/timelines.txt");
    }
  }

  void print_occupancy()
  {
    auto occupancy = [&](auto kernel) {
      int n = 0;
      PTXW_BENCH_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, o_.threads, 0));
      cudaFuncAttributes a{};
      PTXW_BENCH_CHECK(cudaFuncGetAttributes(&a, kernel));
      return std::to_string(n) + "/SM (" + std::to_string(a.numRegs) + " registers)";
    };
    std::printf("occupancy: one block per item %s, grid-stride %s, atomic queue %s, ptxw work queue fetch %s, "
                "fetch<8> %s, prefetching %s, prefetching<8> %s, CCCL %s, ptxw block %s, ptxw emulated %s, "
                "ptxw cluster %s\n",
                occupancy(one_per_item).c_str(), occupancy(grid_stride).c_str(), occupancy(atomic_queue).c_str(),
                occupancy(queue_fetch<1>).c_str(), occupancy(queue_fetch<8>).c_str(),
                occupancy(queue_for_each<1>).c_str(), occupancy(queue_for_each<8>).c_str(),
                occupancy(cccl).c_str(), occupancy(ptxw_block<ptxw::clc::automatic_t>).c_str(),
                occupancy(ptxw_block<ptxw::clc::emulated_t>).c_str(),
                occupancy(ptxw_cluster<ptxw::clc::automatic_t>).c_str());
  }

  Work work(const Workload& w, bool traced) const
  {
    Work k{};
    k.cost        = cost_.get();
    k.data        = w.memory ? data_.get() : nullptr;
    k.chunk       = chunk_;
    k.out         = out_.get();
    k.prologue    = static_cast<long long>(w.prologue_us * mhz_);
    k.n           = o_.items;
    k.hits        = hits_.get();
    k.counts      = counts_.get();
    k.cta_events  = traced ? cta_events_.get() : nullptr;
    k.item_events = traced ? item_events_.get() : nullptr;
    k.cta_ids     = cta_ids_.get();
    return k;
  }

  // One launch: time it (ms), check exactly-once, read the counts.
  double run_once(const Strategy& s, const Work& w, Run& r)
  {
    PTXW_BENCH_CHECK(cudaMemset(hits_.get(), 0, o_.items * sizeof(unsigned)));
    PTXW_BENCH_CHECK(cudaMemset(next_.get(), 0, sizeof(unsigned)));
    PTXW_BENCH_CHECK(cudaMemset(counts_.get(), 0, sizeof(Counts)));
    PTXW_BENCH_CHECK(cudaMemset(cta_ids_.get(), 0, sizeof(unsigned)));
    queue_.reset();
    PTXW_BENCH_CHECK(cudaDeviceSynchronize());
    Launch l{o_.threads, resident_, next_.get(), &scheduler_, queue_.view(), 0};
    const double ms = timer_.us([&] { PTXW_BENCH_CHECK(s.run(w, l)); }) / 1e3;
    std::vector<unsigned> hits(o_.items);
    PTXW_BENCH_CHECK(cudaMemcpy(hits.data(), hits_.get(), o_.items * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (unsigned h : hits)
    {
      r.wrong += h != 1;
    }
    PTXW_BENCH_CHECK(cudaMemcpy(&r.counts, counts_.get(), sizeof(Counts), cudaMemcpyDeviceToHost));
    if (s.ptxw && r.counts.prologues > r.counts.ran)
    {
      r.stray += r.counts.prologues - r.counts.ran;
    }
    r.launched = l.grid;
    return ms;
  }

  Measured measure(const Workload& w, unsigned group)
  {
    Measured m{w.name, group, 0, 0, 0, {}};
    const std::vector<double> us = draw(w, o_.items, group, 1234u + group);
    if (w.memory)
    {
      const double bytes = static_cast<double>(o_.items) * chunk_ * sizeof(float4);
      m.bound_ms         = bytes / (bandwidth_gbs_ * 1e6);
      m.mean_us = m.max_us = bytes / o_.items / (bandwidth_gbs_ * 1e3);
    }
    else
    {
      std::vector<long long> cycles(o_.items);
      double sum = 0;
      for (unsigned i = 0; i < o_.items; ++i)
      {
        cycles[i] = static_cast<long long>(us[i] * mhz_);
        sum += us[i];
        m.max_us = std::max(m.max_us, us[i]);
      }
      m.mean_us = sum / o_.items;
      PTXW_BENCH_CHECK(cudaMemcpy(cost_.get(), cycles.data(), o_.items * sizeof(long long), cudaMemcpyHostToDevice));
      m.bound_ms = (std::max(sum / resident_, m.max_us) + w.prologue_us) / 1000.0;
    }
    for (const Strategy& s : strategies_)
    {
      const bool block_default = s.name == "ptxw default (counter_t)";
      if (group == 1 ? s.cluster == 1 : (s.cluster == group || block_default))
      {
        m.runs.push_back(Run{s.name, group});
      }
    }
    const Work k = work(w, false);
    for (int rep = 0; rep < o_.reps; ++rep)
    {
      for (Run& r : m.runs)
      {
        const double ms = run_once(find(r.strategy), k, r);
        r.ms.push_back(ms);
        r.best_ms = std::min(r.best_ms, ms);
      }
    }
    if (o_.timelines)
    {
      for (Run& r : m.runs)
      {
        Run traced{r.strategy, group};
        run_once(find(r.strategy), work(w, true), traced);
        write_timeline(w.name, group, traced);
      }
    }
    return m;
  }

  const Strategy& find(const std::string& name) const
  {
    for (const Strategy& s : strategies_)
    {
      if (s.name == name)
      {
        return s;
      }
    }
    std::abort();
  }

  // The run's CTAs and items: detail for the first SMs, utilisation of all of them over time.
  void write_timeline(const std::string& workload, unsigned group, const Run& r)
  {
    unsigned ctas = 0;
    PTXW_BENCH_CHECK(cudaMemcpy(&ctas, cta_ids_.get(), sizeof ctas, cudaMemcpyDeviceToHost));
    std::vector<CtaEvent> c(ctas);
    std::vector<ItemEvent> items(o_.items);
    PTXW_BENCH_CHECK(cudaMemcpy(c.data(), cta_events_.get(), ctas * sizeof(CtaEvent), cudaMemcpyDeviceToHost));
    PTXW_BENCH_CHECK(cudaMemcpy(items.data(), item_events_.get(), o_.items * sizeof(ItemEvent), cudaMemcpyDeviceToHost));
    unsigned long long t0 = ~0ull, t1 = 0;
    for (const CtaEvent& e : c)
    {
      t0 = std::min(t0, e.enter);
      t1 = std::max(t1, e.leave);
    }
    // Rows: per SM, each CTA in the lowest row free when it entered.
    constexpr unsigned detail_sms = 3, bins = 100;
    std::vector<unsigned> row(ctas);
    std::map<unsigned, std::vector<unsigned long long>> free_at;
    std::vector<unsigned> order(ctas);
    for (unsigned i = 0; i < ctas; ++i)
    {
      order[i] = i;
    }
    std::sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
      return c[a].enter < c[b].enter;
    });
    for (unsigned i : order)
    {
      auto& rows = free_at[c[i].sm];
      unsigned k = 0;
      while (k < rows.size() && rows[k] > c[i].enter)
      {
        ++k;
      }
      if (k == rows.size())
      {
        rows.push_back(0);
      }
      rows[k] = c[i].leave;
      row[i]  = k;
    }
    std::vector<unsigned> ran(ctas, 0);
    for (const ItemEvent& e : items)
    {
      if (e.cta < ctas)
      {
        ++ran[e.cta];
      }
    }
    timelines_ << "run\t" << workload << "\t" << r.strategy << "\t" << group << "\t" << (t1 - t0) << "\t" << ctas
               << "\n";
    for (unsigned i = 0; i < ctas; ++i)
    {
      if (c[i].sm < detail_sms)
      {
        timelines_ << "cta\t" << c[i].sm << "\t" << row[i] << "\t" << c[i].enter - t0 << "\t" << c[i].prologue_ns
                   << "\t" << c[i].leave - t0 << "\t" << ran[i] << "\n";
      }
    }
    std::vector<std::vector<double>> busy(sms_, std::vector<double>(bins, 0.0));
    const double width = static_cast<double>(t1 - t0) / bins;
    for (unsigned i = 0; i < o_.items; ++i)
    {
      const ItemEvent& e = items[i];
      if (e.cta >= ctas)
      {
        continue;
      }
      const CtaEvent& owner = c[e.cta];
      if (owner.sm < detail_sms)
      {
        timelines_ << "item\t" << owner.sm << "\t" << row[e.cta] << "\t" << e.start - t0 << "\t" << e.end - t0 << "\t"
                   << i << "\n";
      }
      // Busy time of the item, spread over the bins it covers.
      const double a = static_cast<double>(e.start - t0), b = static_cast<double>(e.end - t0);
      for (unsigned k = static_cast<unsigned>(a / width); k < bins && k * width < b; ++k)
      {
        const double lo = std::max(a, k * width), hi = std::min(b, (k + 1) * width);
        if (owner.sm < sms_ && hi > lo)
        {
          busy[owner.sm][k] += (hi - lo) / width;
        }
      }
    }
    for (unsigned s = 0; s < sms_; ++s)
    {
      timelines_ << "util\t" << s;
      for (double b : busy[s])
      {
        timelines_ << "\t" << static_cast<int>(b * 100 + 0.5); // items in flight x 100
      }
      timelines_ << "\n";
    }
  }

  void prepare_memory()
  {
    const unsigned long long count = static_cast<unsigned long long>(o_.items) * chunk_;
    data_.reserve(count);
    PTXW_BENCH_CHECK(cudaMemset(data_.get(), 0, count * sizeof(float4)));
    const double best_us = timer_.best_us(5, [&] { stream_read<<<sms_ * 8, 256>>>(data_.get(), count, out_.get()); });
    bandwidth_gbs_       = count * sizeof(float4) / (best_us * 1e3);
    std::printf("memory workload: %.2f GB, best streaming read %.0f GB/s\n", count * sizeof(float4) / 1e9,
                bandwidth_gbs_);
  }

  bool selected(const Workload& w) const
  {
    if (o_.only.empty())
    {
      return true;
    }
    return std::find(o_.only.begin(), o_.only.end(), w.name) != o_.only.end();
  }

  int run()
  {
    std::vector<Measured> all;
    for (const Workload& w : workloads())
    {
      if (!selected(w))
      {
        continue;
      }
      if (w.memory && data_.get() == nullptr)
      {
        prepare_memory();
      }
      for (unsigned group : {1u, 2u, 4u})
      {
        if (w.memory && group != 1)
        {
          continue;
        }
        all.push_back(measure(w, group));
        print(all.back());
      }
    }
    write_markdown(all);
    write_json(all);
    bool exact = true;
    for (const Measured& m : all)
    {
      for (const Run& r : m.runs)
      {
        exact &= r.wrong == 0 && r.stray == 0;
      }
    }
    return exact ? 0 : 1;
  }

  static double best_other(const Measured& m, const std::string& name)
  {
    double best = 1e30;
    for (const Run& r : m.runs)
    {
      if (r.strategy != name)
      {
        best = std::min(best, r.best_ms);
      }
    }
    return best;
  }

  void print(const Measured& m) const
  {
    std::printf("\n%s%s (mean %.2f us, max %.1f us): bound %.3f ms\n", m.workload.c_str(),
                m.group > 1 ? (", equal within groups of " + std::to_string(m.group)).c_str() : "", m.mean_us, m.max_us,
                m.bound_ms);
    std::printf("  %-36s %9s %8s %9s %9s %9s %9s %6s\n", "strategy", "ms", "/bound", "/best oth", "launched",
                "prologues", "ran", "checks");
    for (const Run& r : m.runs)
    {
      std::printf("  %-36s %9.3f %8.3f %9.3f %9u %9u %9u %6s\n", r.strategy.c_str(), r.best_ms, r.best_ms / m.bound_ms,
                  r.best_ms / best_other(m, r.strategy), r.launched, r.counts.prologues, r.counts.ran,
                  r.wrong ? "ITEMS" : r.stray ? "PROLOG" : "ok");
    }
  }

  void write_markdown(const std::vector<Measured>& all) const
  {
    std::ofstream md(o_.out + "/scheduling.md");
    md << "Time over the lower bound, best of " << o_.reps << " launches (lower is better; the row's best in bold). "
       << o_.items << " items, " << o_.threads << " threads per block, " << resident_ << " resident blocks, SM clock "
       << static_cast<int>(mhz_) << " MHz under load.\n\n| workload |";
    std::vector<std::string> names;
    for (const Measured& m : all)
    {
      if (m.group == 1)
      {
        for (const Run& r : m.runs)
        {
          if (std::find(names.begin(), names.end(), r.strategy) == names.end())
          {
            names.push_back(r.strategy);
          }
        }
      }
    }
    for (const auto& n : names)
    {
      md << " " << n << " |";
    }
    md << "\n|---|";
    for (std::size_t i = 0; i < names.size(); ++i)
    {
      md << "---:|";
    }
    md << "\n";
    for (const Measured& m : all)
    {
      if (m.group != 1)
      {
        continue;
      }
      double best = 1e30;
      for (const Run& r : m.runs)
      {
        best = std::min(best, r.best_ms);
      }
      md << "| " << m.workload << " |";
      for (const auto& n : names)
      {
        for (const Run& r : m.runs)
        {
          if (r.strategy == n)
          {
            char cell[32];
            std::snprintf(cell, sizeof cell, "%.2f", r.best_ms / m.bound_ms);
            md << " " << (r.best_ms == best ? "**" + std::string(cell) + "**" : std::string(cell))
               << (r.wrong ? " (WRONG)" : "") << " |";
          }
        }
      }
      md << "\n";
    }
    md << "\nCluster forms on costs equal within each cluster, time over the block form's (ptxw default) on the "
          "same costs:\n\n| workload | clusters of 2 | clusters of 4 |\n|---|---:|---:|\n";
    for (const Measured& m : all)
    {
      if (m.group != 2)
      {
        continue;
      }
      md << "| " << m.workload << " |";
      for (const Measured& n : all)
      {
        if (n.workload == m.workload && n.group > 1)
        {
          char cell[32];
          std::snprintf(cell, sizeof cell, " %.2f |",
                        time_of(n, "ptxw cluster form, clusters of " + std::to_string(n.group))
                          / time_of(n, "ptxw default (counter_t)"));
          md << cell;
        }
      }
      md << "\n";
    }
  }

  static double time_of(const Measured& m, const std::string& strategy)
  {
    for (const Run& r : m.runs)
    {
      if (r.strategy == strategy)
      {
        return r.best_ms;
      }
    }
    return 0.0;
  }

  void write_json(const std::vector<Measured>& all) const
  {
    std::ofstream js(o_.out + "/scheduling.json");
    js << "{\"items\": " << o_.items << ", \"threads\": " << o_.threads << ", \"resident\": " << resident_
       << ", \"mhz\": " << mhz_ << ", \"bandwidth_gbs\": " << bandwidth_gbs_ << ", \"reps\": " << o_.reps
       << ", \"workloads\": [";
    for (std::size_t i = 0; i < all.size(); ++i)
    {
      const Measured& m = all[i];
      js << (i ? ", " : "") << "{\"name\": \"" << json_escape(m.workload) << "\", \"group\": " << m.group
         << ", \"bound_ms\": " << m.bound_ms << ", \"mean_us\": " << m.mean_us << ", \"max_us\": " << m.max_us
         << ", \"runs\": [";
      for (std::size_t j = 0; j < m.runs.size(); ++j)
      {
        const Run& r = m.runs[j];
        js << (j ? ", " : "") << "{\"strategy\": \"" << json_escape(r.strategy) << "\", \"best_ms\": " << r.best_ms
           << ", \"ms\": [";
        for (std::size_t k = 0; k < r.ms.size(); ++k)
        {
          js << (k ? ", " : "") << r.ms[k];
        }
        js << "], \"launched\": " << r.launched << ", \"entered\": " << r.counts.entered
           << ", \"prologues\": " << r.counts.prologues << ", \"ran\": " << r.counts.ran << ", \"wrong\": " << r.wrong << ", \"stray_prologues\": " << r.stray
           << "}";
      }
      js << "]}";
    }
    js << "]}\n";
  }
};

} // namespace
} // namespace sched

int main(int argc, char** argv)
{
  sched::Options o;
  if (!ptxw_bench::parse_options(argc, argv, sched::usage, o,
                                 [&](sched::Options& opt, int& i) { return sched::option(argc, argv, opt, i); }))
  {
    return 2;
  }
  if (o.items % 4 != 0 || o.threads % 32 != 0)
  {
    std::fprintf(stderr, "ptxw_bench_scheduling: items must be a multiple of 4 (clusters of 4), threads a "
                         "multiple of 32\n");
    return 2;
  }
  ptxw_bench::require_device();
  sched::Bench bench(std::move(o));
  return bench.run();
}
