// benchmarks/state/cpu_checks.cuh: the per-CTA-state benchmark's --self-test (device_state.cu): the
// host side, on the CPU -- the samples' bins, the plain launch's tiles, the CPU table, the default's
// plan.
#pragma once

#include <ptxw/algorithms.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "plain.cuh"
#include "samples.cuh"
#include "table.cuh"

namespace state_work {

inline int self_test()
{
  int failures = 0;
  auto expect  = [&](bool ok, const std::string& what) {
    if (!ok)
    {
      ++failures;
      std::printf("FAILED: %s\n", what.c_str());
    }
  };
  // The float samples: in [0, 1), in the bin they were drawn for, at least 0.19 bin widths from its
  // edges (0.2 before rounding to float), for 4096 bins and for 256 (so CUB's and the op's arithmetic
  // agree); 90% of skewed ones hot.
  for (bool skewed : {false, true})
  {
    unsigned long long hot = 0;
    const unsigned long long m = 1000000;
    std::vector<unsigned> per_byte(256, 0);
    for (unsigned long long i = 0; i < m; ++i)
    {
      const float x    = float_sample(i, skewed);
      const unsigned b = float_bin_4096(i, skewed);
      const double pos = static_cast<double>(x) * 4096.0 - b;
      if (!(x >= 0.0f && x < 1.0f && pos >= 0.19 && pos <= 0.81))
      {
        expect(false, "float sample " + std::to_string(i) + " at " + std::to_string(pos) + " of bin "
                        + std::to_string(b));
        break;
      }
      expect(static_cast<unsigned>(x * 4096.0f) == b && static_cast<unsigned>(x * 256.0f) == b / 16,
             "float sample " + std::to_string(i) + ": the op's bins");
      hot += b == hot_4096;
      ++per_byte[byte_sample(i, skewed)];
    }
    const double frac = static_cast<double>(hot) / m;
    expect(skewed ? frac > 0.89 && frac < 0.91 : frac < 0.001, "fraction of hot float samples " + std::to_string(frac));
    const double byte_frac = static_cast<double>(per_byte[hot_byte]) / m;
    expect(skewed ? byte_frac > 0.89 && byte_frac < 0.91 : byte_frac < 0.006,
           "fraction of hot bytes " + std::to_string(byte_frac));
    if (!skewed)
    {
      expect(*std::min_element(per_byte.begin(), per_byte.end()) > 3000, "uniform bytes reach every bin");
    }
  }
  // The plain launch's tiles: every index in exactly one (block, round, thread).
  for (unsigned long long n : {1ull, 4095ull, 4096ull, 4097ull, 100000ull})
  {
    std::vector<unsigned char> seen(n, 0);
    for (unsigned long long b = 0; b < plain_blocks(n); ++b)
    {
      for (int r = 0; r < plain_rounds; ++r)
      {
        for (int t = 0; t < plain_threads; ++t)
        {
          const unsigned long long i =
            b * plain_threads * plain_rounds + static_cast<unsigned long long>(r) * plain_threads + t;
          if (i < n)
          {
            ++seen[i];
          }
        }
      }
    }
    expect(std::count(seen.begin(), seen.end(), 1) == static_cast<long>(n), "plain tiles at n " + std::to_string(n));
  }
  // The CPU table: the polynomial's ends.
  const std::vector<float> c = table_coefficients(64);
  double at1 = 0;
  for (float v : c)
  {
    at1 += v;
  }
  expect(std::fabs(table_cpu(c, 4096, 1.0f) - at1) < 1e-9 && std::fabs(table_cpu(c, 4096, 0.0f) - c[0]) < 1e-12,
         "the CPU table at 0 and 1");
  // The op's knots (Horner in float, fmaf as on the device) against the CPU's in double, for the
  // three tables: far within the device check's tolerance (1e-3, relative to 1 + |f|).
  for (const auto [entries, degree] : {std::pair{1024, 8}, std::pair{4096, 64}, std::pair{4096, 256}})
  {
    const std::vector<float> cd = table_coefficients(degree);
    double worst                = 0;
    for (int k = 0; k <= entries; ++k)
    {
      const float u = static_cast<float>(k) / static_cast<float>(entries);
      float r       = cd[degree];
      for (int d = degree - 1; d >= 0; --d)
      {
        r = std::fmaf(r, u, cd[d]);
      }
      worst = std::max(worst, std::fabs(r - table_cpu(cd, entries, u)));
    }
    expect(worst < 1e-5, "float knots of degree " + std::to_string(degree) + " off by " + std::to_string(worst));
  }
  // The default's plan on an H100 (4 CTAs of 512 threads and 33 KiB an SM: 528): 2^28 bytes at 32
  // an index in whole waves, 2^20 on fewer CTAs of at least 4 rows.
  constexpr ptxw::device::for_each_state_policy p = ptxw::device::for_each_state_selector{}({90});
  const auto big                                  = ptxw::device::detail::plan_with_state(p, 1ull << 23, 528);
  expect(big.tiles % 528 == 0 && big.rounds <= p.rounds, "the default's plan at 2^23 indices");
  const auto small = ptxw::device::detail::plan_with_state(p, 1ull << 15, 528);
  expect(small.tiles == 16 && small.rounds == 4, "the default's plan at 2^15 indices: " + std::to_string(small.tiles)
                                                   + " tiles of " + std::to_string(small.rounds));
  std::printf("self-test: %s\n", failures ? "FAILED" : "passed");
  return failures ? 1 : 0;
}

} // namespace state_work
