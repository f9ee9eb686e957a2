// ptxw/algorithms/state_policy.h: for_each_with_state's policy and default selector, how it cuts n
// indices into tiles (for_each_canceled's plan, and min_rounds), and the scheduler's memory.
#pragma once

#include <ptxw/algorithms/for_each_tiles.h>
#include <ptxw/algorithms/state_op.h>
#include <ptxw/algorithms/temp_storage.h>

PTXW_NAMESPACE_BEGIN
namespace device {
// for_each_with_state: CTAs of block_threads threads steal tiles of block_threads * rounds indices
// by cluster launch control; inside a tile each thread walks its own indices of the first rounds -
// shared_rounds rounds, and the last shared_rounds go to whichever thread of the CTA is free first.
// Tiles come in whole waves of the CTAs that fit at once -- at least `waves` where every tile keeps
// a row -- with the indices shared out evenly (for_each_policy's plan), but never more tiles than
// rows / min_rounds: a small n runs on fewer CTAs, each with min_rounds rows or more, instead of a
// row on every CTA that fits (each CTA pays its set-up and flush). occupancy, where not 0, is the
// CTAs per SM the kernel is compiled for (__launch_bounds__); the state's shared memory bounds
// them too. backend: who hands the tiles out (ptxw/clc/backend_table.h). No clusters: the state is the CTA's.
struct for_each_state_policy
{
  int block_threads;
  int rounds;
  clc::backend_id backend;
  int shared_rounds = 0;
  int min_rounds    = 1;
  int waves         = 1;
  int occupancy     = 0;
};

constexpr bool operator==(const for_each_state_policy& a, const for_each_state_policy& b)
{
  return a.block_threads == b.block_threads && a.rounds == b.rounds && a.backend == b.backend
      && a.shared_rounds == b.shared_rounds && a.min_rounds == b.min_rounds && a.waves == b.waves
      && a.occupancy == b.occupancy;
}

// The default: 512 threads (a state is shared by more threads, and fewer CTAs pay its set-up), tiles
// of up to 16 rounds, the last 4 shared, at least 4 rows a tile; chosen by the sweep of
// benchmarks/device_state.cu (docs/device_state.md).
struct for_each_state_selector
{
  constexpr for_each_state_policy operator()(compute_capability) const
  {
    return {512, 16, clc::backend_id::automatic, 4, 4};
  }
};

namespace detail {
// ---- the plan ----
// The tile plan's policy (algorithms/for_each_tiles.h), without clusters.
constexpr for_each_policy tiles_of(const for_each_state_policy& p)
{
  return {p.block_threads, p.rounds, 1, p.backend, p.shared_rounds, p.waves, p.occupancy};
}

// for_each's plan (whole waves within the policy's rounds), then no more tiles than rows /
// min_rounds (at least one), in whole waves where that is a wave or more: every tile keeps at least
// min_rounds rows where n has them. As 2 * min_rounds <= rounds, the cut never applies where
// for_each's plan needs two waves or more (it would have to cut below the fewest waves), so
// the tiles keep at most the policy's rounds; min_rounds 1 is for_each's plan.
constexpr for_each_plan plan_with_state(const for_each_state_policy& p, unsigned long long n,
                                        unsigned long long resident)
{
  const for_each_policy tp      = tiles_of(p);
  for_each_plan pl              = plan(tp, n, resident);
  const unsigned long long r    = rows(tp, n);
  const unsigned long long cut  = r / p.min_rounds > 0 ? r / p.min_rounds : 1;
  const unsigned long long most = cut >= resident && resident > 0 ? cut / resident * resident : cut;
  if (pl.tiles > most)
  {
    pl.tiles  = most;
    pl.units  = most;
    pl.rounds = static_cast<int>(r / most + (r % most != 0));
    pl.shared = pl.rounds * p.shared_rounds / p.rounds;
  }
  return pl;
}

// The scheduler's memory, as for_each_canceled's: counters (2 x u64), the emulation's claims (u32
// per unit) and responses (uint4 per unit).
template <class Selector>
constexpr temp_layout<3> state_layout(unsigned long long n)
{
  // At most rows / min_rounds tiles (and one).
  const unsigned long long units =
    claiming_units<Selector>(n, [](const for_each_state_policy& p, unsigned long long m) {
      const unsigned long long r = rows(tiles_of(p), m);
      return r / p.min_rounds > 0 ? r / p.min_rounds : 1ull;
    });
  return {{2 * sizeof(unsigned long long), units * sizeof(::cuda::std::uint32_t), units * sizeof(uint4)}};
}

template <class Selector, class Op, int I>
constexpr bool check_state_policy()
{
  constexpr for_each_state_policy p = policy_at<Selector>(I);
  static_assert(p.block_threads >= 32 && p.block_threads <= 1024 && p.block_threads % 32 == 0,
                PTXW_RULE(R18) "a for_each_state_policy's block_threads is a multiple of 32 in [32, 1024]");
  static_assert(p.rounds >= 1 && p.shared_rounds >= 0 && p.shared_rounds <= p.rounds,
                PTXW_RULE(R18) "a for_each_state_policy has rounds >= 1 and shares 0 to rounds of them");
  static_assert(p.min_rounds == 1 || (p.min_rounds > 1 && 2 * p.min_rounds <= p.rounds),
                PTXW_RULE(R18) "a for_each_state_policy's min_rounds is 1, or at most half its rounds");
  static_assert(p.waves >= 1 && p.occupancy >= 0,
                PTXW_RULE(R18) "a for_each_state_policy has waves >= 1 and an occupancy >= 0 (0: as ptxas chooses)");
  static_assert(build_archs[I] / 10 >= clc::detail::first_sm<p.backend>(),
                PTXW_RULE(R9) "the selector picks a backend the architecture does not have: "
                "for_each_with_state needs sm_90, its hardware backend sm_100 or newer");
  static_assert(sizeof(state_t<Op>) <= max_state_bytes(build_archs[I]),
                PTXW_RULE(R18) "an op's state fits in a CTA's shared memory on every architecture of the build "
                               "(226 KiB on sm_90 and sm_100, 98 KiB on sm_120)");
  return true;
}
} // namespace detail
} // namespace device
PTXW_NAMESPACE_END
