// The task pools on real trees (docs/task-queues.md, "Real trees: UTS"): the trees of the Unbalanced
// Tree Search benchmark (task_trees/uts.h, task_trees/trees.h), each searched on the GPU by
//   level loop     the level-synchronous loop (one kernel a level, CUB's scan: task_trees/level_loop.h);
//   atomic queue   a hand-written global queue of nodes in plain atomics (task_trees/atomic_queue.h);
//   pool <method>  a ptxw task pool of batches of nodes, for each method but the two the docs measure
//                  at 10^-4 of the others (nil_slots, locked_queue) (task_trees/pool_search.h);
// every one with the same node work (task_trees/expand.h): blocks of --threads threads (128 or 256)
// that expand batches of --per-thread (1, 2 or 4) nodes a thread, on the grid the GPU holds at once
// (the level loop: a block per batch of a level's nodes).
//
//   build/benchmarks/ptxw_bench_task_trees [--trees T1,T1L,T5,T3,T3L] [--rounds 3] [--threads 128]
//                                          [--per-thread 4] [--keep-first] [--cpu small|all|none]
//
// --keep-first: each pool task keeps its first child batch for its own block (pool_search.h).
// Every search's counts (nodes, leaves, depth) must equal the published ones and, for trees of
// fewer than 10^7 nodes (--cpu all: every tree; none: no tree), the CPU's (task_trees/reference.h): a
// mismatch is printed as MISMATCH and the exit status is 1.
// Timings: the best of --rounds, each contender beside the others (harness.h's best_in_turn), the
// search alone (its memory seeded before). Ratios: "x loop" is the level loop's time over this
// one's, "x queue" the atomic queue's over this one's: above 1, this one is faster.
#include <ptxw/tasks/host/pool_host.h>

#include "harness.h"
#include "task_trees/atomic_queue.h"
#include "task_trees/level_loop.h"
#include "task_trees/pool_search.h"
#include "task_trees/reference.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

namespace {
using namespace task_trees;
using ptxw_bench::device_array;
using ptxw_bench::event_timer;

struct options
{
  std::vector<std::string> trees{"T1", "T1L", "T5", "T3", "T3L"};
  long long rounds     = 3;
  long long threads    = 128;
  long long per_thread = 4;
  bool keep_first      = false;
  std::string cpu      = "small";
};

// Blocks of `kernel` the GPU holds at once at `threads` a block.
template <class Kernel>
int resident(Kernel kernel, int threads)
{
  int sms = 0, per_sm = 0;
  PTXW_BENCH_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  PTXW_BENCH_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
  return sms * per_sm;
}

// One search's result: its time, its counts and whether its memory held the tree.
struct outcome
{
  double us;
  uts::counts got;
  bool fits;
  std::string note; // what the search says of itself (a pool: its statistics)
};

template <int Threads, int Items>
class atomic_queue
{
  uts::shape shape_;
  std::size_t capacity_;
  device_array<queue_words> words_;
  device_array<uts::node> slots_;

public:
  atomic_queue(const uts::shape& s, std::size_t capacity)
      : shape_(s)
      , capacity_(capacity)
      , words_(1, "the queue's words")
      , slots_(capacity, "the queue's slots")
  {}

  outcome run(event_timer& timer, uts::counts* out)
  {
    PTXW_BENCH_CHECK(cudaMemset(slots_.get(), 0, capacity_ * sizeof(uts::node))); // no slot flagged
    uts::node root = uts::root(shape_);
    ++root.height; // the flag: published
    PTXW_BENCH_CHECK(cudaMemcpy(slots_.get(), &root, sizeof root, cudaMemcpyHostToDevice));
    queue_words w{};
    w.tail = w.ready = w.pending = 1;
    PTXW_BENCH_CHECK(cudaMemcpy(words_.get(), &w, sizeof w, cudaMemcpyHostToDevice));
    const int grid  = resident(queue_search<Threads, Items>, Threads);
    const double us = timer.us(
      [&] { queue_search<Threads, Items><<<grid, Threads>>>(words_.get(), slots_.get(), capacity_, shape_, out); });
    PTXW_BENCH_CHECK(cudaMemcpy(&w, words_.get(), sizeof w, cudaMemcpyDeviceToHost));
    return {us, ptxw_bench::download(out, 1)[0], w.overflow == 0, {}};
  }
};

// The arena every pool method searches in, one after the other.
struct arena_memory
{
  static constexpr std::size_t spill_room = 1u << 20;
  device_array<uts::node> nodes;
  device_array<std::uint32_t> words; // used, overflow, spills
  device_array<batch> spilled;
  std::uint32_t capacity;

  explicit arena_memory(std::size_t cap)
      : nodes(cap, "the arena")
      , words(3, "the arena's words")
      , spilled(spill_room, "the spilled batches")
      , capacity(static_cast<std::uint32_t>(cap))
  {}
  arena view() const
  {
    return {nodes.get(), capacity, words.get(), words.get() + 1, spilled.get(), words.get() + 2, spill_room};
  }
};

template <class Method, int Threads, int Items>
class pool_run
{
  using kernel_t = void (*)(tasks::pool<batch, Method>, arena, uts::shape, bool, uts::counts*);
  static constexpr kernel_t kernel = pool_search<Method, Threads, Items>;
  uts::shape shape_;
  arena_memory& arena_;
  bool keep_first_;
  tasks::pool_host<batch, Method> pool_;

public:
  pool_run(const uts::shape& s, arena_memory& a, bool keep_first, std::size_t capacity)
      : shape_(s)
      , arena_(a)
      , keep_first_(keep_first)
      , pool_(capacity)
  {}

  outcome run(event_timer& timer, uts::counts* out)
  {
    const uts::node root = uts::root(shape_);
    PTXW_BENCH_CHECK(cudaMemcpy(arena_.nodes.get(), &root, sizeof root, cudaMemcpyHostToDevice));
    const std::uint32_t words[3] = {1, 0, 0};
    PTXW_BENCH_CHECK(cudaMemcpy(arena_.words.get(), words, sizeof words, cudaMemcpyHostToDevice));
    const int grid = tasks::pool_host<batch, Method>::resident_grid(kernel, Threads, 0);
    pool_.reset();
    pool_.seed(batch{0, 1});
    outcome o{0, {}, true, {}};
    tasks::pool_stats total{};
    // A launch, then one for the batches it spilled (none where the capacity holds the tree), until none spills.
    for (std::uint32_t spills = 1; spills != 0;)
    {
      const auto p = pool_.prepare(grid);
      o.us += timer.us([&] { pool_.launch(p, tasks::blocks{grid}, kernel, Threads, 0, 0, arena_.view(), shape_, keep_first_, out);
      });
      const tasks::pool_stats s = pool_.stats();
      total.tasks_run += s.tasks_run;
      total.steals_won += s.steals_won;
      total.kept += s.kept;
      total.full += s.full;
      total.max_occupancy = std::max(total.max_occupancy, s.max_occupancy);
      std::uint32_t w[3];
      PTXW_BENCH_CHECK(cudaMemcpy(w, arena_.words.get(), sizeof w, cudaMemcpyDeviceToHost));
      o.fits = o.fits && w[1] == 0 && w[2] <= arena_memory::spill_room;
      spills = o.fits ? w[2] : 0;
      if (spills != 0)
      {
        const std::vector<batch> again = ptxw_bench::download(arena_.spilled.get(), spills);
        pool_.reset();
        pool_.seed(again);
        PTXW_BENCH_CHECK(cudaMemset(arena_.words.get() + 2, 0, sizeof(std::uint32_t)));
      }
    }
    o.got  = ptxw_bench::download(out, 1)[0];
    char note[160];
    std::snprintf(note, sizeof note, "%llu tasks, %.1f nodes a task; %llu stolen, %llu kept, %llu full; occupancy %llu",
                  total.tasks_run, total.tasks_run ? double(o.got.nodes) / total.tasks_run : 0.0, total.steals_won,
                  total.kept, total.full, total.max_occupancy);
    o.note = note;
    return o;
  }
};

class bench
{
  options o_;
  bool failed_ = false;

  static const uts::tree* find(const std::string& name)
  {
    for (const uts::tree& t : uts::trees)
    {
      if (name == t.name)
      {
        return &t;
      }
    }
    return nullptr;
  }

  static void print_counts(const char* what, const uts::counts& c)
  {
    std::printf("  %-10s %11llu nodes %11llu leaves  depth %llu\n", what, c.nodes, c.leaves, c.depth);
  }

  template <int Threads, int Items>
  void tree(const uts::tree& t)
  {
    std::printf("%s: %s, seed %u\n", t.name, t.what, t.s.seed);
    print_counts("published", t.published);
    if (o_.cpu == "all" || (o_.cpu == "small" && t.published.nodes < 10000000))
    {
      const auto start   = std::chrono::steady_clock::now();
      const uts::counts c = uts::count_on_cpu(t.s);
      const double s      = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      print_counts("cpu", c);
      std::printf("  (the CPU's count: %.1f s on %u threads)\n", s, std::max(1u, std::thread::hardware_concurrency()));
      if (c != t.published)
      {
        std::printf("  MISMATCH: the CPU's count is not the published one\n");
        failed_ = true;
      }
    }
    const uts::counts& want = t.published;
    const std::size_t n     = want.nodes;
    // Tasks a queue or list holds at once: the shared ones about a level of the tree in batches
    // (first in, first out; a round); a deque, its block's depth-first path and the siblings on it.
    const std::size_t shared = 1u << 20, per_block = 1u << 12;

    device_array<uts::counts> out(1, "the counts");
    event_timer timer;
    const char* names[] = {"level loop",     "atomic queue",       "pool ticket_ring",      "pool chase_lev",
                           "pool one_word", "pool static_list", "pool static_list_graph"};
    std::string notes[std::size(names)];
    // Contender i's run, its counts checked.
    auto checked = [&](int i, auto run) {
      return [&, i, run] {
        PTXW_BENCH_CHECK(cudaMemset(out.get(), 0, sizeof(uts::counts)));
        const outcome r = run();
        if (!r.fits || r.got != want)
        {
          std::printf("  MISMATCH: %s counted %llu nodes, %llu leaves, depth %llu%s\n", names[i], r.got.nodes,
                      r.got.leaves, r.got.depth, r.fits ? "" : " (its memory did not hold the tree)");
          failed_ = true;
        }
        std::fprintf(stderr, "  %s: %.3f ms\n", names[i], r.us / 1000); // progress, and every pass's figure
        notes[i] = r.note;
        return r.us;
      };
    };
    level_loop<Threads, Items> loop(t.s, n);
    atomic_queue<Threads, Items> queue(t.s, n);
    arena_memory arena(n);
    const bool keep = o_.keep_first;
    pool_run<tasks::lockfree_queue<tasks::ticket_ring>, Threads, Items> ring(t.s, arena, keep, shared);
    pool_run<tasks::stealing, Threads, Items> chase_lev(t.s, arena, keep, per_block);
    pool_run<tasks::stealing_deques<tasks::one_word>, Threads, Items> one_word(t.s, arena, keep, per_block);
    pool_run<tasks::static_list, Threads, Items> list(t.s, arena, keep, shared);
    pool_run<tasks::static_list_graph, Threads, Items> graph(t.s, arena, keep, shared);
    const auto best = ptxw_bench::best_in_turn<double>(
      static_cast<int>(o_.rounds), checked(0, [&] {
        loop.prepare();
        outcome r{0, {}, true, {}};
        r.us  = timer.us([&] { r.fits = loop.search(out.get()); });
        r.got = ptxw_bench::download(out.get(), 1)[0];
        return r;
      }),
      checked(1, [&] { return queue.run(timer, out.get()); }), checked(2, [&] { return ring.run(timer, out.get()); }),
      checked(3, [&] { return chase_lev.run(timer, out.get()); }),
      checked(4, [&] { return one_word.run(timer, out.get()); }), checked(5, [&] { return list.run(timer, out.get()); }),
      checked(6, [&] { return graph.run(timer, out.get()); }));
    std::printf("  %-24s %10s %8s %8s\n", "search", "ms", "x loop", "x queue");
    for (std::size_t i = 0; i < best.size(); ++i)
    {
      std::printf("  %-24s %10.3f %8.3f %8.3f   %s\n", names[i], best[i] / 1000, best[0] / best[i], best[1] / best[i],
                  notes[i].c_str());
    }
    std::printf("\n");
  }

  // tree<Threads, Items>, by --threads (128, 256) and --per-thread (1, 2, 4).
  static constexpr void (bench::*configurations[])(const uts::tree&) = {
    &bench::tree<128, 1>, &bench::tree<128, 2>, &bench::tree<128, 4>,
    &bench::tree<256, 1>, &bench::tree<256, 2>, &bench::tree<256, 4>};

public:
  explicit bench(const options& o)
      : o_(o)
  {}

  int run()
  {
    if ((o_.threads != 128 && o_.threads != 256) || (o_.per_thread != 1 && o_.per_thread != 2 && o_.per_thread != 4)
        || (o_.cpu != "small" && o_.cpu != "all" && o_.cpu != "none"))
    {
      std::printf("--threads is 128 or 256, --per-thread 1, 2 or 4 and --cpu small, all or none\n");
      return 2;
    }
    cudaDeviceProp prop{};
    PTXW_BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
    std::printf("%s, %d SMs; %lld threads a block, %lld nodes a thread (batches of %lld)%s; best of %lld\n\n",
                prop.name, prop.multiProcessorCount, o_.threads, o_.per_thread, o_.threads * o_.per_thread,
                o_.keep_first ? "; pools keep their first child batch" : "", o_.rounds);
    for (const std::string& name : o_.trees)
    {
      const uts::tree* t = find(name);
      if (t == nullptr)
      {
        std::printf("no tree %s\n", name.c_str());
        return 2;
      }
      (this->*configurations[(o_.threads == 256) * 3 + (o_.per_thread == 2) + 2 * (o_.per_thread == 4)])(*t);
    }
    if (failed_)
    {
      std::printf("FAILED: a search's counts are not the tree's\n");
    }
    return failed_ ? 1 : 0;
  }
};
} // namespace

int main(int argc, char** argv)
{
  return ptxw_bench::run_main<bench, options>(
    argc, argv,
    "ptxw_bench_task_trees [--trees T1,T1L,T5,T3,T3L] [--rounds N] [--threads 128|256] [--per-thread 1|2|4] "
    "[--keep-first] [--cpu small|all|none]",
    [&](options& o, int& i) {
      return ptxw_bench::list_option(argc, argv, i, "--trees", o.trees)
          || ptxw_bench::int_option(argc, argv, i, "--rounds", 1, 20, o.rounds)
          || ptxw_bench::int_option(argc, argv, i, "--threads", 128, 256, o.threads)
          || ptxw_bench::int_option(argc, argv, i, "--per-thread", 1, 4, o.per_thread)
          || ptxw_bench::flag_option(argv, i, "--keep-first", o.keep_first)
          || ptxw_bench::string_option(argc, argv, i, "--cpu", o.cpu);
    });
}
