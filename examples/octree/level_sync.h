// examples/octree/level_sync.h: the level loop and the level graph, with and without the shared-memory finish
// (+finish): the level-synchronous build a user writes
// without a task pool. Each level (Levels levels of the tree at once: 8^Levels buckets a node,
// descend.h; the plain level-synchronous loop takes one): `count` (every tile of every node of the level, one grid;
// an atomic per bucket and tile), `split` (a thread per node: the bucket prefix becomes the cursors;
// descendants become leaves, next-level nodes with their tiles, or -- level loop+finish -- nodes of at most S
// for the shared-memory finish), `scatter` (the tiles again, placed through the cursors), `settle`
// (leaves found in buffer b copied to the output), `finish` (level loop+finish only) and `advance` (one thread:
// swaps the lists, next depth). Every count lives on the device and every kernel's grid is fixed
// (resident blocks, grid-stride), so the same kernels run
//   level loop: from a host loop that reads the next level's node count after each level, and
//   level graph: as the body of a CUDA graph conditional WHILE node, which `advance` sets from the device
//        (cudaGraphSetConditional, CUDA 12.4+): no host round trip.
#pragma once

#include <ptxw/tasks/host/round_graph.h>

#include <cub/block/block_scan.cuh>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#include "device.h"
#include "descend.h"
#include "finish.h"
#include "tile.h"

namespace octree
{

struct level_state
{
  std::uint32_t cur, depth, nodes[2], tiles[2], small, leaves_begin;
};

struct level_args
{
  level_state* st;
  node* nodes[2];
  uint2* tiles[2]; // (node index in its list, tile index in its node)
  std::uint32_t* counts[2]; // 8^Levels a node: bucket counts, then cursors
  node* small;
  buffers buf;
  leaf_out out;
  std::uint32_t t, s; // s = 0: no shared-memory finish (the level loop)
};

// Children of a level, counted per thread and appended with one atomic per block and list.
struct appends
{
  std::uint32_t leaves, nodes, tiles, small;
  __device__ appends operator+(const appends& o) const
  {
    return {leaves + o.leaves, nodes + o.nodes, tiles + o.tiles, small + o.small};
  }
};

// What `count` and `scatter` share: the level's tiles, grid-stride, a block a tile:
// f(begin, n, depth, the tile's node's counters).
template <int Threads, int Items, int Levels>
struct level_tiles
{
  using split                            = tile_split<Threads, Items, Levels>;
  static constexpr std::uint32_t size    = split::size;
  static constexpr std::uint32_t buckets = split::buckets;

  template <class F>
  __device__ static void for_each(const level_args& a, F f)
  {
    const std::uint32_t cur = a.st->cur, depth = a.st->depth, tiles = a.st->tiles[cur];
    for (std::uint32_t i = blockIdx.x; i < tiles; i += gridDim.x)
    {
      const uint2 tl = a.tiles[cur][i];
      const node nd  = a.nodes[cur][tl.x];
      f(nd.begin + tl.y * size, min(size, nd.count - tl.y * size), static_cast<int>(depth), a.counts[cur] + buckets * tl.x);
    }
  }
};

template <int Threads, int Items, int Levels>
__global__ void __launch_bounds__(Threads) level_count(level_args a)
{
  using tiles = level_tiles<Threads, Items, Levels>;
  __shared__ typename tiles::split::storage s;
  tiles::for_each(a, [&](std::uint32_t begin, std::uint32_t n, int depth, std::uint32_t* counts) {
    tiles::split::count(s, a.buf.at(depth), a.buf.ahead_at(depth), begin, n, depth, counts);
  });
}

template <int Threads, int Items, int Levels>
__global__ void __launch_bounds__(Threads) level_split(level_args a)
{
  using tiles = level_tiles<Threads, Items, Levels>;
  using scan  = cub::BlockScan<appends, Threads>;
  __shared__ typename scan::TempStorage scan_storage;
  __shared__ appends base;
  const std::uint32_t cur = a.st->cur, depth = a.st->depth, nodes = a.st->nodes[cur];
  const std::uint32_t nxt = cur ^ 1;
  for (std::uint32_t first = blockIdx.x * Threads; first < nodes; first += gridDim.x * Threads)
  {
    const std::uint32_t i  = first + threadIdx.x;
    std::uint32_t* counts = a.counts[cur] + tiles::buckets * i;
    node nd{};
    // Where the walk stops (descend.h): a leaf, a node for the finish (<= S), or a next-level node.
    auto walk = [&](auto visit) {
      descend<Levels>::each(counts, nd, static_cast<int>(depth), a.t, [&](std::uint32_t c) { return c <= a.s; },
                            [&](const node& ch, bool is_leaf) { visit(ch, is_leaf, !is_leaf && ch.count <= a.s); });
    };
    appends mine{0, 0, 0, 0};
    if (i < nodes)
    {
      nd = a.nodes[cur][i];
      walk([&](const node& ch, bool is_leaf, bool small) {
        mine.leaves += is_leaf;
        mine.small += small;
        mine.nodes += !is_leaf && !small;
        mine.tiles += !is_leaf && !small ? (ch.count + tiles::size - 1) / tiles::size : 0;
      });
    }
    appends pos, total;
    scan(scan_storage).ExclusiveSum(mine, pos, total);
    if (threadIdx.x == 0)
    {
      base = {atomicAdd(a.out.count, total.leaves), atomicAdd(&a.st->nodes[nxt], total.nodes),
              atomicAdd(&a.st->tiles[nxt], total.tiles), atomicAdd(&a.st->small, total.small)};
    }
    __syncthreads();
    pos = pos + base;
    if (i < nodes)
    {
      walk([&](const node& ch, bool is_leaf, bool small) {
        if (is_leaf)
        {
          a.out.leaves[pos.leaves++] = leaf{ch.code, ch.begin, ch.count};
        }
        else if (small)
        {
          a.small[pos.small++] = ch;
        }
        else
        {
          a.nodes[nxt][pos.nodes] = ch;
          for (std::uint32_t q = 0; q < tiles::buckets; ++q)
          {
            a.counts[nxt][tiles::buckets * pos.nodes + q] = 0;
          }
          for (std::uint32_t j = 0; j * tiles::size < ch.count; ++j)
          {
            a.tiles[nxt][pos.tiles++] = make_uint2(pos.nodes, j);
          }
          ++pos.nodes;
        }
      });
      tiles::split::cursors([&](int q) { return counts[q]; }, counts, nd.begin); // the counts become the cursors
    }
    __syncthreads(); // base and scan_storage are reused
  }
}

template <int Threads, int Items, int Levels>
__global__ void __launch_bounds__(Threads) level_scatter(level_args a)
{
  using tiles = level_tiles<Threads, Items, Levels>;
  __shared__ typename tiles::split::storage s;
  extern __shared__ __align__(16) float4 stage[]; // tiles::split::stage_bytes
  tiles::for_each(a, [&](std::uint32_t begin, std::uint32_t n, int depth, std::uint32_t* cursors) {
    const split_io io = a.buf.io(depth);
    tiles::split::scatter(s, stage, io.src, io.dst, io.ahead_dst, begin, n, depth, cursors);
  });
}

// The level's leaves, where they lie in buffer b (every depth the split reached: one buffer): a
// warp a leaf.
template <int Threads, int Items, int Levels>
__global__ void __launch_bounds__(Threads) level_settle(level_args a)
{
  const std::uint32_t depth = a.st->depth + 1, first = a.st->leaves_begin, last = *a.out.count;
  const std::uint32_t warps = gridDim.x * (Threads / 32);
  for (std::uint32_t l = first + blockIdx.x * (Threads / 32) + threadIdx.x / 32; l < last; l += warps)
  {
    const leaf lf = a.out.leaves[l];
    settle_leaf(a.buf, depth, lf.begin, lf.count, threadIdx.x & 31, 32);
  }
}

// At most 128 registers a thread: two blocks of 256 an SM, as the finish's shared memory allows.
template <int Threads, int Items, int Levels>
__global__ void __launch_bounds__(Threads, 512 / Threads) level_finish(level_args a)
{
  extern __shared__ __align__(16) unsigned char smem[];
  auto& s = *reinterpret_cast<typename block_finish<Threads>::storage*>(smem);
  const std::uint32_t small = a.st->small;
  for (std::uint32_t i = blockIdx.x; i < small; i += gridDim.x)
  {
    block_finish<Threads>::run(s, a.small[i], a.buf, a.out, a.t);
  }
}

template <int Threads, int Items, int Levels>
__global__ void level_advance(level_args a, cudaGraphConditionalHandle loop, bool in_graph)
{
  level_state& st = *a.st;
  st.nodes[st.cur] = 0;
  st.tiles[st.cur] = 0;
  st.small         = 0;
  st.cur ^= 1;
  st.depth += Levels;
  st.leaves_begin = *a.out.count;
  if (in_graph)
  {
    cudaGraphSetConditional(loop, st.nodes[st.cur] != 0);
  }
}

// The first level: the root and its tiles (n > T).
template <int Threads, int Items, int Levels>
__global__ void level_start(level_args a, std::uint32_t n)
{
  using tiles               = level_tiles<Threads, Items, Levels>;
  const std::uint32_t count = (n + tiles::size - 1) / tiles::size;
  for (std::uint32_t j = blockIdx.x * blockDim.x + threadIdx.x; j < count; j += gridDim.x * blockDim.x)
  {
    a.tiles[0][j] = make_uint2(0, j);
  }
  for (std::uint32_t q = blockIdx.x * blockDim.x + threadIdx.x; q < tiles::buckets; q += gridDim.x * blockDim.x)
  {
    a.counts[0][q] = 0;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0)
  {
    a.nodes[0][0] = node{1, 0, n};
    *a.st         = level_state{0, 0, {1, 0}, {count, 0}, 0, 0};
    *a.out.count  = 0;
  }
}

// Blocks of k that fit on the GPU at once (opting k into `smem` bytes of dynamic shared memory).
template <class Kernel>
int resident_grid(Kernel k, int threads, std::size_t smem = 0)
{
  int dev = 0, sms = 0, per_sm = 0;
  PTXW_OCTREE_CHECK(cudaGetDevice(&dev));
  PTXW_OCTREE_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  PTXW_OCTREE_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  PTXW_OCTREE_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, threads, smem));
  return sms * per_sm;
}

// The level loop (finish = false) or the level loop+finish (finish = true); graph: the level graph's WHILE
// node instead of the host loop;
// Levels: tree levels a split takes (1: the plain level-synchronous loop).
template <int Threads, int Items, int Levels = 1>
class level_sync
{
  static constexpr std::uint32_t tile    = level_tiles<Threads, Items, Levels>::size;
  static constexpr std::uint32_t buckets = level_tiles<Threads, Items, Levels>::buckets;
  static constexpr std::size_t stage     = level_tiles<Threads, Items, Levels>::split::stage_bytes;
  bool finish_, graph_;
  device_array<level_state> st_;
  device_array<node> nodes_[2], small_;
  device_array<uint2> tiles_[2];
  device_array<std::uint32_t> counts_[2];
  std::uint32_t* pinned_ = nullptr;
  cudaGraphExec_t exec_  = nullptr;
  level_args args_{};
  struct
  {
    int count, split, scatter, settle, finish;
  } grid_;

public:
  level_sync(bool finish, bool graph)
      : finish_(finish)
      , graph_(graph)
      , grid_{resident_grid(level_count<Threads, Items, Levels>, Threads),
              resident_grid(level_split<Threads, Items, Levels>, Threads),
              resident_grid(level_scatter<Threads, Items, Levels>, Threads, stage),
              resident_grid(level_settle<Threads, Items, Levels>, Threads),
              resident_grid(level_finish<Threads, Items, Levels>, Threads, block_finish<Threads>::bytes)}
  {
    PTXW_OCTREE_CHECK(cudaMallocHost(&pinned_, sizeof(std::uint32_t)));
  }
  level_sync(const level_sync&) = delete;
  level_sync& operator=(const level_sync&) = delete;
  ~level_sync()
  {
    if (exec_ != nullptr)
    {
      (void) cudaGraphExecDestroy(exec_);
    }
    (void) cudaFreeHost(pinned_);
  }

  std::string name() const
  {
    return std::string(graph_ ? "level graph" : "level loop") + (finish_ ? "+finish" : "") +
           (Levels == 1 ? "" : ", " + std::to_string(Levels) + " levels a split") +
           (Threads == 256 ? "" : ", " + std::to_string(Threads) + " threads");
  }

  // A build of n > T particles into buf/out.
  void run(const buffers& buf, const leaf_out& out, std::uint32_t n, std::uint32_t t)
  {
    if (finish_ && t >= max_window)
    {
      throw std::invalid_argument("octree " + name() + ": T = " + std::to_string(t) + ": at most " +
                                  std::to_string(max_window - 1) + " with the shared-memory finish");
    }
    const std::size_t node_cap = n / (t + 1) + 1, tile_cap = n / tile + node_cap + 1;
    const std::size_t split_cap = (finish_ ? n / (finish_size + 1) : n / (t + 1)) + 1; // nodes a level splits
    st_.reserve(1);
    small_.reserve(finish_ ? node_cap : 1);
    for (int i = 0; i < 2; ++i)
    {
      nodes_[i].reserve(node_cap);
      tiles_[i].reserve(tile_cap);
      counts_[i].reserve(buckets * split_cap);
    }
    buffers moved = buf;
    moved.levels  = Levels;
    const level_args a{st_.get(), {nodes_[0].get(), nodes_[1].get()}, {tiles_[0].get(), tiles_[1].get()},
                       {counts_[0].get(), counts_[1].get()}, small_.get(), moved, out, t, finish_ ? finish_size : 0};
    level_start<Threads, Items, Levels><<<64, 256>>>(a, n);
    if (graph_)
    {
      launch_graph(a);
    }
    else
    {
      int levels = 0;
      do
      {
        level(a, cudaGraphConditionalHandle{}, false, 0);
        ++levels; // advance made cur = levels & 1
        PTXW_OCTREE_CHECK(cudaMemcpyAsync(pinned_, &a.st->nodes[levels & 1], sizeof(std::uint32_t),
                                         cudaMemcpyDeviceToHost));
        PTXW_OCTREE_CHECK(cudaStreamSynchronize(0));
      } while (*pinned_ != 0);
    }
    PTXW_OCTREE_CHECK(cudaGetLastError());
  }

private:
  void level(const level_args& a, cudaGraphConditionalHandle h, bool in_graph, cudaStream_t s)
  {
    level_count<Threads, Items, Levels><<<grid_.count, Threads, 0, s>>>(a);
    level_split<Threads, Items, Levels><<<grid_.split, Threads, 0, s>>>(a);
    level_scatter<Threads, Items, Levels><<<grid_.scatter, Threads, stage, s>>>(a);
    level_settle<Threads, Items, Levels><<<grid_.settle, Threads, 0, s>>>(a);
    if (finish_)
    {
      level_finish<Threads, Items, Levels><<<grid_.finish, Threads, block_finish<Threads>::bytes, s>>>(a);
    }
    level_advance<Threads, Items, Levels><<<1, 1, 0, s>>>(a, h, in_graph);
  }

  void launch_graph(const level_args& a)
  {
    if (exec_ == nullptr || std::memcmp(&a, &args_, sizeof a) != 0)
    {
      if (exec_ != nullptr)
      {
        PTXW_OCTREE_CHECK(cudaGraphExecDestroy(exec_));
      }
      cudaGraph_t g;
      cudaGraphConditionalHandle h;
      const cudaGraph_t body = ptxw::detail::while_loop_graph(g, h, "building the level graph");
      cudaStream_t s;
      PTXW_OCTREE_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      PTXW_OCTREE_CHECK(cudaStreamBeginCaptureToGraph(s, body, nullptr, nullptr, 0, cudaStreamCaptureModeRelaxed));
      level(a, h, true, s);
      PTXW_OCTREE_CHECK(cudaStreamEndCapture(s, nullptr));
      PTXW_OCTREE_CHECK(cudaStreamDestroy(s));
      PTXW_OCTREE_CHECK(cudaGraphInstantiate(&exec_, g, 0));
      PTXW_OCTREE_CHECK(cudaGraphDestroy(g));
      args_ = a;
    }
    PTXW_OCTREE_CHECK(cudaGraphLaunch(exec_, 0));
  }
};

} // namespace octree
