// R9 and R18 for ptxw/algorithms/: a selector's policies are checked at compile time for every
// architecture of the build -- the hardware backend where the build has sm_90a, a block size
// that is not whole warps, more shared rounds than a tile has, no wave, a negative occupancy, a
// drain batch outside [1, 32], a reduce that loads fewer than 4 items.
// REQUIRES: target-sm_90a
// RUN: %nvcc -cuda -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_HARDWARE_ON_SM90 %s 2>&1 | FileCheck %s --check-prefix=HARDWARE_ON_SM90
// RUN: not %nvcc -ptx -o /dev/null -DCASE_PARTIAL_WARP %s 2>&1 | FileCheck %s --check-prefix=PARTIAL_WARP
// RUN: not %nvcc -ptx -o /dev/null -DCASE_SHARED_ROUNDS %s 2>&1 | FileCheck %s --check-prefix=SHARED_ROUNDS
// RUN: not %nvcc -ptx -o /dev/null -DCASE_NO_WAVE %s 2>&1 | FileCheck %s --check-prefix=WAVES
// RUN: not %nvcc -ptx -o /dev/null -DCASE_OCCUPANCY %s 2>&1 | FileCheck %s --check-prefix=WAVES
// RUN: not %nvcc -ptx -o /dev/null -DCASE_DRAIN_BATCH %s 2>&1 | FileCheck %s --check-prefix=DRAIN_BATCH
// RUN: not %nvcc -ptx -o /dev/null -DCASE_REDUCE_ITEMS %s 2>&1 | FileCheck %s --check-prefix=REDUCE_ITEMS
//
// Without a CASE the file compiles: each algorithm with its default selector, host side and every
// device pass (-cuda); device/kernels_per_policy.cu compiles them whole. A case needs only -ptx: the
// checks are in host code, which nvcc's device front end checks too, with the same error.
// The for_each cases: the default selector with one field out of range (Inputs/device_case.h).

#include <ptxw/algorithms.h>

#include "Inputs/device_case.h"

struct drain_with_batch_0
{
  constexpr ptxw::device::drain_policy operator()(ptxw::device::compute_capability) const
  {
    return {128, 0};
  }
};
struct reduce_with_2_items
{
  constexpr ptxw::device::reduce_policy operator()(ptxw::device::compute_capability) const
  {
    return {256, 2, 1024};
  }
};

using for_each_sel = tile_case<ptxw::device::for_each_selector>;
#if defined(CASE_DRAIN_BATCH)
using drain_sel = drain_with_batch_0;
#else
using drain_sel = ptxw::device::drain_selector;
#endif
#if defined(CASE_REDUCE_ITEMS)
using reduce_sel = reduce_with_2_items;
#else
using reduce_sel = ptxw::device::reduce_selector;
#endif

void calls(void* t, std::size_t& b, unsigned* p, const int* in, long long* out, const unsigned* items)
{
  (void) ptxw::device::for_each_canceled<for_each_sel>(t, b, 100u, mark{p});
  (void) ptxw::device::drain<drain_sel>(t, b, items, 10, item_op{p});
  (void) ptxw::device::sum<reduce_sel>(t, b, in, out, 100);
}

// HARDWARE_ON_SM90: error: static assertion failed with "ptxw: R9 target: the selector picks a backend the architecture does not have
// PARTIAL_WARP: error: static assertion failed with "ptxw: R18 in range: a for_each_policy's block_threads is a multiple of 32 in [32, 1024]"
// SHARED_ROUNDS: error: static assertion failed with "ptxw: R18 in range: a for_each_policy shares 0 to rounds of a tile's rounds"
// WAVES: error: static assertion failed with "ptxw: R18 in range: a for_each_policy has waves >= 1 and an occupancy >= 0 (0: as ptxas chooses)"
// DRAIN_BATCH: error: static assertion failed with "ptxw: R18 in range: a drain_policy's batch is in [1, 32]"
// REDUCE_ITEMS: error: static assertion failed with "ptxw: R18 in range: a reduce_policy loads a multiple of 4 items per thread
