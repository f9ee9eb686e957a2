// Octree partitioning: N particles into an octree whose leaves hold at most T particles
// (depth cap 21: a deeper leaf may exceed T and is counted), built by the dynamic task-pool builder
// and by the baselines a user would write instead, side by side in one run, every output checked.
//
//   ptxw_bench_octree [--quick] [--reps N] [--only SHAPE[,SHAPE]] [--n N[,N]] [--t T[,T]]
//                     [--sweep] [--csv FILE] [--timeline FILE]
//
// Inputs (examples/octree/particles.h, seed 42): uniform, plummer (a = 0.01, r < 0.49), clusters
// (the 2011 release's clusters of 100, its x bug fixed). N = 10^6, 10^7; T = 16, 64.
// Contenders (the dynamic builder: one row per method of ptxw::tasks with C = 32K and 256 threads,
// rows with C = 64K and 16K, with 512 threads (one block an SM), and the paper-faithful form, one
// block a node, at N <= 10^6 only):
//   level loop   level-synchronous: all nodes of a level split by one grid (count, 8-way prefix, scatter),
//                the next level's node list built on the device, a host loop reading the node count;
//   level graph  the same kernels as the body of a CUDA graph conditional WHILE node (no host round trip);
//   +finish      (level loop+finish, level graph+finish) nodes of at most S = 4096 particles finished by one
//                block in shared memory, at 256 threads (two blocks an SM) and at 512 (one);
//   sort-based   Morton keys + cub::DeviceRadixSort::SortPairs (30-bit keys where the reference's depth is
//                <= 10, else 63-bit) + leaves read off the sorted keys + gather;
//   cdp          CUDA dynamic parallelism: a kernel per node (one block, or four grids in a stream above C)
//                splits it and launches a kernel per child of more than T particles (cdp+finish: nodes of at most
//                S finished by one block in shared memory);
//   copy         a device-to-device copy of the N float4s: the bandwidth behind "bound".
// Timing: every contender run once untimed and checked (output poisoned before, compared with the
// host reference: no lost or duplicated particle, the same leaf set), then --reps rounds (default 5)
// timing each in turn (A B C A B C ...), one build each, cudaEvent; best and spread (max-min)/best.
// bound = (passes above S + 1) x the copy's time: every particle read and written once per global
// split (2 x 16 B), plus once to finish (the reference counts the passes).
// Statistics of the dynamic rows, from pool_host::stats() after the last timed build: tasks run, steals
// won, failed CAS; a child neither pushed nor kept fails the row's check.
// --sweep: the dynamic builder of every method at 128, 256 and 512 threads x blocks 1, 2, 4 .. the
// resident grid, at the first --n and --t (the paper's figures' shape), with the level loop, level loop+finish,
// sort-based, cdp and cdp+finish builds in the same rounds. --quick: N = 10^5, T = 16, 2 rounds.
// --csv FILE: every row as CSV (plot: benchmarks/plot.py octree).
// --timeline FILE: per-SM timelines of the dynamic builder instead of the table (timelines() below).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "harness.h"
#include "octree/cdp.h" // examples/octree
#include "octree/dynamic.h"
#include "octree/level_sync.h"
#include "octree/reference.h"
#include "octree/sort_build.h"
#include "octree/tree.h"

namespace
{
using namespace ptxw_bench;
using namespace octree;

struct options
{
  bool quick = false, sweep = false;
  int reps   = 5;
  std::vector<shape> shapes{shape::uniform, shape::plummer, shape::clusters};
  std::vector<std::size_t> sizes{1000000, 10000000};
  std::vector<std::uint32_t> caps{16, 64};
  std::string csv, timeline; // timeline: --timeline FILE
};

const char* const usage =
  "ptxw_bench_octree [--quick] [--reps N] [--only SHAPE,...] [--n N,...] [--t T,...] [--sweep] [--csv FILE]"
  " [--timeline FILE]";

// One option at argv[i] (check.h's forms), moving i past its value; false: not an option of this program.
bool option(int argc, char** argv, options& o, int& i)
{
  std::vector<std::string> list;
  long long reps = 0;
  if (flag_option(argv, i, "--quick", o.quick))
  {
    o.reps = 2, o.sizes = {100000}, o.caps = {16};
  }
  else if (int_option(argc, argv, i, "--reps", 1, 1000, reps))
  {
    o.reps = static_cast<int>(reps);
  }
  else if (list_option(argc, argv, i, "--only", list))
  {
    o.shapes.clear();
    for (const std::string& v : list)
    {
      o.shapes.push_back(v == "plummer" ? shape::plummer : v == "clusters" ? shape::clusters : shape::uniform);
    }
  }
  else if (list_option(argc, argv, i, "--n", list))
  {
    o.sizes.clear();
    for (const std::string& v : list)
    {
      o.sizes.push_back(static_cast<std::size_t>(std::atof(v.c_str())));
    }
  }
  else if (list_option(argc, argv, i, "--t", list))
  {
    o.caps.clear();
    for (const std::string& v : list)
    {
      o.caps.push_back(static_cast<std::uint32_t>(std::atoi(v.c_str())));
    }
  }
  else
  {
    return flag_option(argv, i, "--sweep", o.sweep) || string_option(argc, argv, i, "--csv", o.csv)
        || string_option(argc, argv, i, "--timeline", o.timeline);
  }
  return true;
}

struct stats_row
{
  long long tasks = -1, steals = -1, failed_cas = -1;
};

struct contender
{
  std::string name;
  std::function<void()> run;
  std::function<stats_row()> stats = [] { return stats_row{}; };
  bool checked                     = true; // false: not a build (the copy)
  std::function<std::string()> after = [] { return std::string(); }; // a failure the leaf check cannot see
  int threads = 256, blocks = 0; // blocks 0: as the builder sizes its grids (resident)
  int levels  = 1; // tree levels a split takes: the row's bound, and which level loop+finish it is held against
  double best = 0, worst = 0;
  std::string check = "-";
};

// The methods the tasks library offers (ptxw/tasks/methods.h), one row each.
template <class Method>
const char* method_name();
template <>
const char* method_name<ptxw::tasks::stealing>()
{
  return "stealing";
}
template <>
const char* method_name<ptxw::tasks::stealing_deques<ptxw::tasks::one_word>>()
{
  return "stealing (one word)";
}
template <>
const char* method_name<ptxw::tasks::lockfree_queue<ptxw::tasks::ticket_ring>>()
{
  return "ticket ring";
}
template <>
const char* method_name<ptxw::tasks::lockfree_queue<ptxw::tasks::nil_slots>>()
{
  return "nil slots";
}
template <>
const char* method_name<ptxw::tasks::locked_queue>()
{
  return "locked queue";
}
template <>
const char* method_name<ptxw::tasks::static_list>()
{
  return "static list";
}
template <>
const char* method_name<ptxw::tasks::static_list_graph>()
{
  return "list (graph)"; // short: the table's column holds 28 characters
}
// The methods that lead the table (the paper's NIL-slot and locked queues trail far behind:
// docs/task-queues.md).
template <class Method>
inline constexpr bool fast = !std::is_same_v<Method, ptxw::tasks::lockfree_queue<ptxw::tasks::nil_slots>> &&
                             !std::is_same_v<Method, ptxw::tasks::locked_queue>;

using methods = std::tuple<ptxw::tasks::stealing, ptxw::tasks::stealing_deques<ptxw::tasks::one_word>, ptxw::tasks::lockfree_queue<ptxw::tasks::ticket_ring>,
                           ptxw::tasks::lockfree_queue<ptxw::tasks::nil_slots>, ptxw::tasks::locked_queue,
                           ptxw::tasks::static_list, ptxw::tasks::static_list_graph>;

// A dynamic builder as a contender: its pool's counters as the row's statistics.
template <class Method, int Threads, int Levels>
contender dynamic_contender(device_tree& tree, dynamic_builder<Method, Threads, Levels>& b)
{
  contender c{b.name(), [&tree, &b] { tree.build(b); }};
  c.stats = [&b] {
    const ptxw::tasks::pool_stats s = b.stats();
    return stats_row{static_cast<long long>(s.tasks_run), static_cast<long long>(s.steals_won),
                     static_cast<long long>(s.failed_cas)};
  };
  c.after = [&b] {
    const std::uint32_t d = b.dropped();
    return d == 0 ? std::string() : std::to_string(d) + " children neither pushed nor kept";
  };
  c.threads = Threads;
  c.blocks  = b.blocks;
  c.levels  = Levels;
  return c;
}

// cdp as a contender: a device-side launch that failed fails the row, with its error.
contender cdp_contender(device_tree& tree, cdp_build& b)
{
  contender c{b.name(), [&tree, &b] { tree.build(b); }};
  c.after = [&b] { return b.failures(); };
  return c;
}

bool failed = false;

// One problem on the device: validated, uploaded, and its host reference (what every build is
// checked against).
reference_tree upload(device_tree& tree, const std::vector<float4>& particles, std::uint32_t t)
{
  const input in = validate(particles, t);
  tree.upload(in);
  return reference(in, finish_size);
}

// Runs each contender once poisoned and checked, then the timed rounds, then prints the rows.
void measure(const options& o, csv_out& csv, const char* mode, shape s, std::size_t n, std::uint32_t t,
             device_tree& tree, const reference_tree& ref, std::vector<contender>& cs)
{
  event_timer timer;
  std::vector<leaf> leaves;
  std::vector<float4> out;
  for (contender& c : cs)
  {
    if (!c.checked)
    {
      continue;
    }
    tree.poison();
    c.run();
    tree.result(leaves, out);
    const verdict v         = compare(ref.set, leaves, out, t);
    const std::string other = c.after();
    const bool ok           = v.matches(ref.set) && other.empty();
    c.check                 = ok ? "ok" : "FAIL: " + v.describe() + (other.empty() ? "" : "; " + other);
    failed |= !ok;
  }
  for (int r = 0; r < o.reps; ++r)
  {
    for (contender& c : cs)
    {
      const double ms = timer.us(c.run) / 1000.0;
      c.best          = r == 0 ? ms : std::min(c.best, ms);
      c.worst         = r == 0 ? ms : std::max(c.worst, ms);
    }
  }
  auto best_of = [&](const char* name) {
    for (const contender& c : cs)
    {
      if (c.name == name)
      {
        return c.best;
      }
    }
    return 0.0;
  };
  // Per row: its bound and its level loop+finish (the same levels a split, the faster block size).
  const double copy = best_of("copy");
  double bound[3], loop_f[3];
  for (int l = 0; l < 3; ++l)
  {
    bound[l]                = (ref.passes_above_cutoff[l] + 1) * copy;
    const std::string width = "level loop+finish" + (l == 0 ? "" : ", " + std::to_string(l + 1) + " levels a split");
    loop_f[l]                  = best_of(width.c_str());
    if (const double wide = best_of((width + ", 512 threads").c_str()); wide > 0.0) // the sweep has none
    {
      loop_f[l] = std::min(loop_f[l], wide);
    }
  }
  const double loop = best_of("level loop"), sorted = best_of("sort-based");
  std::printf("\n%s N=%zu T=%u: %zu internal nodes, %zu leaves (%zu overfull), depth %d; passes above S: %.2f N "
              "(2 and 3 levels a split: %.2f N, %.2f N); copy %.3f ms (%.0f GB/s r+w); bound %.3f ms (%.3f, %.3f)\n",
              name(s), n, t, ref.internal, ref.set.leaves, ref.set.overfull, ref.set.depth, ref.passes_above_cutoff[0],
              ref.passes_above_cutoff[1], ref.passes_above_cutoff[2], copy, 32.0 * n / copy * 1e-6, bound[0], bound[1],
              bound[2]);
  std::printf("  %-32s %9s %7s %7s %7s %7s %7s %9s %8s %8s  %s\n", "method", "best ms", "spread", "xbound", "xloop", "xfinish",
              "xsort", "tasks", "steals", "failCAS", "check");
  for (const contender& c : cs)
  {
    const stats_row st = c.stats();
    const double cb = bound[c.levels - 1], cp = loop_f[c.levels - 1];
    std::printf("  %-32s %9.3f %6.1f%% %7.2f %7.2f %7.2f %7.2f %9lld %8lld %8lld  %s\n", c.name.c_str(), c.best,
                100.0 * (c.worst - c.best) / c.best, c.best / cb, c.best / loop, c.best / cp, c.best / sorted, st.tasks,
                st.steals, st.failed_cas, c.check.c_str());
    csv.row("%s,%s,%zu,%u,\"%s\",%d,%d,%.4f,%.4f,%.4f,%.3f,%.3f,%.3f,%.3f,%lld,%lld,%lld,%s", mode, name(s), n, t,
            c.name.c_str(), c.threads, c.blocks, c.best, (c.worst - c.best) / c.best, cb, c.best / cb, c.best / loop,
            c.best / cp, c.best / sorted, st.tasks, st.steals, st.failed_cas,
            c.check.rfind("FAIL", 0) == 0 ? "FAIL" : c.check.c_str());
  }
  std::fflush(stdout);
  csv.flush();
}


// Each method's builder (resident grid) in the table's configurations, as contenders.
struct dynamic_entry
{
  bool faithful;
  std::function<contender()> make;
};

template <class Method>
void dynamic_entries(std::vector<std::shared_ptr<void>>& keep, std::vector<dynamic_entry>& out, device_tree& tree)
{
  const std::string m = method_name<Method>();
  auto add            = [&](auto d) {
    keep.push_back(d);
    out.push_back({d->faithful(), [&tree, d] { return dynamic_contender(tree, *d); }});
  };
  add(std::make_shared<dynamic_builder<Method, 256>>(m, false));
  add(std::make_shared<dynamic_builder<Method, 256>>(m + ", C=64K", false, 65536));
  add(std::make_shared<dynamic_builder<Method, 256>>(m + ", C=16K", false, 16384));
  add(std::make_shared<dynamic_builder<Method, 512>>(m + ", 512 threads", false));
  if constexpr (fast<Method>) // several levels a split: the methods that lead, not the paper's slow queues
  {
    add(std::make_shared<dynamic_builder<Method, 256, 2>>(m + ", 2 levels", false));
    add(std::make_shared<dynamic_builder<Method, 512, 2>>(m + ", 512 thr., 2 levels", false));
    add(std::make_shared<dynamic_builder<Method, 512, 2>>(m + ", 512 thr., 2 lv., C=16K", false, 16384));
    add(std::make_shared<dynamic_builder<Method, 512, 3>>(m + ", 512 thr., 3 levels", false));
  }
  add(std::make_shared<dynamic_builder<Method, 256>>(m + ", one block a node", true));
}

// Every builder on every problem of the table: shapes x sizes x T.
void table(const options& o, csv_out& csv)
{
  device_tree tree;
  level_sync<256, 8> loop(false, false), graph(false, true), loop_f(true, false), graph_f(true, true);
  level_sync<256, 8, 2> loop_f2(true, false), graph_f2(true, true);
  level_sync<256, 8, 3> loop_f3(true, false), graph_f3(true, true);
  level_sync<512, 8> loop_fw(true, false); // one block an SM: tiles of 4096, the finish at 512 threads
  level_sync<512, 8, 2> loop_f2w(true, false);
  level_sync<512, 8, 3> loop_f3w(true, false);
  sort_build sorted;
  cdp_build cdp(false), cdp_f(true);
  std::vector<std::shared_ptr<void>> keep;
  std::vector<dynamic_entry> dynamic;
  std::apply([&](auto... m) { (dynamic_entries<decltype(m)>(keep, dynamic, tree), ...); }, methods{});
  for (shape s : o.shapes)
  {
    for (std::size_t n : o.sizes)
    {
      const std::vector<float4> particles = make_particles(s, n);
      for (std::uint32_t t : o.caps)
      {
        const reference_tree ref = upload(tree, particles, t);
        sorted.key_bits       = ref.set.depth <= 10 ? 30 : 63;
        const buffers buf = tree.bufs();
        std::vector<contender> cs;
        auto add = [&](auto& builder, int levels = 1) {
          cs.push_back({builder.name(), [&tree, &builder] { tree.build(builder); }});
          cs.back().levels = levels;
        };
        add(loop);
        add(graph);
        add(loop_f);
        add(graph_f);
        add(loop_f2, 2);
        add(graph_f2, 2);
        add(loop_f3, 3);
        add(graph_f3, 3);
        add(loop_fw);
        add(loop_f2w, 2);
        add(loop_f3w, 3);
        add(sorted);
        cs.push_back(cdp_contender(tree, cdp));
        cs.push_back(cdp_contender(tree, cdp_f));
        for (const dynamic_entry& d : dynamic)
        {
          if (!d.faithful || n <= 1000000) // the paper-faithful form's root alone is one block's pass over N
          {
            cs.push_back(d.make());
          }
        }
        cs.push_back({"copy",
                      [buf, n] {
                        PTXW_BENCH_CHECK(cudaMemcpyAsync(buf.b, buf.a, n * sizeof(float4), cudaMemcpyDeviceToDevice));
                      },
                      [] { return stats_row{}; }, false});
        measure(o, csv, "table", s, n, t, tree, ref, cs);
      }
    }
  }
}

// The paper's figures' shape: the dynamic builder at threads {128, 256, 512} x blocks from 1 to
// the resident grid, every method, at one size (the first of --n, T the first of --t), with the
// baselines in the same rounds.
template <int Threads, class Method>
void sweep_points(std::vector<std::shared_ptr<void>>& keep, device_tree& tree, std::vector<contender>& cs)
{
  dynamic_builder<Method, Threads> probe(method_name<Method>(), false);
  const int resident = probe.resident();
  for (int b : {1, 2, 4, 8, 16, 32, 66, 132, 198, 264, 396, 528})
  {
    const int blocks = b < resident ? b : resident;
    auto d           = std::make_shared<dynamic_builder<Method, Threads>>(
      std::string(method_name<Method>()) + " " + std::to_string(Threads) + "x" + std::to_string(blocks), false);
    d->blocks = blocks;
    keep.push_back(d);
    cs.push_back(dynamic_contender(tree, *d));
    if (blocks == resident)
    {
      break;
    }
  }
}

void sweep(const options& o, csv_out& csv)
{
  device_tree tree;
  level_sync<256, 8> loop(false, false), loop_f(true, false);
  sort_build sorted;
  cdp_build cdp(false), cdp_f(true);
  const std::size_t n    = o.sizes.front();
  const std::uint32_t t  = o.caps.front();
  for (shape s : o.shapes)
  {
    const std::vector<float4> particles = make_particles(s, n);
    const reference_tree ref            = upload(tree, particles, t);
    sorted.key_bits = ref.set.depth <= 10 ? 30 : 63;
    std::vector<contender> cs;
    auto add = [&](auto& builder) { cs.push_back({builder.name(), [&tree, &builder] { tree.build(builder); }}); };
    add(loop);
    add(loop_f);
    add(sorted);
    cs.push_back(cdp_contender(tree, cdp));
    cs.push_back(cdp_contender(tree, cdp_f));
    const buffers buf = tree.bufs();
    cs.push_back({"copy",
                  [buf, n] { PTXW_BENCH_CHECK(cudaMemcpyAsync(buf.b, buf.a, n * sizeof(float4), cudaMemcpyDeviceToDevice)); },
                  [] { return stats_row{}; }, false});
    std::vector<std::shared_ptr<void>> keep;
    std::apply(
      [&](auto... m) {
        (sweep_points<128, decltype(m)>(keep, tree, cs), ...);
        (sweep_points<256, decltype(m)>(keep, tree, cs), ...);
        (sweep_points<512, decltype(m)>(keep, tree, cs), ...);
      },
      methods{});
    measure(o, csv, "sweep", s, n, t, tree, ref, cs);
  }
}

// Per-SM timelines: the dynamic builder of three methods (a deque, the rounds, a FIFO) at 512
// threads and 2 levels a split, one build each after an untimed one, at the first --n and --t of
// each shape; every task a CSV row (shape, n, t, method, sm, kind, start and end in us from the
// build's first task). Checked against the reference like every build.
void timelines(const options& o)
{
  csv_out csv(o.timeline, "shape,n,t,method,sm,kind,start_us,end_us");
  static const char* kinds[] = {"finish", "split", "count", "scatter", "range"};
  device_tree tree;
  timeline tl(1u << 20);
  const std::size_t n   = o.sizes.front();
  const std::uint32_t t = o.caps.front();
  for (shape s : o.shapes)
  {
    const std::vector<float4> particles = make_particles(s, n);
    const reference_tree ref            = upload(tree, particles, t);
    auto one = [&](auto&& b) {
      (void) tree.build(b); // untimed: module load, first-touch
      b.tl = &tl;
      tree.poison();
      (void) tree.build(b);
      std::vector<leaf> leaves;
      std::vector<float4> out;
      tree.result(leaves, out);
      const verdict v = compare(ref.set, leaves, out, t);
      failed |= !v.matches(ref.set);
      const std::vector<task_span> spans = tl.read();
      std::uint64_t t0 = ~0ull, t1 = 0;
      for (const task_span& sp : spans)
      {
        t0 = std::min(t0, sp.start), t1 = std::max(t1, sp.end);
      }
      for (const task_span& sp : spans)
      {
        csv.row("%s,%zu,%u,\"%s\",%u,%s,%.3f,%.3f", name(s), n, t, b.name().c_str(), sp.sm,
                kinds[static_cast<int>(sp.kind)], (sp.start - t0) * 1e-3, (sp.end - t0) * 1e-3);
      }
      std::printf("%s N=%zu T=%u %-32s %zu tasks in %.3f ms (first task to last)  %s\n", name(s), n, t,
                  b.name().c_str(), spans.size(), (t1 - t0) * 1e-6, v.matches(ref.set) ? "ok" : v.describe().c_str());
    };
    one(dynamic_builder<ptxw::tasks::stealing, 512, 2>("stealing, 512 thr., 2 levels", false));
    one(dynamic_builder<ptxw::tasks::static_list, 512, 2>("static list, 512 thr., 2 levels", false));
    one(dynamic_builder<ptxw::tasks::lockfree_queue<ptxw::tasks::ticket_ring>, 512, 2>("ticket ring, 512 thr., 2 levels",
                                                                                       false));
  }
}

} // namespace

int main(int argc, char** argv)
{
  options o;
  if (!parse_options(argc, argv, usage, o, [&](options& opt, int& i) { return option(argc, argv, opt, i); }))
  {
    return 2;
  }
  require_device();
  cudaDeviceProp prop{};
  PTXW_BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, %d SMs; best of %d rounds\n", prop.name, prop.multiProcessorCount, o.reps);
  csv_out csv(o.csv, "mode,shape,n,t,method,threads,blocks,best_ms,spread,bound_ms,x_bound,x_loop,x_finish,x_sort,tasks,"
                      "steals,failed_cas,check");
  if (!o.timeline.empty())
  {
    timelines(o);
  }
  else if (o.sweep)
  {
    sweep(o, csv);
  }
  else
  {
    table(o, csv);
  }
  std::printf("\n%s\n", failed ? "FAILED: some output differs from the reference" : "all outputs match the reference");
  return failed ? 1 : 0;
}
