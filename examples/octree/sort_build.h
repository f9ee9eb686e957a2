// examples/octree/sort_build.h: the sort-based baseline, the build an expert picks: Morton keys, one
// cub::DeviceRadixSort::SortPairs (key, index), then the leaves read off the sorted keys all at once
// (sorted_leaves.h) and the particles gathered into leaf order. Keys are 30 bits where depth <= 10
// suffices (the caller knows its data, here from the reference's depth), else 63 bits; a 30-bit
// build whose windows reach depth 10 with more than T particles says so (`deeper`), and run()
// builds again with 63 bits: a wrong hint costs time, never a wrong tree.
// Passes over the particles: the keys (read N float4), the gather (read N float4 by index, write N);
// the rest moves keys and indices: the sort, the depths and leaf starts, a scan of the starts.
#pragma once

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "device.h"
#include "output.h"
#include "sorted_leaves.h"
#include "window_max.h"

namespace octree
{

template <class Key>
__host__ __device__ inline Key make_key(float4 p)
{
  if constexpr (sizeof(Key) == 8)
  {
    return key63(p);
  }
  else
  {
    return key30(p);
  }
}

template <class Key>
__global__ void sort_keys(const float4* in, Key* keys, std::uint32_t* idx, std::uint32_t n)
{
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
  {
    keys[i] = make_key<Key>(in[i]);
    idx[i]  = i;
  }
}

// Leaf depth and leaf-start flag of every sorted key: a tile of Tile keys with the windows that
// reach into it (T < max_window) in shared memory.
template <class Key, int Threads, int Tile>
__global__ void __launch_bounds__(Threads)
  sort_starts(const Key* keys, std::uint32_t n, std::uint32_t t, sorted_view<Key> view, std::uint8_t* depth,
              std::uint32_t* start, int* deeper)
{
  constexpr int spans = (Tile + max_window + 1 + Threads - 1) / Threads;
  __shared__ std::uint8_t common[Tile + max_window + 1]; // window j = base - t - 1 + w: its common digits + 1
  bool deep = false;
  for (std::uint32_t base = blockIdx.x * Tile; base < n; base += gridDim.x * Tile)
  {
    const long long first = static_cast<long long>(base) - t - 1;
    for (int w = threadIdx.x; w < Tile + static_cast<int>(t) + 1; w += Threads)
    {
      const long long j = first + w;
      std::uint8_t c    = 0;
      if (j >= 0 && j + t < n)
      {
        const int m = view.common(keys[j], keys[j + t]);
        (void) view.depth(m, deep);
        c = static_cast<std::uint8_t>(m + 1);
      }
      common[w] = c;
    }
    // common[w] = the largest over the windows of key base - 1 + w: [w, w + t]
    window_max<Threads, spans>(common, Tile + static_cast<int>(t) + 1, static_cast<int>(t) + 1);
    for (int w = threadIdx.x; w < Tile && base + w < n; w += Threads)
    {
      const std::uint32_t i = base + w;
      bool unused           = false;
      const int d           = view.depth(common[w + 1] - 1, unused);
      depth[i]              = static_cast<std::uint8_t>(d);
      start[i] = i == 0 || d != view.depth(common[w] - 1, unused) || !view.same_node(keys[i], keys[i - 1], d);
    }
    __syncthreads();
  }
  if (__syncthreads_or(deep) && threadIdx.x == 0)
  {
    *deeper = 1;
  }
}

// Leaves at their starts (count filled by sort_counts) and the particles gathered in key order.
template <class Key>
__global__ void sort_emit(const Key* keys, const std::uint32_t* idx, const std::uint8_t* depth,
                          const std::uint32_t* start, const std::uint32_t* pos, std::uint32_t n, sorted_view<Key> view,
                          const float4* in, leaf_out out, float4* a)
{
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
  {
    a[i] = in[idx[i]];
    if (start[i])
    {
      out.leaves[pos[i]] = leaf{view.code(keys[i], depth[i]), i, 0};
    }
    if (i == n - 1)
    {
      *out.count = pos[i] + start[i];
    }
  }
}

__global__ void sort_counts(leaf_out out, std::uint32_t n)
{
  const std::uint32_t leaves = *out.count;
  for (std::uint32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < leaves; k += gridDim.x * blockDim.x)
  {
    out.leaves[k].count = (k + 1 < leaves ? out.leaves[k + 1].begin : n) - out.leaves[k].begin;
  }
}

class sort_build
{
  device_array<std::uint32_t> k32_[2], idx_[2], start_, pos_;
  device_array<std::uint64_t> k64_[2];
  device_array<std::uint8_t> depth_;
  device_array<unsigned char> temp_;
  device_array<int> deeper_;

public:
  int key_bits = 30; // the caller's hint: 30 where depth <= 10 suffices

  const char* name() const
  {
    return "sort-based";
  }

  void run(const buffers& buf, const leaf_out& out, std::uint32_t n, std::uint32_t t)
  {
    if (t >= max_window)
    {
      throw std::invalid_argument("octree sort-based: T = " + std::to_string(t) + ": the window of T + 1 keys is at most " +
                                  std::to_string(max_window));
    }
    if (key_bits == 30 && build<std::uint32_t>(buf, out, n, t))
    {
      return;
    }
    (void) build<std::uint64_t>(buf, out, n, t);
  }

private:
  template <class Key>
  device_array<Key> (&keys_of())[2]
  {
    if constexpr (sizeof(Key) == 8)
    {
      return k64_;
    }
    else
    {
      return k32_;
    }
  }

  // False where 30-bit keys did not decide the tree (only for Key = uint32).
  template <class Key>
  bool build(const buffers& buf, const leaf_out& out, std::uint32_t n, std::uint32_t t)
  {
    constexpr bool wide = sizeof(Key) == 8;
    auto& keys          = keys_of<Key>();
    for (int i = 0; i < 2; ++i)
    {
      keys[i].reserve(n);
      idx_[i].reserve(n);
    }
    depth_.reserve(n);
    start_.reserve(n);
    pos_.reserve(n);
    deeper_.reserve(1);
    const int bits = wide ? 63 : 30;
    sort_keys<<<1024, 256>>>(buf.in, keys[0].get(), idx_[0].get(), n);
    cub::DoubleBuffer<Key> k(keys[0].get(), keys[1].get());
    cub::DoubleBuffer<std::uint32_t> v(idx_[0].get(), idx_[1].get());
    two_phase(temp_, [&](void* p, std::size_t& bytes) {
      return cub::DeviceRadixSort::SortPairs(p, bytes, k, v, static_cast<int>(n), 0, bits);
    });
    const sorted_view<Key> view{0, 1, bits, 0};
    PTXW_OCTREE_CHECK(cudaMemsetAsync(deeper_.get(), 0, sizeof(int)));
    sort_starts<Key, 256, 4096><<<(n + 4095) / 4096, 256>>>(k.Current(), n, t, view, depth_.get(), start_.get(),
                                                           deeper_.get());
    two_phase(temp_, [&](void* p, std::size_t& bytes) {
      return cub::DeviceScan::ExclusiveSum(p, bytes, start_.get(), pos_.get(), static_cast<int>(n));
    });
    sort_emit<<<1024, 256>>>(k.Current(), v.Current(), depth_.get(), start_.get(), pos_.get(), n, view, buf.in, out,
                             buf.a);
    sort_counts<<<1024, 256>>>(out, n);
    PTXW_OCTREE_CHECK(cudaGetLastError());
    if (wide)
    {
      return true;
    }
    int deeper = 0;
    PTXW_OCTREE_CHECK(cudaMemcpy(&deeper, deeper_.get(), sizeof deeper, cudaMemcpyDeviceToHost));
    return deeper == 0;
  }
};

} // namespace octree
