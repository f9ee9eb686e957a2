// benchmarks/real_work/particles.cuh: neighbour counts over clustered particles, with a cell list.
//
// n particles in a cube whose side keeps the mean density at 2 per unit volume (the cut-off radius
// is 1): a quarter uniform, three quarters in Gaussian clusters (one per 4096 particles, centres
// uniform, widths log-uniform in [0.7, 5.6]), wrapped into the cube. The cell list (cells of side
// >= 1) is built on the GPU with CUB: cell keys, cub::DeviceRadixSort by key (stable: the same
// order every run), particles gathered in that order, each cell's first particle by binary search.
// Index i is the i-th particle in cell order, as a simulation keeps them; it counts the particles
// (itself included) within distance 1 over its 27 neighbouring cells (9 runs of 3 cells that lie
// next to each other in the order). Cost follows the local density: a few dozen distance tests in
// the background, thousands in a narrow cluster's core, and in runs of consecutive indices.
#pragma once

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "buffers.cuh"
#include "common.cuh"

namespace real_work {

struct particle_space
{
  float box;      // the cube's side
  float inv_cell; // cells per unit length
  int grid;       // cells per side
  int clusters;
  unsigned long long n;
};

inline particle_space make_particle_space(int log2n)
{
  particle_space s{};
  s.n        = 1ull << log2n;
  s.box      = static_cast<float>(std::cbrt(static_cast<double>(s.n) / 2.0));
  s.grid     = std::max(1, static_cast<int>(s.box));
  s.inv_cell = static_cast<float>(s.grid) / s.box;
  s.clusters = static_cast<int>(std::max<unsigned long long>(1, s.n / 4096));
  return s;
}

__host__ __device__ inline int cell_coord(float x, const particle_space& s)
{
  const int c = static_cast<int>(fmul(x, s.inv_cell));
  return c < 0 ? 0 : c >= s.grid ? s.grid - 1 : c;
}

__host__ __device__ inline unsigned cell_key(int x, int y, int z, const particle_space& s)
{
  return static_cast<unsigned>(x) + static_cast<unsigned>(s.grid) * (static_cast<unsigned>(y) + static_cast<unsigned>(s.grid) * static_cast<unsigned>(z));
}

__host__ __device__ inline float wrap(float x, float box)
{
  return ffma(-box, floorf(fdiv(x, box)), x);
}

// Particle i's position (w unused).
__host__ __device__ inline float4 particle_position(const particle_space& s, std::uint64_t i)
{
  const std::uint64_t h = hash64(0x5eed0020, i);
  if ((h & 3) == 0)
  {
    return {fmul(unit_float(hash64(0x5eed0021, i)), s.box), fmul(unit_float(hash64(0x5eed0022, i)), s.box),
            fmul(unit_float(hash64(0x5eed0023, i)), s.box), 0.0f};
  }
  const std::uint64_t c = (h >> 2) % static_cast<std::uint64_t>(s.clusters);
  const float sigma     = fmul(0.7f, exp2f(fmul(3.0f, unit_float(hash64(0x5eed0024, c)))));
  float g[4]; // two Box-Muller pairs
  for (int k = 0; k < 2; ++k)
  {
    const float u1 = fsub(1.0f, unit_float(hash64(0x5eed0025 + k, i))); // (0, 1]
    const float u2 = unit_float(hash64(0x5eed0027 + k, i));
    const float r  = fsqrt(fmul(-2.0f, logf(u1)));
    g[2 * k]       = fmul(r, cospif(fmul(2.0f, u2)));
    g[2 * k + 1]   = fmul(r, sinpif(fmul(2.0f, u2)));
  }
  float p[3];
  for (int d = 0; d < 3; ++d)
  {
    const float centre = fmul(unit_float(hash64(0x5eed0029, 3 * c + d)), s.box);
    p[d]               = wrap(ffma(sigma, g[d], centre), s.box);
  }
  return {p[0], p[1], p[2], 0.0f};
}

struct neighbour_count
{
  const float4* pos;        // in cell order
  const unsigned* first;    // first[c]: the first particle of cell c; first[cells] = n
  particle_space s;
  unsigned* out;

  __host__ __device__ unsigned count(int i) const
  {
    const float4 p = pos[i];
    const int cx = cell_coord(p.x, s), cy = cell_coord(p.y, s), cz = cell_coord(p.z, s);
    const int x0 = cx > 0 ? cx - 1 : 0, x1 = cx + 1 < s.grid ? cx + 1 : cx;
    unsigned found = 0;
    for (int z = cz > 0 ? cz - 1 : 0; z <= cz + 1 && z < s.grid; ++z)
    {
      for (int y = cy > 0 ? cy - 1 : 0; y <= cy + 1 && y < s.grid; ++y)
      {
        for (unsigned k = first[cell_key(x0, y, z, s)], end = first[cell_key(x1, y, z, s) + 1]; k < end; ++k)
        {
          const float4 q = pos[k];
          const float dx = fsub(q.x, p.x), dy = fsub(q.y, p.y), dz = fsub(q.z, p.z);
          found += ffma(dx, dx, ffma(dy, dy, fmul(dz, dz))) < 1.0f;
        }
      }
    }
    return found; // itself included: at least 1
  }

  __device__ void operator()(int i) const
  {
    out[i] += count(i);
  }
};

struct particle_generate
{
  particle_space s;
  float4* pos;
  unsigned* key;
  unsigned* index;
  __device__ void operator()(int i) const
  {
    const float4 p = particle_position(s, static_cast<std::uint64_t>(i));
    pos[i]         = p;
    key[i]         = cell_key(cell_coord(p.x, s), cell_coord(p.y, s), cell_coord(p.z, s), s);
    index[i]       = static_cast<unsigned>(i);
  }
};

struct particle_gather
{
  const float4* from;
  const unsigned* index;
  float4* to;
  __device__ void operator()(int j) const
  {
    to[j] = from[index[j]];
  }
};

// first[c] = the first j with key[j] >= c, for c in [0, cells] (first[cells] = n).
struct cell_first
{
  const unsigned* key;
  unsigned n;
  unsigned* first;
  __device__ void operator()(int c) const
  {
    unsigned lo = 0, hi = n;
    while (lo < hi)
    {
      const unsigned mid = lo + (hi - lo) / 2;
      if (key[mid] < static_cast<unsigned>(c))
      {
        lo = mid + 1;
      }
      else
      {
        hi = mid;
      }
    }
    first[c] = lo;
  }
};

// The same cell list built on the host (the CPU self-test and the run-time estimate): positions in
// cell order and each cell's first particle.
struct host_cells
{
  particle_space s;
  std::vector<float4> pos;
  std::vector<unsigned> first;

  explicit host_cells(int log2n)
      : s(make_particle_space(log2n))
  {
    const unsigned long long n = s.n;
    const std::size_t cells    = static_cast<std::size_t>(s.grid) * s.grid * s.grid;
    std::vector<float4> raw(n);
    std::vector<unsigned> key(n), count(cells + 1, 0);
    for (unsigned long long i = 0; i < n; ++i)
    {
      raw[i] = particle_position(s, i);
      key[i] = cell_key(cell_coord(raw[i].x, s), cell_coord(raw[i].y, s), cell_coord(raw[i].z, s), s);
      ++count[key[i] + 1];
    }
    first.assign(cells + 1, 0);
    for (std::size_t c = 0; c < cells; ++c)
    {
      first[c + 1] = first[c] + count[c + 1];
    }
    pos.resize(n);
    std::vector<unsigned> next(first.begin(), first.end() - 1); // a stable counting sort
    for (unsigned long long i = 0; i < n; ++i)
    {
      pos[next[key[i]]++] = raw[i];
    }
  }
  neighbour_count op() const
  {
    return {pos.data(), first.data(), s, nullptr};
  }
  // Distance tests particle i makes (the particles of its 27 cells).
  unsigned tests(int i) const
  {
    const float4 p = pos[i];
    const int cx = cell_coord(p.x, s), cy = cell_coord(p.y, s), cz = cell_coord(p.z, s);
    const int x0 = std::max(cx - 1, 0), x1 = std::min(cx + 1, s.grid - 1);
    unsigned t   = 0;
    for (int z = std::max(cz - 1, 0); z <= std::min(cz + 1, s.grid - 1); ++z)
    {
      for (int y = std::max(cy - 1, 0); y <= std::min(cy + 1, s.grid - 1); ++y)
      {
        t += first[cell_key(x1, y, z, s) + 1] - first[cell_key(x0, y, z, s)];
      }
    }
    return t;
  }
};

class neighbour_workload : public counts_output
{
  particle_space s_{};
  device_array<float4> raw_, pos_;
  device_array<unsigned> key_, key_sorted_, index_, index_sorted_, first_;
  device_array<unsigned char> scratch_; // CUB's temporary storage

public:
  using op_type = neighbour_count;

  std::string name() const
  {
    return "neighbours";
  }
  std::string title() const
  {
    return "neighbour counts within r = 1 over clustered particles (3/4 in Gaussian clusters), cell list sorted by "
           "CUB, one index per particle in cell order, float";
  }
  void prepare(int log2n)
  {
    prepare_output(log2n);
    s_              = make_particle_space(log2n);
    const int n     = 1 << log2n;
    const int cells = s_.grid * s_.grid * s_.grid;
    raw_.reserve(n), pos_.reserve(n), key_.reserve(n), key_sorted_.reserve(n), index_.reserve(n);
    index_sorted_.reserve(n), first_.reserve(cells + 1ull);
    generate(n, particle_generate{s_, raw_.get(), key_.get(), index_.get()});
    int bits = 1;
    while ((1ll << bits) < cells)
    {
      ++bits;
    }
    two_phase(scratch_, [&](void* t, std::size_t& b) {
      return cub::DeviceRadixSort::SortPairs(t, b, key_.get(), key_sorted_.get(), index_.get(), index_sorted_.get(), n,
                                             0, bits);
    });
    generate(n, particle_gather{raw_.get(), index_sorted_.get(), pos_.get()});
    generate(cells + 1, cell_first{key_sorted_.get(), static_cast<unsigned>(n), first_.get()});
    PTXW_BENCH_CHECK(cudaDeviceSynchronize());
    raw_.release(), key_.release(), index_.release(), index_sorted_.release(), key_sorted_.release();
    scratch_.release();
  }
  op_type op() const
  {
    return {pos_.get(), first_.get(), s_, out_.get()};
  }
  std::string stats(const unsigned* ref) const
  {
    const unsigned long long n = 1ull << log2n_;
    const sum_max s            = sum_and_max(ref, n);
    char b[160];
    std::snprintf(b, sizeof b, "box %.1f, %d^3 cells, %.1f neighbours a particle (itself included), most %u", s_.box,
                  s_.grid, s.sum / n, s.max);
    return b;
  }
  void release()
  {
    raw_.release(), pos_.release(), key_.release(), key_sorted_.release(), index_.release();
    index_sorted_.release(), first_.release();
    scratch_.release();
    counts_output::release();
  }
};

} // namespace real_work
