// benchmarks/task_trees/trees.h: the trees the benchmark searches -- the UTS benchmark's published
// trees (its sample_trees.sh: parameters, and the tree size, depth and leaves the reference code
// printed for each), so that every count is checked against the reference's as well as against this
// program's own CPU search (reference.h).
#pragma once

#include <cstdint>

#include "uts.h"

namespace uts {

// What a search counts.
struct counts
{
  unsigned long long nodes, leaves, depth;

  bool operator==(const counts& o) const
  {
    return nodes == o.nodes && leaves == o.leaves && depth == o.depth;
  }
  bool operator!=(const counts& o) const
  {
    return !(*this == o);
  }
};

struct tree
{
  const char* name; // sample_trees.sh's
  const char* what; // its shape, in words
  shape s;
  counts published;
};

// sample_trees.sh's T1 and T1L (geometric, fixed: the wide trees), T5 (geometric, linear: the
// deepest geometric one), T3 and T3L (binomial: deep and narrow, 2000 roots of a nearly critical
// branching process).
inline constexpr tree trees[] = {
  {"T1", "geometric fixed, b0 4, depth 10", {kind::geometric_fixed, 4, 10, 0, 0, 19}, {4130071, 3305118, 10}},
  {"T1L", "geometric fixed, b0 4, depth 13", {kind::geometric_fixed, 4, 13, 0, 0, 29}, {102181082, 81746377, 13}},
  {"T5", "geometric linear, b0 4, depth 20", {kind::geometric_linear, 4, 20, 0, 0, 34}, {4147582, 2181318, 20}},
  {"T3", "binomial, b0 2000, q 0.124875, m 8", {kind::binomial, 2000, 0, 0.124875, 8, 42}, {4112897, 3599034, 1572}},
  {"T3L", "binomial, b0 2000, q 0.200014, m 5", {kind::binomial, 2000, 0, 0.200014, 5, 7}, {111345631, 89076904, 17844}},
};

} // namespace uts
