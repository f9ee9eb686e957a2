// examples/octree/tree.h: the device side of one problem -- the input, the two particle
// buffers and their buckets ahead (output.h), the leaves -- and build(), the one entry every builder is called through: the problem is
// already validated (particles.h), an empty set launches nothing, N <= T is the root leaf, and
// only then does the builder run (so every builder may assume T < N < 2^31).
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "device.h"
#include "output.h"
#include "particles.h"

namespace octree
{

// The tree of N <= T particles: the root is the only leaf (one block).
__global__ void root_leaf(buffers buf, leaf_out out, std::uint32_t n)
{
  settle_leaf(buf, 0, 0, n, threadIdx.x, blockDim.x);
  if (threadIdx.x == 0)
  {
    out.leaves[0] = leaf{1, 0, n};
    *out.count    = 1;
  }
}

class device_tree
{
  device_array<float4> in_, a_, b_;
  device_array<std::uint16_t> ahead_a_, ahead_b_;
  device_array<leaf> leaves_;
  device_array<std::uint32_t> count_;
  std::size_t n_  = 0;
  std::uint32_t t_ = 0;

public:
  void upload(const input& in)
  {
    n_ = in.size();
    t_ = in.leaf_capacity;
    if (n_ == 0)
    {
      return;
    }
    in_.upload(*in.particles);
    a_.reserve(n_);
    b_.reserve(n_);
    ahead_a_.reserve(n_);
    ahead_b_.reserve(n_);
    leaves_.reserve(n_);
    count_.reserve(1);
  }

  buffers bufs() const
  {
    return {in_.get(), a_.get(), b_.get(), 1, ahead_a_.get(), ahead_b_.get()};
  }
  leaf_out out() const
  {
    return {leaves_.get(), count_.get()};
  }
  // False where nothing was launched (no particles).
  template <class Builder>
  bool build(Builder& b)
  {
    if (n_ == 0)
    {
      return false;
    }
    if (n_ <= t_)
    {
      root_leaf<<<1, 256>>>(bufs(), out(), static_cast<std::uint32_t>(n_));
      PTXW_OCTREE_CHECK(cudaGetLastError());
      return true;
    }
    b.run(bufs(), out(), static_cast<std::uint32_t>(n_), t_);
    return true;
  }

  // Output and leaves set to a pattern no builder writes (ids 0xffffffff, code 0), so a particle or
  // leaf a builder misses shows in the comparison instead of a previous builder's result.
  void poison()
  {
    if (n_ != 0)
    {
      PTXW_OCTREE_CHECK(cudaMemset(a_.get(), 0xff, n_ * sizeof(float4)));
      PTXW_OCTREE_CHECK(cudaMemset(leaves_.get(), 0, n_ * sizeof(leaf)));
      PTXW_OCTREE_CHECK(cudaMemset(count_.get(), 0, sizeof(std::uint32_t)));
    }
  }

  // The last build's leaves and particles (output buffer), on the host.
  void result(std::vector<leaf>& leaves, std::vector<float4>& particles) const
  {
    leaves.clear();
    particles.clear();
    if (n_ == 0)
    {
      return;
    }
    PTXW_OCTREE_CHECK(cudaDeviceSynchronize());
    const std::uint32_t count = count_.download(1)[0];
    leaves    = leaves_.download(count < n_ ? count : n_);
    particles = a_.download(n_);
  }
};

} // namespace octree
