// benchmarks/task_trees/level_loop.h: the level-synchronous search, as a CUDA programmer writes it
// with CUB: the host loops over the tree's levels; a level is an array of nodes and their numbers
// of children, cub::DeviceScan numbers the level's children, and one kernel expands the level,
// writing each child at its number in the next level's array with its own number of children (so
// that a level's nodes are read once). The host reads the next level's size after each level: the
// loop's one round trip a level.
#pragma once

#include <cub/device/device_scan.cuh>

#include <cstdint>

#include "../harness.h"
#include "expand.h"

namespace task_trees {

// One level's expansion: nodes [blockIdx.x * batch, + batch) of the n in `level`; `kids` are their
// numbers of children (kids[n] = 0) and `first` its exclusive scan, so first[n] is the next level's
// size. A next level wider than `widest` is not written (the host sees its size).
template <int Threads, int Items>
__global__ void __launch_bounds__(Threads, resident_threads / Threads)
  expand_level(const uts::node* level, const std::uint32_t* kids, const std::uint32_t* first, std::uint32_t n,
               std::uint32_t widest, uts::node* next, std::uint32_t* next_kids, uts::shape s, uts::counts* out)
{
  using expand = block_expand<Threads, Items>;
  __shared__ typename expand::storage st;
  if (first[n] > widest)
  {
    return;
  }
  const std::uint32_t begin = blockIdx.x * expand::batch;
  const std::uint32_t end   = begin + expand::batch < n ? begin + expand::batch : n;
  const std::uint32_t base = first[begin], total = first[end] - base;
  tally t;
#pragma unroll
  for (int i = 0; i < Items; ++i)
  {
    const std::uint32_t q = i * Threads + threadIdx.x, g = begin + q;
    st.first[q]           = total;
    if (g < n)
    {
      st.parents[q] = level[g];
      st.first[q]   = first[g] - base;
      t.visit(st.parents[q], kids[g]);
    }
  }
  expand::closed(st, total);
  expand::each_child(st, total, [&](std::uint32_t j, const uts::node& c) {
    next[base + j]      = c;
    next_kids[base + j] = uts::children(s, c);
  });
  if (blockIdx.x == 0 && threadIdx.x == 0)
  {
    next_kids[first[n]] = 0; // the next scan's last entry
  }
  t.add_to<Threads>(out);
}

template <int Threads, int Items>
class level_loop
{
  uts::shape shape_;
  ptxw_bench::device_array<uts::node> level_, next_;
  ptxw_bench::device_array<std::uint32_t> kids_, next_kids_, first_;
  ptxw_bench::device_array<unsigned char> temp_;
  std::size_t temp_bytes_ = 0;
  std::uint32_t* size_    = nullptr; // pinned: the next level's size, read each level

public:
  // `widest`: at least the tree's largest level (below 2^32 - 1).
  level_loop(const uts::shape& s, std::size_t widest)
      : shape_(s)
      , level_(widest, "a level")
      , next_(widest, "a level")
      , kids_(widest + 1, "a level's children")
      , next_kids_(widest + 1, "a level's children")
      , first_(widest + 1, "a level's scan")
  {
    PTXW_BENCH_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes_, kids_.get(), first_.get(), widest + 1));
    temp_.reserve(temp_bytes_);
    PTXW_BENCH_CHECK(cudaMallocHost(&size_, sizeof *size_));
  }
  level_loop(const level_loop&)            = delete;
  level_loop& operator=(const level_loop&) = delete;
  ~level_loop()
  {
    (void) cudaFreeHost(size_);
  }

  // The root as level 0, before the timing.
  void prepare()
  {
    const uts::node root      = uts::root(shape_);
    const std::uint32_t k[2] = {uts::children(shape_, root), 0};
    PTXW_BENCH_CHECK(cudaMemcpy(level_.get(), &root, sizeof root, cudaMemcpyHostToDevice));
    PTXW_BENCH_CHECK(cudaMemcpy(kids_.get(), k, sizeof k, cudaMemcpyHostToDevice));
  }

  // The whole search, level by level, its counts added to *out; false where a level outgrew the arrays.
  bool search(uts::counts* out)
  {
    uts::node *level = level_.get(), *next = next_.get();
    std::uint32_t *kids = kids_.get(), *next_kids = next_kids_.get();
    const auto widest   = static_cast<std::uint32_t>(level_.size());
    for (std::uint32_t n = 1; n != 0; n = *size_)
    {
      PTXW_BENCH_CHECK(cub::DeviceScan::ExclusiveSum(temp_.get(), temp_bytes_, kids, first_.get(), n + 1));
      constexpr std::uint32_t batch = block_expand<Threads, Items>::batch;
      expand_level<Threads, Items><<<(n + batch - 1) / batch, Threads>>>(level, kids, first_.get(), n, widest, next,
                                                                          next_kids, shape_, out);
      PTXW_BENCH_CHECK(cudaMemcpyAsync(size_, first_.get() + n, sizeof *size_, cudaMemcpyDeviceToHost));
      PTXW_BENCH_CHECK(cudaStreamSynchronize(0));
      if (*size_ > widest)
      {
        return false;
      }
      std::swap(level, next);
      std::swap(kids, next_kids);
    }
    return true;
  }
};

} // namespace task_trees
