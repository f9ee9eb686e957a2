// examples/octree/reference.h: the host reference (63-bit Morton keys, sorted, split top-down
// with binary searches: independent of every device builder's method) and the canonical form of a
// leaf set that every builder's output is turned into and compared with.
//
// Canonical form: for each particle id, the code of the leaf that holds it (a leaf set is a
// partition of the ids, so this names it completely), with the number of leaves and of overfull
// leaves (more than T particles, only at max_depth). Two builders agree iff their forms are equal.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "morton.h"
#include "particles.h"

namespace octree
{

struct leaf_set
{
  std::vector<std::uint64_t> leaf_of; // per particle id; 0 (no code is 0) = in no leaf
  std::size_t leaves   = 0;
  std::size_t overfull = 0;
  int depth            = 0; // deepest leaf
};

// The reference: leaves and, for the benchmark's bound and the sort-based build's key width, the internal nodes.
struct reference_tree
{
  leaf_set set;
  std::size_t internal        = 0;
  // Particles in internal nodes of more than `cutoff`, in units of N, where a split takes l + 1
  // levels (descend.h): [l] counts the nodes at depths that are multiples of l + 1.
  double passes_above_cutoff[3] = {0, 0, 0};
};

namespace detail
{
inline void split(const std::vector<std::pair<std::uint64_t, std::uint32_t>>& k, std::size_t lo, std::size_t hi,
                  int depth, std::uint32_t t, std::size_t cutoff, reference_tree& r, std::size_t (&above)[3])
{
  if (hi == lo)
  {
    return;
  }
  if (hi - lo <= t || depth == max_depth)
  {
    const std::uint64_t code = code_of(k[lo].first, depth);
    for (std::size_t i = lo; i < hi; ++i)
    {
      r.set.leaf_of[k[i].second] = code;
    }
    ++r.set.leaves;
    r.set.overfull += hi - lo > t;
    r.set.depth = std::max(r.set.depth, depth);
    return;
  }
  ++r.internal;
  for (int l = 0; l < 3; ++l)
  {
    above[l] += hi - lo > cutoff && depth % (l + 1) == 0 ? hi - lo : 0;
  }
  const int shift = 3 * (max_depth - depth - 1);
  std::size_t b   = lo;
  for (std::uint64_t o = 0; o < 8; ++o)
  {
    const std::uint64_t limit = ((k[lo].first >> shift >> 3 << 3 | o) + 1) << shift;
    const std::size_t e       = o == 7 ? hi
                                       : std::lower_bound(k.begin() + b, k.begin() + hi, std::make_pair(limit, 0u)) - k.begin();
    split(k, b, e, depth + 1, t, cutoff, r, above);
    b = e;
  }
}
} // namespace detail

// `cutoff`: the shared-memory finish's S, for passes_above_cutoff.
inline reference_tree reference(const input& in, std::size_t cutoff)
{
  const std::vector<float4>& p = *in.particles;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> k(p.size());
  for (std::size_t i = 0; i < p.size(); ++i)
  {
    k[i] = {key63(p[i]), id_of(p[i])};
  }
  std::sort(k.begin(), k.end());
  reference_tree r;
  r.set.leaf_of.assign(p.size(), 0);
  std::size_t above[3] = {0, 0, 0};
  detail::split(k, 0, k.size(), 0, in.leaf_capacity, cutoff, r, above);
  for (int l = 0; l < 3; ++l)
  {
    r.passes_above_cutoff[l] = p.empty() ? 0.0 : double(above[l]) / double(p.size());
  }
  return r;
}

// What a builder returned: its leaves and the particles in leaf order (ids in w).
struct verdict
{
  std::size_t lost = 0, duplicated = 0, foreign = 0, wrong_leaf = 0, bad_leaf = 0;
  std::size_t leaves = 0, overfull = 0;

  bool matches(const leaf_set& ref) const
  {
    return lost == 0 && duplicated == 0 && foreign == 0 && wrong_leaf == 0 && bad_leaf == 0 && leaves == ref.leaves &&
           overfull == ref.overfull;
  }
  std::string describe() const
  {
    return std::to_string(lost) + " lost, " + std::to_string(duplicated) + " duplicated, " + std::to_string(foreign) +
           " foreign ids, " + std::to_string(wrong_leaf) + " in a wrong leaf, " + std::to_string(bad_leaf) +
           " malformed leaves, " + std::to_string(leaves) + " leaves (" + std::to_string(overfull) + " overfull)";
  }
};

// The builder's output in canonical form, compared with the reference's. A malformed leaf (range out
// of bounds, more than T particles above max_depth) is counted and not read.
inline verdict compare(const leaf_set& ref, const std::vector<leaf>& leaves, const std::vector<float4>& out,
                       std::uint32_t t)
{
  verdict v;
  v.leaves = leaves.size();
  std::vector<std::uint64_t> got(ref.leaf_of.size(), 0);
  std::vector<std::uint8_t> seen(ref.leaf_of.size(), 0);
  for (const leaf& l : leaves)
  {
    const bool deep = depth_of(l.code) == max_depth;
    if (l.code == 0 || std::uint64_t{l.begin} + l.count > out.size() || l.count == 0 || (l.count > t && !deep))
    {
      ++v.bad_leaf;
      continue;
    }
    v.overfull += l.count > t;
    for (std::uint32_t i = l.begin; i < l.begin + l.count; ++i)
    {
      const std::uint32_t id = id_of(out[i]);
      if (id >= got.size())
      {
        ++v.foreign;
        continue;
      }
      v.duplicated += seen[id] > 0;
      seen[id] = 1;
      got[id]  = l.code;
    }
  }
  for (std::size_t id = 0; id < got.size(); ++id)
  {
    v.lost += !seen[id];
    v.wrong_leaf += seen[id] && got[id] != ref.leaf_of[id];
  }
  return v;
}

} // namespace octree
