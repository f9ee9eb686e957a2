// benchmarks/real_work/cpu_checks.cuh: the real-workload benchmark's CPU-only modes (included once,
// by device_real_work.cu, into its anonymous namespace's scope).
//
// --self-test checks what can be checked without a GPU: the functors' host forms on known values,
// the cell list against brute force, the Zipf sampler against its mean, that each output encoding
// sees a skipped and a repeated index, and the sweep's policy list.
//
// --estimate models the run time on an H100. Work per index is sampled on the CPU (the same
// functors), the rest is arithmetic on the sizes; the rates are stated below, with where they come
// from. It is an estimate for planning the GPU session, not a measurement.
#pragma once

namespace {

int self_test_failures = 0;

void expect(bool ok, const std::string& what)
{
  std::printf("  %s  %s\n", ok ? "ok  " : "FAIL", what.c_str());
  self_test_failures += !ok;
}

unsigned escape_at(double re, double im, int limit, bool julia = false, double jr = 0, double ji = 0)
{
  escape_time e{};
  e.x0 = re, e.y0 = im, e.max_iter = limit, e.julia = julia, e.jr = jr, e.ji = ji;
  return e.iterations(0);
}

int self_test()
{
  std::printf("self-test (CPU only)\n");
  // Escape-time fractals.
  expect(escape_at(0, 0, 4096) == 4096, "Mandelbrot: c = 0 never escapes");
  expect(escape_at(-2, 0, 1024) == 1024, "Mandelbrot: c = -2 stays at |z| = 2 (never escapes)");
  expect(escape_at(1, 0, 1024) == 3, "Mandelbrot: c = 1 escapes after 3 iterations (0, 1, 2, 5)");
  expect(escape_at(3, 0, 1024, true, -0.8, 0.156) == 0, "Julia: z0 = 3 escapes at once");
  for (const fractal_view& v : fractal_views)
  {
    const int log2n     = 14;
    const escape_time e = make_escape_time(v, log2n);
    const int n = 1 << log2n, w = 1 << e.width_log2, h = n / w;
    const double first_re = e.x0, last_im = e.y0 + (h - 1) * e.dy;
    expect(std::fabs(first_re - (v.re_min + (v.re_max - v.re_min) / w / 2)) < 1e-12
             && std::fabs(last_im - (v.im_min + (v.im_max - v.im_min) / h / 2)) < 1e-12,
           std::string(v.name) + ": pixel centres span the view");
    double sum = 0;
    for (int i = 0; i < n; ++i)
    {
      sum += e.iterations(i);
    }
    std::printf("        %s: %.1f iterations a pixel at %d x %d\n", v.name, sum / n, w, h);
  }
  const escape_time full = make_escape_time(fractal_views[0], 16);
  int mirrored           = 0;
  for (int x = 0; x < 256; ++x)
  {
    for (int y = 0; y < 128; ++y)
    {
      mirrored += full.iterations(y * 256 + x) == full.iterations((255 - y) * 256 + x);
    }
  }
  expect(mirrored > 256 * 128 * 99 / 100, "whole set: the image is symmetric about the real axis (" + std::to_string(mirrored)
                                              + " of 32768 pixel pairs)");

  // Zipf row lengths.
  for (double s : {1.5, 2.5})
  {
    const int kmax                = spmv_workload::row_length_cap;
    const std::vector<double> cdf = zipf_cdf(s, kmax);
    const zipf_length z{cdf.data(), kmax, 0x5eed0000 + static_cast<std::uint64_t>(s * 10), nullptr, 0};
    double sum = 0;
    long long lo = kmax, hi = 0;
    const int rows = 1 << 21;
    for (int r = 0; r < rows; ++r)
    {
      const long long l = z.sample(r);
      sum += l, lo = std::min(lo, l), hi = std::max(hi, l);
    }
    const double mean = zipf_mean(s, kmax);
    char b[200];
    std::snprintf(b, sizeof b, "Zipf s = %.1f: 2^21 rows, mean length %.2f (law %.2f), lengths in [%lld, %lld]", s,
                  sum / rows, mean, lo, hi);
    expect(std::fabs(sum / rows - mean) < 0.03 * mean && lo == 1 && hi <= kmax, b);
  }
  {
    // A small CSR matrix: the row sums against a plain loop.
    const long long row_ptr[] = {0, 2, 2, 5};
    const int col[]           = {1, 0, 2, 2, 1};
    const double val[]        = {0.5, 1.25, 0.75, 1.5, 1.0};
    const double x[]          = {1.0, 2.0, 0.5};
    const spmv_row r{row_ptr, col, val, x, nullptr};
    expect(r.row_sum(0) == 0.5 * 2.0 + 1.25 * 1.0 && r.row_sum(1) == 0.0
             && r.row_sum(2) == 0.75 * 0.5 + 1.5 * 0.5 + 1.0 * 2.0,
           "SpMV: row sums of a 3 x 3 matrix");
  }

  // saxpy: one update differs from none, two from one (the exactly-once check), for 10^6 inputs.
  {
    int seen = 0;
    for (int i = 0; i < 1000000; ++i)
    {
      const float x = 1.0f + unit_float(hash64(0x5eed0010, i)), y = 1.0f + unit_float(hash64(0x5eed0011, i));
      const float once = std::fmaf(0.75f, x, y), twice = std::fmaf(0.75f, x, once);
      seen += once != y && twice != once;
    }
    expect(seen == 1000000, "saxpy: a skipped and a repeated update both change y (10^6 inputs)");
  }

  // Ray marching: a picture with sky, ground and objects; deterministic.
  {
    const ray_march r = make_ray_march(14);
    const int n       = 1 << 14;
    int sky = 0, hit = 0, same = 0;
    double steps = 0;
    for (int i = 0; i < n; ++i)
    {
      const unsigned t = r.trace(i);
      sky += (t >> 16 & 7) == 0;
      hit += (t >> 16 & 7) != 0;
      steps += t & 0xffff;
      same += t == r.trace(i);
    }
    char b[160];
    std::snprintf(b, sizeof b, "ray marching: %d of %d pixels sky, %d hit, %.1f evaluations a pixel, repeatable", sky,
                  n, hit, steps / n);
    expect(sky > n / 10 && hit > n / 3 && same == n && steps / n > 10, b);
  }

  // Neighbour counts: the cell list against brute force.
  {
    const host_cells c(12);
    const neighbour_count op = c.op();
    const int n              = static_cast<int>(c.s.n);
    int bad = 0, inside = 0;
    for (int i = 0; i < n; ++i)
    {
      unsigned brute = 0;
      for (int k = 0; k < n; ++k)
      {
        const float dx = c.pos[k].x - c.pos[i].x, dy = c.pos[k].y - c.pos[i].y, dz = c.pos[k].z - c.pos[i].z;
        brute += dx * dx + dy * dy + dz * dz < 1.0f;
      }
      bad += brute != op.count(i);
      inside += c.pos[i].x >= 0 && c.pos[i].x <= c.s.box && c.pos[i].y >= 0 && c.pos[i].y <= c.s.box
             && c.pos[i].z >= 0 && c.pos[i].z <= c.s.box;
    }
    expect(bad == 0 && inside == n, "neighbours: 4096 particles in the box, cell-list counts equal brute force");
  }

  // The sweep's policies: 69 distinct (stolen tiles: 128, 256, 512 threads x 4, 8, 16 rounds, half
  // shared, x waves 1, 4, 8 x occupancy 0 and full; plain launches: 128, 256, 512 threads x 5 tile
  // shapes), the default among them, the smallest stolen tiles (128x4/2w1) too.
  {
    std::vector<std::string> names;
    for_each_type(sweep_policies{}, [&](auto p, int) { names.push_back(policy_label(p)); });
    std::vector<std::string> sorted = names;
    std::sort(sorted.begin(), sorted.end());
    const bool distinct = std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
    const std::string def = policy_label(ptxw::device::for_each_selector{});
    expect(names.size() == 69 && sweep_policy_count == 69 && distinct
             && std::find(names.begin(), names.end(), def) != names.end()
             && std::find(names.begin(), names.end(), "128x4/2w1") != names.end(),
           std::to_string(names.size()) + " distinct sweep policies, the default (" + def
             + ") and the smallest tiles (128x4/2w1) among them");
  }
  std::printf("%s\n", self_test_failures ? "self-test FAILED" : "self-test passed");
  return self_test_failures ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// The run-time model.

// Rates of CUB Bulk's call on an H100 (what the model divides the work by):
struct rates
{
  // double escape-time iterations a second: the whole set (4096 x 4096, limit 4096) took
  // 7.3 ms under CUB on an H100 (this benchmark's table); this view's 711 iterations a pixel make that 1.7e12.
  double fractal_iterations = 1.7e12;
  // SpMV: nonzeros a second in bulk, and the longest row's serial chain (dependent FMAs on gathered
  // loads, ~0.48 us a nonzero): CUB took 36 ms at 2^21 rows for s = 1.5 (a row of 10^5) and
  // 4.8 ms for s = 2.5 on an H100.
  double spmv_nonzeros  = 1.1e10;
  double spmv_serial_us = 0.48;
  // saxpy: bytes a second (the copy bandwidth, about 2.6 TB/s on an H100 80GB HBM3).
  double bytes = 2.6e12;
  // Scene evaluations a second (about 80 instructions each; a guess at half the issue rate).
  double scene_evaluations = 2e11;
  // Distance tests a second (a float4 load from L1 and 8 instructions; a guess).
  double distance_tests = 6e11;
  // Each timed call: sync, event, the comparison kernel's launch and copy back (us).
  double per_call_us = 40;
  // ptxw against CUB in the model: the default's worst measured case is 1.43x; the sweep's
  // policies are taken at 1.3x on average.
  double ptxw_default = 1.5, ptxw_sweep = 1.3;
};

// Work a workload's index does on average, sampled on the CPU once.
struct sampled
{
  double fractal[4]   = {};
  double ray_steps    = 0;
  double tests_small  = 0; // distance tests a particle at 2^16
  double tests_large  = 0; // at 2^18: used for larger n
};

sampled sample_work()
{
  sampled s;
  for (int v = 0; v < 4; ++v)
  {
    const escape_time e = make_escape_time(fractal_views[v], 14);
    double sum          = 0;
    for (int i = 0; i < (1 << 14); ++i)
    {
      sum += e.iterations(i);
    }
    s.fractal[v] = sum / (1 << 14);
  }
  const ray_march r = make_ray_march(14);
  double steps      = 0;
  for (int i = 0; i < (1 << 14); ++i)
  {
    steps += r.trace(i) & 0xffff;
  }
  s.ray_steps = steps / (1 << 14);
  for (int k : {16, 18})
  {
    const host_cells c(k);
    double t = 0;
    for (int i = 0; i < (1 << k); ++i)
    {
      t += c.tests(i);
    }
    (k == 16 ? s.tests_small : s.tests_large) = t / (1 << k);
  }
  return s;
}

// The expected longest of n Zipf rows: the smallest k with P(L > k) < 1 / n.
double zipf_longest(double s, int log2n)
{
  const int kmax                = std::min(spmv_workload::row_length_cap, 1 << log2n);
  const std::vector<double> cdf = zipf_cdf(s, kmax);
  const double q                = 1.0 - std::ldexp(1.0, -log2n);
  return static_cast<double>(std::lower_bound(cdf.begin(), cdf.end(), q) - cdf.begin() + 1);
}

// CUB Bulk's modelled time for one call of workload w (by index in for_each_workload's order) at 2^k.
double model_us(int w, int k, const sampled& s, const rates& r)
{
  const double n = std::ldexp(1.0, k);
  const double launch = 8;
  if (w < 4)
  {
    return launch + n * s.fractal[w] / r.fractal_iterations * 1e6 + n * 8 / r.bytes * 1e6;
  }
  if (w < 6)
  {
    const double e = w == 4 ? 1.5 : 2.5;
    const double nnz = zipf_mean(e, std::min(spmv_workload::row_length_cap, 1 << k)) * n;
    return launch + std::max(nnz / r.spmv_nonzeros * 1e6, zipf_longest(e, k) * r.spmv_serial_us);
  }
  if (w == 6)
  {
    return launch + 12 * n / r.bytes * 1e6;
  }
  if (w == 7)
  {
    return launch + n * s.ray_steps / r.scene_evaluations * 1e6;
  }
  return launch + n * (k <= 16 ? s.tests_small : s.tests_large) / r.distance_tests * 1e6;
}

int estimate(const Options& o)
{
  const rates r;
  std::printf("run-time estimate for an H100 (a model, not a measurement; rates in cpu_checks.cuh)\n");
  std::printf("sampling the work per index on the CPU...\n");
  const sampled s = sample_work();
  std::printf("  iterations a pixel: %.1f %.1f %.1f %.1f; scene evaluations a pixel %.1f; distance tests a particle "
              "%.1f (2^16) %.1f (2^18)\n",
              s.fractal[0], s.fractal[1], s.fractal[2], s.fractal[3], s.ray_steps, s.tests_small, s.tests_large);
  const char* names[]  = {"mandel-full", "mandel-seahorse", "mandel-exterior", "julia", "spmv-zipf1.5",
                          "spmv-zipf2.5", "saxpy", "raymarch", "neighbours"};
  const int max_k[]    = {26, 26, 26, 26, 22, 26, 26, 26, 26};
  const int out_bytes[] = {4, 4, 4, 4, 8, 8, 4, 4, 4};
  std::printf("\nCUB Bulk, one call, modelled (ms)\n%-16s", "workload");
  for (int k = 16; k <= 26; ++k)
  {
    std::printf(" %7s", pow2(k).c_str());
  }
  std::printf("\n");
  for (int w = 0; w < 9; ++w)
  {
    std::printf("%-16s", names[w]);
    for (int k = 16; k <= 26; ++k)
    {
      if (k <= max_k[w])
      {
        std::printf(" %7.2f", model_us(w, k, s, r) / 1e3);
      }
      else
      {
        std::printf(" %7s", "-");
      }
    }
    std::printf("\n");
  }
  // A run: per workload and n, the preparation, the references, the untimed first calls and the
  // rounds, each call with its reset and comparison.
  auto run_seconds = [&](bool sweep, bool quick, long long reps, std::vector<std::pair<int, double>>* per_workload) {
    double total = 3e6; // start-up, context, module loading, copy bandwidth (us)
    for (int w = 0; w < 9; ++w)
    {
      if (!o.selected(names[w]))
      {
        continue;
      }
      double t_w = 0;
      for (int k : sweep ? sweep_sizes(quick) : table_sizes(quick))
      {
        if (k > max_k[w] || k > o.max_log2n)
        {
          continue;
        }
        const double n     = std::ldexp(1.0, k);
        const double t     = model_us(w, k, s, r);
        const bool b2b     = t < back_to_back_below;
        const double mem   = n * out_bytes[w] * 3 / r.bytes * 1e6; // reset, and the comparison's two reads
        const double call  = r.per_call_us + mem;                   // per timed call, besides the work
        // generating the inputs: about 24 bytes written and hashed a nonzero, 64 an index
        const double generated =
          w == 4 || w == 5 ? 24 * zipf_mean(w == 4 ? 1.5 : 2.5, std::min(spmv_workload::row_length_cap, 1 << k)) * n
                           : 64 * n;
        const double prep = 2e3 + generated / r.bytes * 1e6;
        double calls_us = 2 * t + (b2b ? back_to_back_calls * t : 0) + 2 * call; // references and CUB's first call
        if (sweep)
        {
          const int cb = b2b ? back_to_back_calls : 1;
          calls_us += sweep_policy_count * (cb * t * r.ptxw_sweep + call);          // first calls
          calls_us += reps * (sweep_policy_count * (cb * t * r.ptxw_sweep + call) + 9 * (cb * t + call));
        }
        else
        {
          const double round = (r.ptxw_default + 3) * t + 4 * call;
          calls_us += (r.ptxw_default + 2) * t + 3 * call;                           // first calls
          calls_us += reps * (round + (b2b ? back_to_back_calls * (r.ptxw_default + 3) * t + 4 * call : 0));
        }
        t_w += prep + calls_us;
      }
      total += t_w;
      if (per_workload != nullptr)
      {
        per_workload->emplace_back(w, t_w / 1e6);
      }
    }
    return total / 1e6;
  };
  std::vector<std::pair<int, double>> dw, sw;
  auto reps = [&](bool sweep, bool quick) {
    return o.reps_given ? o.reps : default_reps(sweep, quick);
  };
  const double def   = run_seconds(false, false, reps(false, false), &dw);
  const double quick = run_seconds(false, true, reps(false, true), nullptr);
  const double swp   = run_seconds(true, false, reps(true, false), &sw);
  const double swq   = run_seconds(true, true, reps(true, true), nullptr);
  std::printf("\nmodelled seconds per workload, default run / sweep:\n");
  for (std::size_t w = 0; w < dw.size() && w < sw.size(); ++w)
  {
    std::printf("  %-16s %6.1f / %6.1f\n", names[dw[w].first], dw[w].second, sw[w].second);
  }
  std::printf("\nmodelled run time: default %.0f s, --quick %.0f s, --sweep %.0f s, --sweep --quick %.0f s\n", def,
              quick, swp, swq);
  std::printf("(ptxw taken at %.1fx CUB's time in the tables and %.1fx in the sweep; 3 s of start-up)\n",
              r.ptxw_default, r.ptxw_sweep);
  return 0;
}

} // namespace
