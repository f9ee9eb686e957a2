// What the device diagnostics (device_policy.cu, device_state_policy.cu) compile beside the cases
// they refuse: the ops their calls take, and the case's selector of tiles -- a default selector with
// the one field its CASE_ names out of range. The refused calls stay in the test files, so that each
// error names the user's line. Not a test (lit skips Inputs/).
#pragma once

#include <ptxw/algorithms.h>

// Marks index i.
struct mark
{
  unsigned* p;
  __device__ void operator()(unsigned i) const
  {
    p[i] = 1;
  }
};

// Marks an item.
struct item_op
{
  unsigned* p;
  __device__ void operator()(const unsigned& item) const
  {
    p[item] = 1;
  }
};

// The cases of a tile policy (for_each_policy, for_each_state_policy) both files refuse, and
// min_rounds (for_each_state_policy's) and occupancy: tile_case<Selector> is Selector's policies with
// that field out of range, and Selector itself in any other build.
#if defined(CASE_HARDWARE_ON_SM90) || defined(CASE_PARTIAL_WARP) || defined(CASE_SHARED_ROUNDS)                  \
  || defined(CASE_MIN_ROUNDS) || defined(CASE_NO_WAVE) || defined(CASE_OCCUPANCY)
template <class Selector>
struct tile_case
{
  constexpr auto operator()(ptxw::device::compute_capability cc) const
  {
    auto p = Selector{}(cc);
#  if defined(CASE_HARDWARE_ON_SM90)
    p.backend = ptxw::clc::backend_id::hardware; // R9: sm_90a has none
#  elif defined(CASE_PARTIAL_WARP)
    p.block_threads = 100;
#  elif defined(CASE_SHARED_ROUNDS)
    p.shared_rounds = p.rounds + 1;
#  elif defined(CASE_MIN_ROUNDS)
    p.min_rounds = p.rounds / 2 + 1;
#  elif defined(CASE_NO_WAVE)
    p.waves = 0;
#  else
    p.occupancy = -1;
#  endif
    return p;
  }
};
#else
template <class Selector>
using tile_case = Selector;
#endif
