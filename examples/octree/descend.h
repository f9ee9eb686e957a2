// examples/octree/descend.h: the nodes a split of `Levels` levels hands on. Once a node at depth
// d is partitioned by its 8^Levels buckets (its descendants at depth d + Levels, in key order),
// every descendant at depth d + 1 .. d + Levels is a contiguous range, its count a sum of bucket
// counts. The walk goes down from the node's children and stops at the first node that is a leaf
// (at most T particles, or at the depth cap), that the caller ends (`ends(count)`: a node the
// shared-memory finish takes, say), or that lies Levels levels down -- the same nodes, leaves and
// finishes as Levels one-level splits would make.
#pragma once

#include <cstdint>

#include "morton.h"
#include "tile.h"

namespace octree
{

template <int Levels>
struct descend
{
  static constexpr int below = buckets_of(Levels - 1); // buckets under each child

  // visit(child, leaf) for each non-empty node where the walk stops, in key order; counts: the
  // node's 8^Levels bucket counts.
  template <class Ends, class Visit>
  __host__ __device__ static void each(const std::uint32_t* counts, const node& nd, int depth, std::uint32_t t, Ends ends,
                                       Visit&& visit)
  {
    std::uint32_t begin = nd.begin;
    for (int o = 0; o < 8; ++o)
    {
      std::uint32_t c = 0;
      for (int q = 0; q < below; ++q)
      {
        c += counts[o * below + q];
      }
      const node ch{child_code(nd.code, o), begin, c};
      begin += c;
      if (c == 0)
      {
        continue;
      }
      const bool is_leaf = c <= t || depth + 1 == max_depth;
      if constexpr (Levels == 1)
      {
        visit(ch, is_leaf);
      }
      else if (is_leaf || ends(c))
      {
        visit(ch, is_leaf);
      }
      else
      {
        descend<Levels - 1>::each(counts + o * below, ch, depth + 1, t, ends, visit);
      }
    }
  }
};

} // namespace octree
