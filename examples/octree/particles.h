// examples/octree/particles.h: the three inputs of the octree benchmark (deterministic for a seed) and the
// checks every build runs on the host before anything is launched.
//   uniform   in the unit cube;
//   plummer   a = 0.01, truncated at r < 0.49, centred at (0.5, 0.5, 0.5);
//   clusters  the 2011 release's clusters of 100 particles, centres uniform in +-400, offsets uniform in
//             +-50, scaled from its cube of side 1024 into the unit cube. The release reuses `x` as
//             the loop index, so its particles' x is `index + noise` and clusters exist only in y and
//             z; here x is `centre.x + noise` like y and z (the bug fixed).
// A particle's w carries its id (bits of a uint32), so a builder's output says which particle is where.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace octree
{

enum class shape
{
  uniform,
  plummer,
  clusters
};

inline const char* name(shape s)
{
  return s == shape::uniform ? "uniform" : s == shape::plummer ? "plummer" : "clusters";
}

inline float4 with_id(double x, double y, double z, std::uint32_t id)
{
  float w;
  std::memcpy(&w, &id, 4);
  return make_float4(static_cast<float>(x), static_cast<float>(y), static_cast<float>(z), w);
}

inline std::vector<float4> make_particles(shape s, std::size_t n, std::uint64_t seed = 42)
{
  std::vector<float4> p(n);
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  double cx = 0, cy = 0, cz = 0;
  for (std::size_t i = 0; i < n; ++i)
  {
    double x, y, z;
    if (s == shape::uniform)
    {
      x = u(g), y = u(g), z = u(g);
    }
    else if (s == shape::plummer)
    {
      double r;
      do
      {
        r = 0.01 / std::sqrt(std::pow(u(g), -2.0 / 3.0) - 1.0);
      } while (!(r < 0.49));
      const double ct = 2 * u(g) - 1, ph = 2 * M_PI * u(g), st = std::sqrt(1 - ct * ct);
      x = 0.5 + r * st * std::cos(ph), y = 0.5 + r * st * std::sin(ph), z = 0.5 + r * ct;
    }
    else
    {
      if (i % 100 == 0)
      {
        cx = 0.5 + (800 * u(g) - 400) / 1024, cy = 0.5 + (800 * u(g) - 400) / 1024, cz = 0.5 + (800 * u(g) - 400) / 1024;
      }
      x = cx + (100 * u(g) - 50) / 1024, y = cy + (100 * u(g) - 50) / 1024, z = cz + (100 * u(g) - 50) / 1024;
    }
    p[i] = with_id(x, y, z, static_cast<std::uint32_t>(i));
  }
  return p;
}

// What a build needs, checked: only validate() makes one, so no builder can launch on bad input.
// T = 0 and a non-finite coordinate (the first bad index named) are errors; an empty set is a valid
// problem whose tree is empty (builders launch nothing); coincident particles are valid (a leaf at
// max_depth holds them, counted as overfull). Coordinates outside [0, 1] fall in the border cells.
struct input
{
  const std::vector<float4>* particles;
  std::uint32_t leaf_capacity; // T

  std::size_t size() const
  {
    return particles->size();
  }

private:
  input(const std::vector<float4>& p, std::uint32_t t)
      : particles(&p)
      , leaf_capacity(t)
  {}
  friend input validate(const std::vector<float4>& p, std::uint32_t leaf_capacity);
};

inline input validate(const std::vector<float4>& p, std::uint32_t leaf_capacity)
{
  if (leaf_capacity == 0)
  {
    throw std::invalid_argument("octree: leaf capacity T = 0: a leaf must hold at least one particle");
  }
  if (p.size() >= (std::size_t{1} << 31))
  {
    throw std::invalid_argument("octree: " + std::to_string(p.size()) + " particles: at most 2^31 - 1 (32-bit ranges)");
  }
  for (std::size_t i = 0; i < p.size(); ++i)
  {
    if (!std::isfinite(p[i].x) || !std::isfinite(p[i].y) || !std::isfinite(p[i].z))
    {
      throw std::invalid_argument("octree: particle " + std::to_string(i) + " has a non-finite coordinate (" +
                                  std::to_string(p[i].x) + ", " + std::to_string(p[i].y) + ", " +
                                  std::to_string(p[i].z) + ")");
    }
  }
  return input(p, leaf_capacity);
}

} // namespace octree
