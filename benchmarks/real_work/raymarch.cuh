// benchmarks/real_work/raymarch.cuh: per-pixel sphere tracing of a signed-distance scene, in float.
//
// Index i is pixel (i mod W, i / W) of a W x H image, as fractals.cuh. The scene is a ground plane,
// an endless field of spheres (domain repetition, period 4 in x and z), a torus and a rounded box;
// the camera looks over the field towards the horizon. A pixel marches its ray up to 256 steps
// (each step one distance evaluation of the whole scene), and where it hits a surface it takes the
// normal (4 more evaluations) and marches a soft shadow towards the light (up to 64 steps). Cost
// varies by pixel and is correlated in the image: rays that leave into the sky or hit the ground
// close by take a few steps, rays that graze the spheres near the horizon take the whole limit,
// and only hits pay for the shadow. The output packs the steps taken (all marches, bits 0-15), the
// material hit (bits 16-18) and the shade in 8 bits (bits 20-27), plus one (common.cuh).
#pragma once

#include <cmath>
#include <cstdio>
#include <string>

#include "buffers.cuh"
#include "common.cuh"

namespace real_work {

struct v3
{
  float x, y, z;
};

__host__ __device__ inline v3 add3(v3 a, v3 b)
{
  return {fadd(a.x, b.x), fadd(a.y, b.y), fadd(a.z, b.z)};
}
__host__ __device__ inline v3 sub3(v3 a, v3 b)
{
  return {fsub(a.x, b.x), fsub(a.y, b.y), fsub(a.z, b.z)};
}
// a + b * s
__host__ __device__ inline v3 madd3(v3 a, v3 b, float s)
{
  return {ffma(b.x, s, a.x), ffma(b.y, s, a.y), ffma(b.z, s, a.z)};
}
__host__ __device__ inline float dot3(v3 a, v3 b)
{
  return ffma(a.x, b.x, ffma(a.y, b.y, fmul(a.z, b.z)));
}
__host__ __device__ inline float length3(v3 a)
{
  return fsqrt(dot3(a, a));
}
__host__ __device__ inline float length2(float x, float y)
{
  return fsqrt(ffma(x, x, fmul(y, y)));
}
__host__ __device__ inline v3 normalize3(v3 a)
{
  const float l = length3(a);
  return {fdiv(a.x, l), fdiv(a.y, l), fdiv(a.z, l)};
}

// The scene's distance at p, and the material of the nearest surface (0 ground, 1 spheres, 2
// torus, 3 box).
__host__ __device__ inline float scene_distance(v3 p, int& material)
{
  float d  = fadd(p.y, 1.0f); // the ground, y = -1
  material = 0;
  // Spheres of radius 0.9 at (4i, 0, 4j): the nearest centre's cell, by rounding.
  const float qx = ffma(-4.0f, floorf(ffma(p.x, 0.25f, 0.5f)), p.x);
  const float qz = ffma(-4.0f, floorf(ffma(p.z, 0.25f, 0.5f)), p.z);
  const float ds = fsub(length3({qx, p.y, qz}), 0.9f);
  if (ds < d)
  {
    d = ds, material = 1;
  }
  // A torus standing in the xy plane, centre (2, 1.6, 10), radii 2.2 and 0.35.
  const v3 t       = sub3(p, {2.0f, 1.6f, 10.0f});
  const float dt   = fsub(length2(fsub(length2(t.x, t.y), 2.2f), t.z), 0.35f);
  if (dt < d)
  {
    d = dt, material = 2;
  }
  // A box with rounded edges, centre (-3, 0.3, 7), half sizes (1, 1.3, 1), rounding 0.15.
  const v3 b = sub3(p, {-3.0f, 0.3f, 7.0f});
  const float bx = fsub(fabsf(b.x), 0.85f), by = fsub(fabsf(b.y), 1.15f), bz = fsub(fabsf(b.z), 0.85f);
  const float outside = length3({fmaxf(bx, 0.0f), fmaxf(by, 0.0f), fmaxf(bz, 0.0f)});
  const float db      = fsub(fadd(outside, fminf(fmaxf(bx, fmaxf(by, bz)), 0.0f)), 0.15f);
  if (db < d)
  {
    d = db, material = 3;
  }
  return d;
}

struct ray_march
{
  unsigned* out;
  v3 eye, forward, right, up; // right and up scaled to the field of view
  float u0, du, v0, dv;       // pixel (px, py) looks along forward + (u0 + px du) right + (v0 + py dv) up
  int width_log2;

  static constexpr int max_steps        = 256;
  static constexpr int max_shadow_steps = 64;
  static constexpr float far            = 60.0f;

  __host__ __device__ unsigned trace(int i) const
  {
    const int px = i & ((1 << width_log2) - 1);
    const int py = i >> width_log2;
    const float u = ffma(static_cast<float>(px), du, u0), v = ffma(static_cast<float>(py), dv, v0);
    const v3 rd   = normalize3(madd3(madd3(forward, right, u), up, v));
    float t       = 0.0f;
    int steps = 0, material = -1;
    for (; steps < max_steps; ++steps)
    {
      int m;
      const float d = scene_distance(madd3(eye, rd, t), m);
      if (d < ffma(1e-3f, t, 1e-4f))
      {
        material = m;
        break;
      }
      t = fadd(t, d);
      if (t > far)
      {
        break;
      }
    }
    unsigned shade = 0;
    if (material >= 0)
    {
      // The normal from four evaluations around the hit (the tetrahedron technique).
      const v3 p  = madd3(eye, rd, t);
      const float h = 1e-3f;
      int m;
      const float a = scene_distance(add3(p, {h, -h, -h}), m), b = scene_distance(add3(p, {-h, -h, h}), m);
      const float c = scene_distance(add3(p, {-h, h, -h}), m), e = scene_distance(add3(p, {h, h, h}), m);
      const v3 n    = normalize3({fsub(fadd(a, e), fadd(b, c)), fsub(fadd(c, e), fadd(a, b)), fsub(fadd(b, e), fadd(a, c))});
      const v3 light = {0.48f, 0.80f, -0.36f}; // unit length
      float lambert  = fmaxf(dot3(n, light), 0.0f);
      steps += 4;
      // A soft shadow: the closest the way to the light passes to the scene, relative to how far.
      float s = 1.0f, ts = 0.02f;
      const v3 o = madd3(p, n, 2e-3f);
      for (int k = 0; k < max_shadow_steps && lambert > 0.0f; ++k)
      {
        ++steps;
        const float d = scene_distance(madd3(o, light, ts), m);
        s             = fminf(s, fdiv(fmul(8.0f, d), ts));
        if (s < 1e-3f)
        {
          s = 0.0f;
          break;
        }
        ts = fadd(ts, fminf(fmaxf(d, 0.02f), 0.5f));
        if (ts > 20.0f)
        {
          break;
        }
      }
      lambert = fmul(lambert, s);
      shade   = static_cast<unsigned>(ffma(lambert, 254.0f, 1.0f)); // 1 .. 255
    }
    return static_cast<unsigned>(steps) | static_cast<unsigned>(material + 1) << 16 | shade << 20;
  }

  __device__ void operator()(int i) const
  {
    out[i] += trace(i) + 1u;
  }
};

// The camera for 2^log2n pixels (out left null).
inline ray_march make_ray_march(int log2n)
{
  const int wl = image_width_log2(log2n);
  const float w = static_cast<float>(1u << wl), h = static_cast<float>(1u << (log2n - wl));
  ray_march r{};
  r.eye         = {2.0f, 1.5f, -3.0f};
  const v3 look = {2.0f, -0.2f, 6.0f};
  r.forward     = normalize3(sub3(look, r.eye));
  const v3 side = normalize3({r.forward.z, 0.0f, -r.forward.x}); // horizontal, across the screen
  const v3 f     = r.forward;
  const v3 up   = {fsub(fmul(f.y, side.z), fmul(f.z, side.y)), fsub(fmul(f.z, side.x), fmul(f.x, side.z)),
                   fsub(fmul(f.x, side.y), fmul(f.y, side.x))}; // forward x side: up the screen
  const float fov = 0.8f; // tan of half the vertical angle
  const float aspect = w / h;
  r.right      = {side.x * fov * aspect, side.y * fov * aspect, side.z * fov * aspect};
  r.up         = {up.x * fov, up.y * fov, up.z * fov};
  r.du         = 2.0f / w;
  r.u0         = r.du / 2 - 1.0f;
  r.dv         = -2.0f / h;
  r.v0         = 1.0f + r.dv / 2;
  r.width_log2 = wl;
  return r;
}

class raymarch_workload : public counts_output
{
public:
  using op_type = ray_march;

  std::string name() const
  {
    return "raymarch";
  }
  std::string title() const
  {
    return "sphere tracing of a signed-distance scene (plane, sphere field, torus, box), float, up to 256 steps, "
           "normal and a soft shadow of up to 64 steps for hits";
  }
  void prepare(int log2n)
  {
    prepare_output(log2n);
  }
  op_type op() const
  {
    ray_march r = make_ray_march(log2n_);
    r.out       = out_.get();
    return r;
  }
  // From a correct output: the steps of all marches, bits 0-15, plus one.
  std::string stats(const unsigned* ref) const
  {
    return image_stats(ref, log2n_, "scene evaluations", 0xffffu);
  }
};

} // namespace real_work
