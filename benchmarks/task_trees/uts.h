// benchmarks/task_trees/uts.h: the trees of the Unbalanced Tree Search benchmark (Olivier et al.,
// "UTS: An Unbalanced Tree Search Benchmark", LCPC 2006), on the host and the device alike: a node's
// state is a SHA-1 digest, a child's state is the digest of its parent's state and its index, and
// the number of children comes from the node's state, by the tree's shape. Every figure the trees
// are checked against (trees.h) was made by the reference code with these rules:
//   root       SHA-1 of 20 bytes: 16 zero bytes, then the root seed (4 bytes, big-endian);
//   child i    SHA-1 of 24 bytes: the parent's 20-byte digest, then i (4 bytes, big-endian);
//   random     the digest's bytes 16..19 as a big-endian word (the fifth word of SHA-1's state), its
//              top bit cleared; u = that / 2^31, in [0, 1);
//   binomial   the root has floor(b0) children; every other node m with probability q (u < q), else none;
//   geometric  the root's expected number of children is b0, a node's at depth d is b_d (the shape
//              below); the count is floor(log(1 - u) / log(1 - p)) with p = 1 / (1 + b_d): the inverse
//              of the geometric distribution of mean b_d;
//     fixed    b_d = b0 below the tree's depth, 0 at it;
//     linear   b_d = b0 (1 - d / depth);
//   a node other than a binomial root has at most 100 children, a binomial root at most ceil(b0).
// Every message fits one SHA-1 block, so a node costs one compression of its parent's digest.
#pragma once

#include <cstdint>
#include <cmath>

namespace uts {

// A node: its state (SHA-1's five words; bytes 0..19 of the digest, big-endian) and its depth; 8-byte
// aligned, so that the GPU moves it in three 8-byte accesses.
struct alignas(8) node
{
  std::uint32_t digest[5];
  std::uint32_t height;
};

enum class kind : std::uint32_t
{
  binomial,
  geometric_fixed,
  geometric_linear
};

// A tree: its kind and the reference's parameters (-t/-a, -b, -d, -q, -m, -r).
struct shape
{
  kind k;
  double b0; // the root's (expected) number of children
  std::uint32_t depth; // geometric: where the expected number of children reaches 0
  double q; // binomial: the probability of m children
  std::uint32_t m;
  std::uint32_t seed;
};

// The reference's cap on a node's children (its MAXNUMCHILDREN); a binomial root is exempt.
inline constexpr int max_children = 100;

__host__ __device__ inline std::uint32_t rotl(std::uint32_t x, int n)
{
  return (x << n) | (x >> (32 - n));
}

// SHA-1 (FIPS 180-4) of a message that fits one block: w, its 16 big-endian words with the padding
// and the length already in place; the digest into h.
__host__ __device__ inline void sha1_one_block(std::uint32_t (&w)[16], std::uint32_t (&h)[5])
{
  constexpr std::uint32_t init[5] = {0x67452301u, 0xEFCDAB89u, 0x98BADCFEu, 0x10325476u, 0xC3D2E1F0u};
  std::uint32_t a = init[0], b = init[1], c = init[2], d = init[3], e = init[4];
#pragma unroll
  for (int t = 0; t < 80; ++t)
  {
    if (t >= 16)
    {
      w[t & 15] = rotl(w[(t + 13) & 15] ^ w[(t + 8) & 15] ^ w[(t + 2) & 15] ^ w[t & 15], 1);
    }
    std::uint32_t f, k;
    if (t < 20)
    {
      f = d ^ (b & (c ^ d));
      k = 0x5A827999u;
    }
    else if (t < 40)
    {
      f = b ^ c ^ d;
      k = 0x6ED9EBA1u;
    }
    else if (t < 60)
    {
      f = (b & c) | (d & (b | c));
      k = 0x8F1BBCDCu;
    }
    else
    {
      f = b ^ c ^ d;
      k = 0xCA62C1D6u;
    }
    const std::uint32_t next = rotl(a, 5) + f + e + k + w[t & 15];
    e                        = d;
    d                        = c;
    c                        = rotl(b, 30);
    b                        = a;
    a                        = next;
  }
  h[0] = init[0] + a;
  h[1] = init[1] + b;
  h[2] = init[2] + c;
  h[3] = init[3] + d;
  h[4] = init[4] + e;
}

__host__ __device__ inline node root(const shape& s)
{
  // 20 bytes: 16 zeros, the seed; then the padding bit and the length in bits.
  std::uint32_t w[16] = {0, 0, 0, 0, s.seed, 0x80000000u, 0, 0, 0, 0, 0, 0, 0, 0, 0, 20 * 8};
  node r{};
  sha1_one_block(w, r.digest);
  r.height = 0;
  return r;
}

__host__ __device__ inline node child(const node& parent, std::uint32_t i)
{
  // 24 bytes: the parent's digest, the child's index; then the padding bit and the length in bits.
  std::uint32_t w[16] = {parent.digest[0], parent.digest[1], parent.digest[2], parent.digest[3], parent.digest[4],
                         i, 0x80000000u, 0, 0, 0, 0, 0, 0, 0, 0, 24 * 8};
  node c{};
  sha1_one_block(w, c.digest);
  c.height = parent.height + 1;
  return c;
}

// The node's number of children, as the reference computes it (in double precision, the same
// operations in the same order).
__host__ __device__ inline std::uint32_t children(const shape& s, const node& n)
{
  const double u = static_cast<double>(n.digest[4] & 0x7FFFFFFFu) / 2147483648.0;
  if (s.k == kind::binomial)
  {
    if (n.height == 0)
    {
      return static_cast<std::uint32_t>(std::floor(s.b0));
    }
    return u < s.q ? (s.m < max_children ? s.m : max_children) : 0;
  }
  double b = s.b0;
  if (n.height > 0)
  {
    b = s.k == kind::geometric_fixed ? (n.height < s.depth ? s.b0 : 0.0)
                                     : s.b0 * (1.0 - static_cast<double>(n.height) / static_cast<double>(s.depth));
  }
  const double p = 1.0 / (1.0 + b);
  const double x = std::floor(std::log(1.0 - u) / std::log(1.0 - p));
  // x is -0 where b is 0 (log(0) is -inf), NaN where b < 0 (only past a linear tree's depth, which
  // no node reaches): no children.
  if (!(x >= 1.0))
  {
    return 0;
  }
  return x >= max_children ? max_children : static_cast<std::uint32_t>(x);
}

} // namespace uts
