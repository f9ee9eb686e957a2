// The per-item costs of the scheduling benchmark's workloads, in microseconds, drawn on the host
// from fixed seeds (every strategy of a run sees the same array).
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace sched {

struct Workload
{
  std::string name;
  std::string what;
  double prologue_us; // per CTA that runs
  bool memory; // items sum a chunk of memory instead of spinning
  std::function<double(std::mt19937_64&, double position)> cost_us; // position: item index / items, in [0, 1)
};

inline std::vector<Workload> workloads()
{
  auto uniform = [](double us) {
    return [us](std::mt19937_64&, double) {
      return us;
    };
  };
  auto exponential = [](std::mt19937_64& rng, double) {
    return std::exponential_distribution<double>(1.0 / 10.0)(rng);
  };
  return {
    {"uniform", "10 us per item", 0, false, uniform(10)},
    {"exponential", "exponential, mean 10 us", 0, false, exponential},
    {"heavy tail", "10 us, the last 1% of items 100x longer", 0, false,
     [](std::mt19937_64&, double p) {
       return p >= 0.99 ? 1000.0 : 10.0;
     }},
    {"lognormal", "lognormal, mean 10 us, sigma 1 (the largest item is the bound)", 0, false,
     [](std::mt19937_64& rng, double) {
       return std::lognormal_distribution<double>(std::log(10.0) - 0.5, 1.0)(rng);
     }},
    {"uniform + prologue", "10 us per item, 10 us prologue per CTA", 10, false, uniform(10)},
    {"exponential + prologue", "exponential, mean 10 us, 10 us prologue per CTA", 10, false, exponential},
    {"short", "1 us per item", 0, false, uniform(1)},
    {"short + prologue", "1 us per item, 10 us prologue per CTA", 10, false, uniform(1)},
    {"ramp", "1 us rising to 19 us over the grid", 0, false,
     [](std::mt19937_64&, double p) {
       return 1.0 + 18.0 * p;
     }},
    {"hot spot", "10 us, a 1% stretch in the middle 50x longer", 0, false,
     [](std::mt19937_64&, double p) {
       return p >= 0.5 && p < 0.51 ? 500.0 : 10.0;
     }},
    {"uniform + short prologue", "10 us per item, 1 us prologue per CTA", 1, false, uniform(10)},
    {"uniform + long prologue", "10 us per item, 100 us prologue per CTA", 100, false, uniform(10)},
    {"memory", "each item sums 16 KiB of a 3 GiB array (every thread loads)", 0, true, uniform(0)},
  };
}

// Costs of n items in µs; items come in groups of `group` of equal cost (a cluster's CTAs work on
// one unit together), drawn from the workload's distribution per group.
inline std::vector<double> draw(const Workload& w, unsigned n, unsigned group, unsigned seed)
{
  std::mt19937_64 rng(seed);
  std::vector<double> us(n);
  for (unsigned g = 0; g < n; g += group)
  {
    const double c = w.cost_us(rng, static_cast<double>(g) / n);
    std::fill(us.begin() + g, us.begin() + std::min(n, g + group), c);
  }
  return us;
}

} // namespace sched
