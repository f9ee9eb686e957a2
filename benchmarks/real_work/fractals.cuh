// benchmarks/real_work/fractals.cuh: escape-time fractals in double precision, one index per pixel.
//
// Index i is pixel (i mod W, i / W) of a W x H image (W = 2^ceil(k/2), H = 2^floor(k/2) for n = 2^k
// pixels), rows from the top. The pixel's centre is a point p of the view's rectangle of the
// complex plane; the Mandelbrot set iterates z <- z^2 + p from z = 0, a Julia set z <- z^2 + c from
// z = p, until |z| > 2 or the view's iteration limit. The output is the number of iterations
// (plus one: common.cuh's exactly-once encoding). A pixel inside the set costs the whole limit, one
// outside costs as many iterations as it takes to escape: few far from the set, many near its
// boundary. Costs are therefore correlated in the image (whole rows of interior pixels), and
// their spread depends on the view.
#pragma once

#include <cstdio>
#include <string>

#include "buffers.cuh"
#include "common.cuh"

namespace real_work {

struct escape_time
{
  unsigned* out;
  double x0, y0; // the centre of pixel (0, 0)
  double dx, dy; // from one pixel's centre to the next (dy < 0: rows go down)
  double jr, ji; // the Julia set's c
  int width_log2;
  int max_iter;
  bool julia;

  __host__ __device__ unsigned iterations(int i) const
  {
    const int px = i & ((1 << width_log2) - 1);
    const int py = i >> width_log2;
    const double pr = dfma(static_cast<double>(px), dx, x0);
    const double pi = dfma(static_cast<double>(py), dy, y0);
    double zr = julia ? pr : 0.0, zi = julia ? pi : 0.0;
    const double cr = julia ? jr : pr, ci = julia ? ji : pi;
    int it = 0;
    for (; it < max_iter; ++it)
    {
      const double zr2 = dmul(zr, zr), zi2 = dmul(zi, zi);
      if (dadd(zr2, zi2) > 4.0)
      {
        break;
      }
      zi = dfma(dadd(zr, zr), zi, ci);
      zr = dadd(dsub(zr2, zi2), cr);
    }
    return static_cast<unsigned>(it);
  }

  __device__ void operator()(int i) const
  {
    out[i] += iterations(i) + 1u;
  }
};

// A rectangle of the complex plane, its iteration limit, and c for a Julia set.
struct fractal_view
{
  const char* name;
  const char* title;
  double re_min, re_max, im_min, im_max;
  int max_iter;
  bool julia;
  double jr, ji;
};

inline constexpr fractal_view fractal_views[] = {
  {"mandel-full", "Mandelbrot set, whole set, re [-2.5, 1] x im [-1.25, 1.25], limit 4096", -2.5, 1.0, -1.25, 1.25,
   4096, false, 0, 0},
  {"mandel-seahorse", "Mandelbrot set, zoom on seahorse valley, re [-0.7475, -0.7425] x im [0.1, 0.105], limit 4096",
   -0.7475, -0.7425, 0.1, 0.105, 4096, false, 0, 0},
  {"mandel-exterior", "Mandelbrot set, mostly exterior: re [-2, 1] x im [0.65, 1.75], limit 1024", -2.0, 1.0, 0.65, 1.75,
   1024, false, 0, 0},
  {"julia", "Julia set, c = -0.8 + 0.156i, re [-1.6, 1.6] x im [-0.9, 0.9], limit 1024", -1.6, 1.6, -0.9, 0.9, 1024,
   true, -0.8, 0.156},
};

// The functor for view v at 2^log2n pixels (out left null).
inline escape_time make_escape_time(const fractal_view& v, int log2n)
{
  const int wl = image_width_log2(log2n);
  const double w = static_cast<double>(1ull << wl), h = static_cast<double>(1ull << (log2n - wl));
  escape_time e{};
  e.dx         = (v.re_max - v.re_min) / w;
  e.dy         = -(v.im_max - v.im_min) / h;
  e.x0         = v.re_min + e.dx / 2;
  e.y0         = v.im_max + e.dy / 2;
  e.jr         = v.jr;
  e.ji         = v.ji;
  e.width_log2 = wl;
  e.max_iter   = v.max_iter;
  e.julia      = v.julia;
  return e;
}

class fractal_workload : public counts_output
{
  const fractal_view& v_;

public:
  using op_type = escape_time;

  explicit fractal_workload(const fractal_view& v)
      : v_(v)
  {}
  std::string name() const
  {
    return v_.name;
  }
  std::string title() const
  {
    return v_.title;
  }
  void prepare(int log2n)
  {
    prepare_output(log2n);
  }
  op_type op() const
  {
    escape_time e = make_escape_time(v_, log2n_);
    e.out         = out_.get();
    return e;
  }
  // From a correct output (iterations + 1 per pixel).
  std::string stats(const unsigned* ref) const
  {
    return image_stats(ref, log2n_, "iterations");
  }
};

} // namespace real_work
