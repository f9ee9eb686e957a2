// examples/octree/dynamic.h: the dynamic builder, written once against ptxw::tasks with the
// method as a template argument. A task is a node, or a chunk of one:
//   count <= S (> T)    one block finishes the node's whole subtree in shared memory (finish.h):
//                       no pushes;
//   count <= C          one block splits it (count into shared memory, prefix, scatter through
//                       shared cursors) and forks its descendants (descend.h);
//   count >  C, S       ceil(count / C) chunk tasks share a join (GPU-Quicksort's phase 1, so
//                       the top of the tree is not a one-block job): each counts tiles of the
//                       node into the join; the last to arrive (the last-block guard at task
//                       scope, ptxw::tasks::join_point) turns the counts into cursors and forks
//                       the scatter chunks; each scatters tiles through the join's cursors; the
//                       last to arrive forks the node's descendants.
// A chunk task is not a fixed range: it claims the node's particles from the join, with every other
// chunk task of the node and phase, until none are left (as the level loop+finish's blocks stream a
// level's tiles), so a phase ends within a claim of its work on every block, however many chunk
// tasks there are for how many blocks (305 chunks of 32K on 132 blocks ran in three waves, the
// third a third full). The count claims by warp (1024 particles: no block barrier between claims, which would
// drain the loads in flight); the scatter by block tile (a tile reserves its buckets' runs with one
// atomic each).
// A split takes `Levels` levels of the tree at once (8^Levels buckets, descend.h): one pass over
// the node's particles moves them to their descendants Levels levels down.
// Chunk tasks travel in batches (task_node::chunks); a batch of several splits when taken.
// Stealing forks a child's chunks as one batch and splits a batch in 8 (every task in a deque is
// one more steal from it: a thief takes an eighth of a node's chunks, and they spread over the grid
// in log8 steps instead of all waiting in the deque of the block that forked them); the shared
// queues and lists fork every chunk at once (each split would cost a round, or a trip through the
// queue).
// Descendants of at most T particles (or at max_depth) are leaves, appended with one atomic a task
// and copied to the output where they lie in buffer b. The paper-faithful form is the same kernel
// with C and S off: one block per node, whatever its size. Given a timeline (timeline.h), every
// task leaves a span: its SM, its kind, its start and end.
#pragma once

#include <ptxw/tasks.h>
#include <ptxw/tasks/host/pool_host.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "device.h"
#include "descend.h"
#include "finish.h"
#include "tile.h"
#include "timeline.h"

namespace octree
{

enum class phase : std::uint32_t
{
  whole,
  count,
  scatter
};

struct task_node
{
  node n;
  std::uint32_t join; // chunks: their node's join
  std::uint32_t chunks; // chunks: how many of the node's ceil(count / C) chunk tasks this task stands for
  phase step;
};

template <int Levels>
struct join_state
{
  std::uint32_t counts[buckets_of(Levels)], cursors[buckets_of(Levels)];
  // The node's chunk tasks, per phase: the last to arrive goes on (ptxw/tasks/join.h).
  ptxw::tasks::join_point counted, scattered;
  std::uint32_t claimed[2]; // claims handed out to the chunks, per phase (count: warp_claim particles; scatter: a tile)

  // One thread, before the node's n chunk tasks are pushed, through the fork that pushes their
  // first range (the rest is zeroed before the launch).
  template <class Kids>
  __device__ void open(const Kids& kids, std::uint32_t n)
  {
    kids.open(counted, n);
    kids.open(scattered, n);
  }
};

struct dynamic_config
{
  std::uint32_t t;
  std::uint32_t chunk; // C: nodes above it (and above S) are split in chunks; ~0u: never
  std::uint32_t finish; // S: nodes up to it are finished in shared memory; 0: never

  // Whether a node of `count` particles is split in chunks of C. A node the finish takes never is,
  // whatever C: splits stay at depths that are multiples of Levels, where output.h's buffers
  // expect them.
  __host__ __device__ bool chunked(std::uint32_t count) const
  {
    return count > chunk && count > finish;
  }
};

template <int Levels>
struct dynamic_args
{
  buffers buf;
  leaf_out out;
  join_state<Levels>* joins;
  std::uint32_t* joins_used;
  std::uint32_t* dropped; // children neither pushed nor kept: must stay 0
  dynamic_config cfg;
  timeline_view tl; // spans: nullptr but for a timeline run
};

// C: 32K, between the benchmark's C=64K and C=16K rows, which measure the choice. With claims, C
// sets how many blocks can work on one node at once, against the cost of chunk tasks that find nothing left to claim.
inline constexpr std::uint32_t default_chunk = 32768;

template <int Threads, int Levels = 1>
struct dynamic_block
{
  using split_tile              = tile_split<Threads, 8, Levels>;
  static constexpr int buckets = split_tile::buckets;
  using args                   = dynamic_args<Levels>;

  struct storage
  {
    typename split_tile::storage tile;
    std::uint32_t counts[buckets], cursors[buckets];
    node kids[buckets]; // where descend stopped, in key order (at most one a bucket)
    bool kid_leaf[buckets];
    std::uint32_t n_kids, leaf_base, tasks, claim, claimed[2];
  };

  // Parts a child's chunks are forked in, and a taken range of chunks (the header's comment says why).
  template <class Method>
  static constexpr bool stealing = ptxw::tasks::is_stealing_v<Method>;
  template <class Method>
  static constexpr std::uint32_t kid_parts = stealing<Method> ? 1 : Threads;
  template <class Method>
  static constexpr std::uint32_t range_parts = stealing<Method> ? 8 : Threads;
  // Particles a warp counts at once, and claims at a time in a chunk's count (the header's comment
  // says why).
  static constexpr std::uint32_t warp_tile  = 32 * split_tile::size / Threads;
  static constexpr std::uint32_t warp_claim = 4 * warp_tile;

  __device__ static std::uint32_t parts(std::uint32_t range, std::uint32_t most)
  {
    return min(range, most);
  }

  // Part i of `parts` of the chunk tasks r stands for.
  __device__ static task_node part(const task_node& r, std::uint32_t i, std::uint32_t parts)
  {
    return task_node{r.n, r.join, r.chunks * (i + 1) / parts - r.chunks * i / parts, r.step};
  }

  __host__ __device__ static std::uint32_t chunks(std::uint32_t count, std::uint32_t c)
  {
    return (count + c - 1) / c;
  }

  // Thread 0, after the split of node nd (bucket counts in s.counts): its descendants into s.kids
  // (descend.h; the walk also stops at nodes the finish takes), s.tasks = the tasks the others make
  // (a chunked one: its chunks in up to kid_parts parts), and the leaves' first slot in s.leaf_base
  // (one atomic).
  __device__ static void
  plan(storage& s, const node& nd, const dynamic_config& cfg, std::uint32_t kid_parts, const leaf_out& out)
  {
    std::uint32_t leaves = 0;
    s.n_kids             = 0;
    s.tasks              = 0;
    descend<Levels>::each(s.counts, nd, depth_of(nd.code), cfg.t, [&](std::uint32_t c) { return c <= cfg.finish; },
                          [&](const node& ch, bool is_leaf) {
                            s.kids[s.n_kids]       = ch;
                            s.kid_leaf[s.n_kids++] = is_leaf;
                            leaves += is_leaf;
                            s.tasks += is_leaf ? 0 : cfg.chunked(ch.count) ? parts(chunks(ch.count, cfg.chunk), kid_parts) : 1;
                          });
    s.leaf_base = leaves != 0 ? atomicAdd(out.count, leaves) : 0;
  }

  // Every thread, after plan() and a barrier: each leaf of s.kids written and copied to the
  // output where it lies in buffer b (by the block, one after another); then thread i mod Threads
  // calls inner(kid) for every other kid i, the threads at once (a loop over the kids with one
  // thread at work in each step runs a warp's kids, and their pushes' atomics, one after another).
  template <class Inner>
  __device__ static void for_each_child(const storage& s, const buffers& buf, const leaf_out& out, Inner inner)
  {
    for (std::uint32_t i = 0, rank = 0; i < s.n_kids; ++i)
    {
      const node& ch = s.kids[i];
      if (s.kid_leaf[i])
      {
        settle_leaf(buf, depth_of(ch.code), ch.begin, ch.count, threadIdx.x, Threads);
        if (threadIdx.x == 0)
        {
          out.leaves[s.leaf_base + rank] = leaf{ch.code, ch.begin, ch.count};
        }
        ++rank;
      }
    }
    for (std::uint32_t i = threadIdx.x; i < s.n_kids; i += Threads)
    {
      if (!s.kid_leaf[i])
      {
        inner(s.kids[i]);
      }
    }
  }

  // The descendants of node nd (bucket counts in s.counts): leaves appended and settled, the
  // others pushed (or kept; `dropped` if neither). Every thread; forks and retires t.
  template <std::uint32_t Parts, class Worker, class Ticket>
  __device__ static void children(storage& s, Worker& w, Ticket&& t, const node& nd, const args& a)
  {
    if (threadIdx.x == 0)
    {
      plan(s, nd, a.cfg, Parts, a.out);
    }
    __syncthreads();
    auto kids = w.fork(t, s.tasks);
    for_each_child(s, a.buf, a.out, [&](const node& ch) {
      if (!a.cfg.chunked(ch.count))
      {
        push(kids, task_node{ch, 0, 0, phase::whole}, a);
        return;
      }
      const task_node r{ch, atomicAdd(a.joins_used, 1u), chunks(ch.count, a.cfg.chunk), phase::count};
      a.joins[r.join].open(kids, r.chunks); // before its chunks are pushed, by this thread
      const std::uint32_t n = parts(r.chunks, Parts);
      for (std::uint32_t i = 0; i < n; ++i)
      {
        push(kids, part(r, i, n), a);
      }
    });
    w.retire(static_cast<Ticket&&>(t), static_cast<decltype(kids)&&>(kids));
  }

  // Every thread: forks the chunk tasks r stands for in up to Parts parts and retires t.
  template <std::uint32_t Parts, class Worker, class Ticket>
  __device__ static void fork_range(Worker& w, Ticket&& t, const task_node& r, const args& a)
  {
    const std::uint32_t n = parts(r.chunks, Parts);
    auto kids             = w.fork(t, n);
    if (threadIdx.x < n)
    {
      push(kids, part(r, threadIdx.x, n), a);
    }
    w.retire(static_cast<Ticket&&>(t), static_cast<decltype(kids)&&>(kids));
  }

  template <class Kids>
  __device__ static void push(Kids& kids, const task_node& c, const args& a)
  {
    if (kids.push(c) == ptxw::tasks::push_result::full && kids.keep(c) == ptxw::tasks::push_result::full)
    {
      atomicAdd(a.dropped, 1u);
    }
  }

  // The partition steps, each its own function (not inlined): the task loop around them keeps few
  // registers live, so the kernel fits 128 registers a thread without spilling in the streaming loops.
  // Each works on the particles of node nd that it claims from *claimed: a chunk task from its
  // join's (every chunk task of the node and phase shares the claims), a one-block split from the
  // block's own (s.claimed). The next claim is in flight while the claimer works on one.
  // Count: each warp claims warp_claim particles at a time, counted into `counts`.
  __device__ __noinline__ static void count_claimed(storage& s, std::uint32_t* claimed, const float4* src,
                                                    const std::uint16_t* ahead, const node& nd, int depth,
                                                    std::uint32_t* counts)
  {
    const unsigned lane = threadIdx.x & 31;
    split_tile::zero(s.tile);
    std::uint32_t next = lane == 0 ? atomicAdd(claimed, 1u) : 0;
    for (;;)
    {
      const std::uint32_t first = __shfl_sync(~0u, next, 0) * warp_claim;
      if (first >= nd.count)
      {
        break;
      }
      if (lane == 0)
      {
        next = atomicAdd(claimed, 1u);
      }
      const std::uint32_t last = min(first + warp_claim, nd.count);
      for (std::uint32_t i = first; i < last; i += warp_tile)
      {
        split_tile::template count_tile<32>(s.tile, src, ahead, nd.begin + i, last - i, depth, lane);
      }
    }
    split_tile::flush(s.tile, counts);
  }

  // Scatter: the block claims a tile at a time, placed through `cursors`.
  __device__ __noinline__ static void scatter_claimed(storage& s, float4* stage, std::uint32_t* claimed,
                                                      const float4* src, float4* dst, std::uint16_t* ahead,
                                                      const node& nd, int depth, std::uint32_t* cursors)
  {
    std::uint32_t next = threadIdx.x == 0 ? atomicAdd(claimed, 1u) : 0;
    for (;;)
    {
      __syncthreads(); // every thread has read s.claim
      if (threadIdx.x == 0)
      {
        s.claim = next;
        next    = atomicAdd(claimed, 1u);
      }
      __syncthreads();
      const std::uint32_t first = s.claim * split_tile::size;
      if (first >= nd.count)
      {
        return;
      }
      split_tile::scatter(s.tile, stage, src, dst, ahead, nd.begin + first, nd.count - first, depth, cursors);
    }
  }

  // Every thread: the block alone counts or scatters every particle of nd (claims of its own; the
  // claimers of a previous use have passed a barrier since).
  __device__ static void count_own(storage& s, const split_io& io, const node& nd, int depth, std::uint32_t* counts)
  {
    if (threadIdx.x == 0)
    {
      s.claimed[0] = 0; // the count's first barrier orders it before any warp's claim
    }
    count_claimed(s, &s.claimed[0], io.src, io.ahead, nd, depth, counts);
  }

  __device__ static void scatter_own(storage& s, float4* stage, const split_io& io, const node& nd, int depth,
                                     std::uint32_t* cursors)
  {
    if (threadIdx.x == 0)
    {
      s.claimed[1] = 0; // only thread 0 claims
    }
    scatter_claimed(s, stage, &s.claimed[1], io.src, io.dst, io.ahead_dst, nd, depth, cursors);
  }

  // One block splits a whole node: counts into s.counts, cursors, scatter.
  __device__ static void split_node(storage& s, float4* stage, const node& nd, const split_io& io, int depth)
  {
    for (int o = threadIdx.x; o < buckets; o += Threads)
    {
      s.counts[o] = 0;
    }
    count_own(s, io, nd, depth, s.counts);
    __syncthreads();
    if (threadIdx.x == 0)
    {
      split_tile::cursors([&](int o) { return s.counts[o]; }, s.cursors, nd.begin);
    }
    __syncthreads();
    scatter_own(s, stage, io, nd, depth, s.cursors);
  }

  template <class Method>
  __device__ static void run(ptxw::tasks::pool<task_node, Method> p, const args& a, unsigned char* smem)
  {
    __shared__ ptxw::tasks::worker_slot<task_node, Method> slot;
    __shared__ storage s;
    float4* const stage = reinterpret_cast<float4*>(smem); // a split's (the finish's storage otherwise)
    auto w = p.join(slot);
    while (auto t = w.next())
    {
      const task_node tn = *t;
      span_scope span(a.tl);
      const node& nd     = tn.n;
      const int depth    = depth_of(nd.code);
      const split_io io  = a.buf.io(depth);
      if (tn.step == phase::whole && nd.count <= a.cfg.finish)
      {
        span.kind = span_kind::finish;
        block_finish<Threads>::run(*reinterpret_cast<typename block_finish<Threads>::storage*>(smem), nd, a.buf, a.out,
                                   a.cfg.t);
        w.retire(std::move(t));
      }
      else if (tn.step == phase::whole)
      {
        span.kind = span_kind::split;
        split_node(s, stage, nd, io, depth);
        children<kid_parts<Method>>(s, w, std::move(t), nd, a);
      }
      else if (tn.chunks > 1) // a part of several chunks: split again
      {
        span.kind = span_kind::range;
        fork_range<range_parts<Method>>(w, std::move(t), tn, a);
      }
      else
      {
        join_state<Levels>& j = a.joins[tn.join];
        const std::uint32_t n = chunks(nd.count, a.cfg.chunk);
        if (tn.step == phase::count)
        {
          span.kind = span_kind::count;
          count_claimed(s, &j.claimed[0], io.src, io.ahead, nd, depth, j.counts);
          if (!w.last_at(j.counted, t))
          {
            w.retire(std::move(t));
            continue;
          }
          if (threadIdx.x == 0) // the counts from L2, where the atomics made them
          {
            split_tile::cursors([&](int o) { return __ldcg(&j.counts[o]); }, j.cursors, nd.begin);
          }
          __syncthreads(); // the cursors before any thread's push of a scatter chunk
          fork_range<range_parts<Method>>(w, std::move(t), task_node{nd, tn.join, n, phase::scatter}, a);
        }
        else
        {
          span.kind = span_kind::scatter;
          scatter_claimed(s, stage, &j.claimed[1], io.src, io.dst, io.ahead_dst, nd, depth, j.cursors);
          if (!w.last_at(j.scattered, t))
          {
            w.retire(std::move(t));
            continue;
          }
          for (int o = threadIdx.x; o < buckets; o += Threads)
          {
            s.counts[o] = __ldcg(&j.counts[o]);
          }
          __syncthreads();
          children<kid_parts<Method>>(s, w, std::move(t), nd, a);
        }
      }
    }
  }
};

template <class Method, int Threads, int Levels>
__global__ void __launch_bounds__(Threads, 512 / Threads)
  dynamic_build(ptxw::tasks::pool<task_node, Method> p, dynamic_args<Levels> a)
{
  extern __shared__ __align__(16) unsigned char smem[];
  dynamic_block<Threads, Levels>::template run<Method>(p, a, smem);
}

// The builder for one method and block size; faithful: one block per node (no chunks, no finish).
template <class Method, int Threads, int Levels = 1>
class dynamic_builder
{
  static constexpr auto kernel = dynamic_build<Method, Threads, Levels>;
  // Tasks a block's deque (stealing: a LIFO owner holds a path's siblings and range halves, far
  // fewer), or in the one queue or round list (a level of the tree: ~10^4 at 10^7 with S = 4096).
  static constexpr std::uint32_t capacity = ptxw::tasks::is_stealing_v<Method> ? 4096 : 65536;
  ptxw::tasks::pool_host<task_node, Method> pool_{capacity};
  device_array<join_state<Levels>> joins_;
  device_array<std::uint32_t> counters_; // joins used, dropped
  std::string name_;
  bool faithful_;
  std::uint32_t chunk_;

public:
  int blocks   = 0; // 0: the resident grid
  timeline* tl = nullptr; // where the next builds record their spans (none: nullptr)

  // chunk: C (tests make it small, so that small inputs have chunked nodes).
  dynamic_builder(std::string name, bool faithful, std::uint32_t chunk = default_chunk)
      : name_(std::move(name))
      , faithful_(faithful)
      , chunk_(chunk)
  {
    if (faithful_ && Levels != 1)
    {
      throw std::invalid_argument("octree " + name_ + ": the paper-faithful form splits one level a node");
    }
  }

  const std::string& name() const
  {
    return name_;
  }
  bool faithful() const
  {
    return faithful_;
  }

  // Dynamic shared memory: the finish's storage, which a split's stage shares (one task at a time).
  std::size_t smem() const
  {
    constexpr std::size_t stage = dynamic_block<Threads, Levels>::split_tile::stage_bytes;
    return faithful_ ? stage : std::max(stage, block_finish<Threads>::bytes);
  }

  int resident() const
  {
    PTXW_OCTREE_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem())));
    return pool_.resident_grid(kernel, Threads, smem());
  }

  void run(const buffers& buf, const leaf_out& out, std::uint32_t n, std::uint32_t t)
  {
    if (!faithful_ && t >= max_window)
    {
      throw std::invalid_argument("octree " + name_ + ": T = " + std::to_string(t) + ": at most " +
                                  std::to_string(max_window - 1) + " with the shared-memory finish");
    }
    const dynamic_config cfg{t, faithful_ ? ~0u : chunk_, faithful_ ? 0u : finish_size};
    const std::size_t max_joins = (faithful_ ? 0 : std::size_t(max_depth) * (n / cfg.chunk + 1)) + 1;
    joins_.reserve(max_joins);
    counters_.reserve(2);
    const std::uint32_t used = cfg.chunked(n) ? 1 : 0; // the root's join, if it is chunked
    PTXW_OCTREE_CHECK(cudaMemsetAsync(joins_.get(), 0, max_joins * sizeof(join_state<Levels>)));
    if (used != 0) // the root's join, opened for its chunks
    {
      join_state<Levels> root{};
      root.counted = root.scattered = {0, dynamic_block<Threads, Levels>::chunks(n, cfg.chunk)};
      PTXW_OCTREE_CHECK(cudaMemcpyAsync(joins_.get(), &root, sizeof root, cudaMemcpyHostToDevice));
    }
    PTXW_OCTREE_CHECK(cudaMemsetAsync(counters_.get(), 0, 2 * sizeof(std::uint32_t)));
    PTXW_OCTREE_CHECK(cudaMemcpyAsync(counters_.get(), &used, sizeof used, cudaMemcpyHostToDevice));
    PTXW_OCTREE_CHECK(cudaMemsetAsync(out.count, 0, sizeof(std::uint32_t)));
    std::vector<task_node> seeds;
    const node root{1, 0, n};
    if (cfg.chunked(n))
    {
      for (std::uint32_t k = 0; k * cfg.chunk < n; ++k) // one chunk a seed: the seeds are spread
      {
        seeds.push_back(task_node{root, 0, 1, phase::count});
      }
    }
    else
    {
      seeds.push_back(task_node{root, 0, 0, phase::whole});
    }
    pool_.reset();
    pool_.seed(seeds);
    buffers moved = buf;
    moved.levels  = Levels;
    const dynamic_args<Levels> a{moved, out, joins_.get(), counters_.get(), counters_.get() + 1, cfg,
                                 tl != nullptr ? tl->view() : timeline_view{}};
    (void) resident(); // opts the kernel into the finish's shared memory
    if (blocks > 0)
    {
      pool_.launch(ptxw::tasks::blocks{blocks}, kernel, Threads, smem(), 0, a);
    }
    else
    {
      pool_.launch(kernel, Threads, smem(), 0, a);
    }
  }

  ptxw::tasks::pool_stats stats() const
  {
    return pool_.stats();
  }

  // Tests: faults injected into the pool from the next build on (ptxw::tasks::faults).
  void inject(const ptxw::tasks::faults& f)
  {
    pool_.inject(f);
  }

  // Children lost for want of room (must be 0; the leaf check would find their particles lost).
  std::uint32_t dropped() const
  {
    return counters_.size() == 0 ? 0 : counters_.download(1, 1)[0]; // 0: never ran (N <= T)
  }
};

} // namespace octree
