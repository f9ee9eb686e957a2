// The task pools' queues against the raw costs they are built of, in one run (docs/task-queues.md):
//
//   build/benchmarks/ptxw_bench_task_queues
//
// 1. Throughput: binary trees of 2^18 empty tasks (64 roots, depth 11) run by every method on the
//    resident grid of 128-thread blocks; each task is one dequeue (next) and up to two enqueues
//    (push). Against it, the raw contended atom.add counter on one address: by one thread per
//    block of the same grid (what each queue operation's leader is), by every thread, and by one
//    thread per block that waits for each result before the next atomic (a queue's steps do).
//    And each queue alone: every block's leader pushes one task and takes one, repeatedly (an
//    enqueue + dequeue pair; the deque: its owner's push, publish and pop); and dequeues alone,
//    from a queue the host filled, every leader taking until it is empty.
// 2. Latency: a steal and an owner's pop of each kind of deque -- Chase-Lev (ld top, fence.sc,
//    ld.acquire bottom, the entry, CAS; pop: st bottom, fence.sc, ld top, the entry) and one_word
//    (ld.acquire the word, the entry, release CAS; pop: ld.acquire the word, CAS, the entry) --
//    one thread on an otherwise idle GPU, in units of one dependent atomic (atom.add whose address
//    depends on the previous one's result); beside them the parts: a dependent load, and one
//    after each fence.
// 3. Why a litmus test cannot catch a dropped fence.sc on this GPU: the store-buffering litmus
//    (T0: x = i; r0 = y.  T1: y = i; r1 = x), one pair of blocks per SM, with and without fence.sc
//    between the store and the load, x and y 64 B to 8 MiB apart; both loads old is a store->load
//    reordering.
// Timings: best of 3, each contender beside the others (harness.h's best_in_turn); a pool's launch
// is timed alone (its seeding, pool_host::prepare, before it).
#include <ptxw/tasks/host/pool_host.h>

#include "harness.h"

#include <cstdio>
#include <vector>

namespace {
namespace tasks = ptxw::tasks;
using ptxw_bench::best_in_turn;
using ptxw_bench::event_timer;

struct job
{
  unsigned depth;
};

constexpr unsigned kRoots = 64, kDepth = 11, kThreads = 128;
constexpr unsigned long long kTasks = static_cast<unsigned long long>(kRoots) * ((2ull << kDepth) - 1);

template <class Method>
__global__ void binary_tree(tasks::pool<job, Method> p, unsigned* dropped)
{
  __shared__ tasks::worker_slot<job, Method, 32> slot;
  auto w = p.join(slot);
  while (auto t = w.next())
  {
    auto kids = w.fork(t, 2);
    if (threadIdx.x < 2 && t->depth < kDepth)
    {
      const job c{t->depth + 1};
      if (kids.push(c) == tasks::push_result::full && kids.keep(c) == tasks::push_result::full)
      {
        atomicAdd(dropped, 1u);
      }
    }
    w.retire(std::move(t), std::move(kids));
  }
}

// `iters` fetch-and-adds on one counter by `clients` threads of every block (1: thread 0, one a
// warp, every thread); where `dependent`, each waits for the one before (its value feeds the next),
// as a queue's steps do.
__global__ void contended_add(unsigned long long* counter, unsigned long long* sink, int iters, unsigned clients,
                              bool dependent = false)
{
  if (threadIdx.x % (blockDim.x / clients) != 0)
  {
    return;
  }
  unsigned long long acc = 0;
  for (int i = 0; i < iters; ++i)
  {
    acc += atomicAdd(counter, dependent ? 1ull + (acc >> 63) : 1ull);
  }
  if (acc == 42)
  {
    *sink = acc;
  }
}

// One thread's end of a pool's queue, driven by the method's own steps (no live count, no
// hand-over to the block).
template <class Method>
struct queue_client
{
  using backend = ptxw::detail::tasks::backend<job, Method>;
  const tasks::pool<job, Method>& p;
  typename backend::local l{};
  tasks::counters c{};
  ptxw::detail::tasks::entry<job> e;

  __device__ explicit queue_client(const tasks::pool<job, Method>& pool)
      : p(pool)
  {
    backend::open(p, l);
  }
  __device__ bool push()
  {
    if (!backend::push(p, backend::reserve(p, l), 0, job{1}))
    {
      return false;
    }
    backend::publish(p, l, 1);
    return true;
  }
  __device__ bool take()
  {
    return backend::take(p, l, e, c) == ptxw::detail::tasks::taken::got;
  }
};

// Every block's leader: `n` pairs of one push and one take.
template <class Method>
__global__ void push_take_pairs(tasks::pool<job, Method> p, int n, unsigned* missed)
{
  if (threadIdx.x != 0)
  {
    return;
  }
  queue_client<Method> q(p);
  unsigned misses = 0;
  for (int i = 0; i < n; ++i)
  {
    if (!q.push())
    {
      ++misses;
      continue;
    }
    while (!q.take())
    {
    }
  }
  atomicAdd(missed, misses);
}

// `clients` threads of every block (1: thread 0; one a warp) take until the queue the host filled
// is empty; `got` counts the takes.
template <class Method>
__global__ void takes_only(tasks::pool<job, Method> p, unsigned* got, unsigned clients)
{
  if (threadIdx.x % (blockDim.x / clients) != 0)
  {
    return;
  }
  queue_client<Method> q(p);
  unsigned n = 0;
  while (q.take())
  {
    n += q.e.value.depth;
  }
  atomicAdd(got, n);
}

// 3. The store-buffering litmus, one pair of blocks per SM; iteration i's values are i, so a load
// that returns less than i read before the other's store.
__global__ void store_buffering(long long* words, long long* results, int iters, long long stride,
                                unsigned long long* both_old, bool fence)
{
  namespace isa = ptxw::detail::isa;
  if (threadIdx.x != 0)
  {
    return;
  }
  const int pair = blockIdx.x / 2, me = blockIdx.x % 2;
  long long* x        = words + static_cast<long long>(pair) * 2 * stride;
  long long* mine     = me ? x + stride : x;
  long long* other    = me ? x : x + stride;
  long long* my_r     = results + (2ll * pair + me) * iters;
  long long* other_r  = results + (2ll * pair + 1 - me) * iters;
  unsigned long long old = 0;
  for (int i = 1; i <= iters; ++i)
  {
    isa::st_relaxed(mine, static_cast<long long>(i));
    if (fence)
    {
      isa::fence_sc();
    }
    const long long r = isa::ld_relaxed(other);
    isa::st_relaxed(my_r + i - 1, r + 1);
    long long theirs;
    while ((theirs = isa::ld_relaxed(other_r + i - 1)) == 0)
    {
    }
    old += me == 0 && r < i && theirs - 1 < i;
  }
  if (me == 0)
  {
    atomicAdd(both_old, old);
  }
}

__device__ unsigned long long elapsed_ns[1];

// One thread: `n` steps, each one's address depending on the previous one's result: an atom.add,
// or an ld.relaxed.gpu alone, after a fence.sc.gpu, or after a fence.acq_rel.gpu.
enum class step
{
  atomic,
  load,
  fence_sc_load,
  fence_acq_rel_load
};
template <step S>
__global__ void dependent_steps(unsigned long long* words, int n)
{
  namespace isa                = ptxw::detail::isa;
  unsigned long long x         = 0;
  const unsigned long long t0 = ptxw::checked::now_ns();
  for (int i = 0; i < n; ++i)
  {
    if constexpr (S == step::atomic)
    {
      x = atomicAdd(words + (x >> 62), 1ull);
    }
    else
    {
      if constexpr (S == step::fence_sc_load)
      {
        isa::fence_sc();
      }
      else if constexpr (S == step::fence_acq_rel_load)
      {
        cuda::ptx::fence(cuda::ptx::sem_acq_rel, cuda::ptx::scope_gpu);
      }
      x = isa::ld_relaxed(words + (x >> 62));
    }
  }
  elapsed_ns[0] = ptxw::checked::now_ns() - t0 + (x == 7 ? 1 : 0);
}

// One thread: `n` steals (or pops) from deque 0, seeded with at least n tasks.
template <class Method, bool Steal>
__global__ void one_thread_takes(tasks::pool<job, Method> p, int n, unsigned* got)
{
  using backend = ptxw::detail::tasks::backend<job, Method>;
  typename backend::local l{};
  backend::open(p, l);
  tasks::counters c{};
  ptxw::detail::tasks::entry<job> e;
  unsigned sum                 = 0;
  const unsigned long long t0 = ptxw::checked::now_ns();
  for (int i = 0; i < n; ++i)
  {
    const bool ok = Steal ? backend::steal(p, l, 0, e, c) : backend::pop(p, l, e, c);
    sum += ok ? 1u + e.value.depth : 0u;
  }
  elapsed_ns[0] = ptxw::checked::now_ns() - t0;
  *got          = sum;
}

template <class Method>
struct contender
{
  const char* name;
  std::size_t capacity;
  tasks::pool_host<job, Method> pool;
  ptxw_bench::device_array<unsigned> dropped;
  event_timer timer;
  tasks::pool_stats last{};

  contender(const char* n, std::size_t cap)
      : name(n)
      , capacity(cap)
      , pool(cap)
  {
    dropped.reserve(1);
    pool.seed(std::vector<job>(kRoots, job{0}));
  }
  double us()
  {
    PTXW_BENCH_CHECK(cudaMemset(dropped.get(), 0, sizeof(unsigned)));
    // Seeded as pool_host::launch does it, outside the timing; the resident grid, launched alone.
    const int grid = pool.resident_grid(binary_tree<Method>, kThreads, 0);
    const auto p   = pool.prepare(grid);
    const double t =
      timer.us([&] { pool.launch(p, tasks::blocks{grid}, binary_tree<Method>, kThreads, 0, 0, dropped.get()); });
    last           = pool.stats();
    const unsigned d = ptxw_bench::download(dropped.get(), 1)[0];
    if (last.tasks_run != kTasks || d != 0)
    {
      std::fprintf(stderr, "%s: %llu tasks run of %llu, %u dropped\n", name, last.tasks_run, kTasks, d);
      std::exit(1);
    }
    std::fprintf(stderr, "  %s: %.1f us\n", name, t); // progress, and every pass's figure
    return t;
  }
};
} // namespace

int main()
{
  ptxw_bench::require_device();
  cudaDeviceProp prop{};
  PTXW_BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, %d SMs; %llu tasks (binary tree: %u roots, depth %u), %u threads per block\n\n", prop.name,
              prop.multiProcessorCount, kTasks, kRoots, kDepth, kThreads);

  // 1. Throughput.
  using one_word = tasks::stealing_deques<tasks::one_word>;
  contender<tasks::stealing> stealing("stealing", 64);
  contender<one_word> packed("stealing_deques<one_word>", 64);
  contender<tasks::lockfree_queue<tasks::ticket_ring>> ring("lockfree_queue<ticket_ring>", 1u << 18);
  contender<tasks::lockfree_queue<tasks::nil_slots>> nil("lockfree_queue<nil_slots>", 1u << 18);
  contender<tasks::locked_queue> locked("locked_queue", 1u << 18);
  contender<tasks::static_list> list("static_list", 1u << 18);
  contender<tasks::static_list_graph> graph("static_list_graph", 1u << 18);
  const int grid = stealing.pool.resident_grid(binary_tree<tasks::stealing>, kThreads, 0);
  ptxw_bench::device_array<unsigned long long> counter, sink;
  counter.reserve(4);
  sink.reserve(1);
  event_timer t;
  const int leader_iters = 2000, thread_iters = 200;
  const auto best        = best_in_turn<double>(
    3, [&] { return stealing.us(); }, [&] { return packed.us(); }, [&] { return ring.us(); },
    [&] { return nil.us(); },
    [&] { return locked.us(); }, [&] { return list.us(); }, [&] { return graph.us(); },
    [&] { return t.us([&] { contended_add<<<grid, kThreads>>>(counter.get(), sink.get(), leader_iters, 1); }); },
    [&] {
      return t.us([&] { contended_add<<<grid, kThreads>>>(counter.get(), sink.get(), thread_iters, kThreads); });
    },
    [&] { return t.us([&] { contended_add<<<grid, kThreads>>>(counter.get(), sink.get(), leader_iters, 1, true); }); });
  PTXW_BENCH_CHECK(cudaGetLastError());
  constexpr int pools      = 7; // best[pools ...]: the counters
  const double leader_ops = static_cast<double>(grid) * leader_iters / best[pools] * 1e6;
  const double thread_ops = static_cast<double>(grid) * kThreads * thread_iters / best[pools + 1] * 1e6;
  const double chain_ops  = static_cast<double>(grid) * leader_iters / best[pools + 2] * 1e6;
  std::printf("grid %d blocks (resident)                time      tasks/s   / counter (1 leader per block)   "
              "steals won   failed CAS   max occupancy\n",
              grid);
  const tasks::pool_stats* stats[] = {&stealing.last, &packed.last, &ring.last, &nil.last,
                                      &locked.last,   &list.last,   &graph.last};
  const char* names[] = {stealing.name, packed.name, ring.name, nil.name, locked.name, list.name, graph.name};
  for (int i = 0; i < pools; ++i)
  {
    const double rate = kTasks / best[i] * 1e6;
    std::printf("%-36s %9.1f us  %9.3g   %6.3f   %28llu %12llu %15llu\n", names[i], best[i], rate, rate / leader_ops,
                stats[i]->steals_won, stats[i]->failed_cas, stats[i]->max_occupancy);
  }
  std::printf("%-36s %9.1f us  %9.3g ops/s (%d per leader)\n", "atom.add counter, 1 leader per block", best[pools],
              leader_ops, leader_iters);
  std::printf("%-36s %9.1f us  %9.3g ops/s (%d per thread)\n", "atom.add counter, every thread", best[pools + 1],
              thread_ops, thread_iters);
  std::printf("%-36s %9.1f us  %9.3g ops/s (%d per leader, each waiting for the last)\n\n",
              "atom.add counter, 1 leader, dependent", best[pools + 2], chain_ops, leader_iters);

  // 1b. Each queue alone.
  const int pairs_per_leader = 100;
  ptxw_bench::device_array<unsigned> missed;
  missed.reserve(1);
  auto pairs_us = [&](auto& c, auto kernel) {
    c.pool.reset();
    const auto p = c.pool.prepare(grid);
    PTXW_BENCH_CHECK(cudaMemset(missed.get(), 0, sizeof(unsigned)));
    const double us = t.us([&] { kernel<<<grid, kThreads>>>(p, pairs_per_leader, missed.get()); });
    if (ptxw_bench::download(missed.get(), 1)[0] != 0)
    {
      std::fprintf(stderr, "%s: a push found the queue full\n", c.name);
      std::exit(1);
    }
    return us;
  };
  const auto alone = best_in_turn<double>(
    3, [&] { return pairs_us(stealing, push_take_pairs<tasks::stealing>); },
    [&] { return pairs_us(packed, push_take_pairs<one_word>); },
    [&] { return pairs_us(ring, push_take_pairs<tasks::lockfree_queue<tasks::ticket_ring>>); },
    [&] { return pairs_us(nil, push_take_pairs<tasks::lockfree_queue<tasks::nil_slots>>); },
    [&] { return pairs_us(locked, push_take_pairs<tasks::locked_queue>); });
  PTXW_BENCH_CHECK(cudaGetLastError());
  std::printf("each queue alone: %d leaders x %d (push + take)        time   pairs/s   / counter (1 leader per "
              "block)\n",
              grid, pairs_per_leader);
  const char* queue_names[] = {"stealing (own deque: push, publish, pop)", "one_word (own deque: push, publish, pop)",
                               ring.name, nil.name, locked.name};
  for (int i = 0; i < 5; ++i)
  {
    const double rate = static_cast<double>(grid) * pairs_per_leader / alone[i] * 1e6;
    std::printf("%-44s %9.1f us  %9.3g   %6.3f\n", queue_names[i], alone[i], rate, rate / leader_ops);
  }
  std::printf("\n");

  // 1c. Dequeues alone, by one client a block (the pool's leaders) and one a warp; the counter
  // again, by one thread a warp.
  const std::vector<job> filled(static_cast<std::size_t>(grid) * pairs_per_leader, job{1});
  constexpr unsigned warps = kThreads / 32;
  auto takes_us = [&](auto& c, auto kernel, unsigned clients = 1) {
    c.pool.reset();
    c.pool.seed(filled);
    const auto p = c.pool.prepare(grid);
    PTXW_BENCH_CHECK(cudaMemset(missed.get(), 0, sizeof(unsigned)));
    const double us = t.us([&] { kernel<<<grid, kThreads>>>(p, missed.get(), clients); });
    if (ptxw_bench::download(missed.get(), 1)[0] != filled.size())
    {
      std::fprintf(stderr, "%s: the takes did not get every task\n", c.name);
      std::exit(1);
    }
    return us;
  };
  const auto takes = best_in_turn<double>(
    3, [&] { return takes_us(ring, takes_only<tasks::lockfree_queue<tasks::ticket_ring>>); },
    [&] { return takes_us(nil, takes_only<tasks::lockfree_queue<tasks::nil_slots>>); },
    [&] { return takes_us(locked, takes_only<tasks::locked_queue>); },
    [&] { return takes_us(ring, takes_only<tasks::lockfree_queue<tasks::ticket_ring>>, warps); },
    [&] {
      return t.us([&] { contended_add<<<grid, kThreads>>>(counter.get(), sink.get(), leader_iters / 4, warps, true); });
    });
  PTXW_BENCH_CHECK(cudaGetLastError());
  const double warp_ops = static_cast<double>(grid) * warps * (leader_iters / 4) / takes[4] * 1e6;
  std::printf("dequeues alone: %zu tasks taken                          time   takes/s   / counter (same clients)\n",
              filled.size());
  const char* fifo_names[] = {"ticket_ring, 1 client a block", "nil_slots, 1 client a block",
                              "locked_queue, 1 client a block", "ticket_ring, 1 client a warp"};
  for (int i = 0; i < 4; ++i)
  {
    const double rate = static_cast<double>(filled.size()) / takes[i] * 1e6;
    std::printf("%-44s %9.1f us  %9.3g   %6.3f\n", fifo_names[i], takes[i], rate, rate / (i < 3 ? leader_ops : warp_ops));
  }
  std::printf("%-44s %9.1f us  %9.3g ops/s (%d per client, each waiting for the last)\n",
              "atom.add counter, 1 client a warp", takes[4], warp_ops, leader_iters / 4);
  std::printf("\n");

  // 2. Latency.
  const int n = 20000;
  ptxw_bench::device_array<unsigned> got;
  got.reserve(1);
  unsigned long long ns = 0, part_ns[3] = {};
  PTXW_BENCH_CHECK(cudaMemset(counter.get(), 0, 4 * sizeof(unsigned long long)));
  dependent_steps<step::atomic><<<1, 1>>>(counter.get(), n);
  PTXW_BENCH_CHECK(cudaMemcpyFromSymbol(&ns, elapsed_ns, sizeof ns));
  dependent_steps<step::load><<<1, 1>>>(counter.get(), n);
  PTXW_BENCH_CHECK(cudaMemcpyFromSymbol(&part_ns[0], elapsed_ns, sizeof ns));
  dependent_steps<step::fence_sc_load><<<1, 1>>>(counter.get(), n);
  PTXW_BENCH_CHECK(cudaMemcpyFromSymbol(&part_ns[1], elapsed_ns, sizeof ns));
  dependent_steps<step::fence_acq_rel_load><<<1, 1>>>(counter.get(), n);
  PTXW_BENCH_CHECK(cudaMemcpyFromSymbol(&part_ns[2], elapsed_ns, sizeof ns));
  const double dep = static_cast<double>(ns) / n;
  std::printf("latency, one thread, idle GPU        ns     / dependent atomic\n");
  std::printf("%-36s %6.1f   %6.2f\n", "dependent atom.add", dep, 1.0);
  // `n` pops, then `n` steals, by one thread from a deque of the kind seeded with n tasks.
  auto takes_ns = [&](auto method, const char* pop_name, const char* steal_name) {
    using Method = decltype(method);
    for (int steal = 0; steal < 2; ++steal)
    {
      tasks::pool_host<job, Method> deque(1u << 15);
      deque.seed(std::vector<job>(n, job{1}));
      const auto p = deque.prepare(1);
      if (steal)
      {
        one_thread_takes<Method, true><<<1, 1>>>(p, n, got.get());
      }
      else
      {
        one_thread_takes<Method, false><<<1, 1>>>(p, n, got.get());
      }
      unsigned long long t = 0;
      PTXW_BENCH_CHECK(cudaMemcpyFromSymbol(&t, elapsed_ns, sizeof t));
      if (ptxw_bench::download(got.get(), 1)[0] != 2u * n)
      {
        std::fprintf(stderr, "%s: not every take got a task\n", steal ? steal_name : pop_name);
        std::exit(1);
      }
      std::printf("%-36s %6.1f   %6.2f\n", steal ? steal_name : pop_name, t / double(n), t / double(n) / dep);
    }
  };
  takes_ns(tasks::stealing{}, "pop (chase_lev: fence.sc)", "steal (chase_lev: fence.sc + CAS)");
  takes_ns(one_word{}, "pop (one_word: acquire + CAS)", "steal (one_word: acquire + CAS)");
  const char* parts[] = {"dependent ld.relaxed.gpu", "fence.sc.gpu + dependent load", "fence.acq_rel.gpu + dependent load"};
  for (int i = 0; i < 3; ++i)
  {
    std::printf("%-36s %6.1f   %6.2f\n", parts[i], part_ns[i] / double(n), part_ns[i] / double(n) / dep);
  }

  // 3. Store->load reordering.
  const int sb_pairs = prop.multiProcessorCount, sb_iters = 50000;
  ptxw_bench::device_array<long long> words, results;
  ptxw_bench::device_array<unsigned long long> both_old;
  results.reserve(static_cast<std::size_t>(sb_pairs) * 2 * sb_iters);
  both_old.reserve(1);
  std::printf("\nstore-buffering litmus, %d pairs x %d runs    both loads old (store->load reordered)\n", sb_pairs,
              sb_iters);
  for (long long stride : {8ll, 64ll, 8192ll, 1ll << 20})
  {
    words.reserve(static_cast<std::size_t>(sb_pairs) * 2 * stride);
    for (bool fence : {false, true})
    {
      PTXW_BENCH_CHECK(cudaMemset(words.get(), 0, static_cast<std::size_t>(sb_pairs) * 2 * stride * sizeof(long long)));
      PTXW_BENCH_CHECK(
        cudaMemset(results.get(), 0, static_cast<std::size_t>(sb_pairs) * 2 * sb_iters * sizeof(long long)));
      PTXW_BENCH_CHECK(cudaMemset(both_old.get(), 0, sizeof(unsigned long long)));
      store_buffering<<<2 * sb_pairs, 32>>>(words.get(), results.get(), sb_iters, stride, both_old.get(), fence);
      std::printf("x, y %8lld B apart, %-18s %llu of %d\n", stride * 8, fence ? "fence.sc between:" : "no fence:",
                  ptxw_bench::download(both_old.get(), 1)[0], sb_pairs * sb_iters);
    }
  }
  PTXW_BENCH_CHECK(cudaGetLastError());
  return 0;
}
