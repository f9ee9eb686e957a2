// R9 and R18 for ptxw::device::for_each_with_state: its selector's policies are checked at compile
// time for every architecture of the build -- the hardware backend where the build has sm_90a, a
// block size that is not whole warps, more shared rounds than a tile has, a min_rounds above half the
// rounds, no wave -- and so is the op's state: there is one, it is trivial (shared memory that
// setup() initialises) and it fits in a CTA's shared memory.
// REQUIRES: target-sm_90a
// RUN: %nvcc -cuda -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_HARDWARE_ON_SM90 %s 2>&1 | FileCheck %s --check-prefix=HARDWARE_ON_SM90
// RUN: not %nvcc -ptx -o /dev/null -DCASE_PARTIAL_WARP %s 2>&1 | FileCheck %s --check-prefix=PARTIAL_WARP
// RUN: not %nvcc -ptx -o /dev/null -DCASE_SHARED_ROUNDS %s 2>&1 | FileCheck %s --check-prefix=SHARED_ROUNDS
// RUN: not %nvcc -ptx -o /dev/null -DCASE_MIN_ROUNDS %s 2>&1 | FileCheck %s --check-prefix=MIN_ROUNDS
// RUN: not %nvcc -ptx -o /dev/null -DCASE_NO_WAVE %s 2>&1 | FileCheck %s --check-prefix=WAVES
// RUN: not %nvcc -ptx -o /dev/null -DCASE_NO_STATE %s 2>&1 | FileCheck %s --check-prefix=NO_STATE
// RUN: not %nvcc -ptx -o /dev/null -DCASE_STATE_NOT_TRIVIAL %s 2>&1 | FileCheck %s --check-prefix=NOT_TRIVIAL
// RUN: not %nvcc -ptx -o /dev/null -DCASE_STATE_TOO_LARGE %s 2>&1 | FileCheck %s --check-prefix=TOO_LARGE
//
// Without a CASE the file compiles: the default selector, and a state of 200 KiB (dynamic shared
// memory, beyond 48 KiB), host side and every device pass (-cuda). A case needs only -ptx: the
// checks are in host code, which nvcc's device front end checks too, with the same error.
// The policy cases: the default selector with one field out of range (Inputs/device_case.h).

#include <ptxw/algorithms.h>

#include "Inputs/device_case.h"

template <unsigned Words>
struct bins_op
{
  struct state
  {
    unsigned bins[Words];
  };
  unsigned* out;
  __device__ void setup(state& s) const
  {
    for (unsigned k = threadIdx.x; k < Words; k += blockDim.x)
    {
      s.bins[k] = 0;
    }
  }
  __device__ void operator()(state& s, unsigned i) const
  {
    atomicAdd(&s.bins[i % Words], 1u);
  }
  __device__ void flush(state& s) const
  {
    for (unsigned k = threadIdx.x; k < Words; k += blockDim.x)
    {
      atomicAdd(out + k, s.bins[k]);
    }
  }
};

struct counted
{
  unsigned n;
  __host__ __device__ counted()
      : n(0)
  {}
};
struct constructed_state_op
{
  struct state
  {
    counted c;
  };
  unsigned* out;
  __device__ void operator()(state& s, unsigned) const
  {
    atomicAdd(&s.c.n, 1u);
  }
};

using big_op = bins_op<200 * 1024 / 4>;

using selector = tile_case<ptxw::device::for_each_state_selector>;

#if defined(CASE_NO_STATE)
using op = mark; // no state
#elif defined(CASE_STATE_NOT_TRIVIAL)
using op = constructed_state_op;
#elif defined(CASE_STATE_TOO_LARGE)
using op = bins_op<228 * 1024 / 4>;
#else
using op = big_op;
#endif

void calls(void* t, std::size_t& b, unsigned* p)
{
  (void) ptxw::device::for_each_with_state<selector>(t, b, 100u, op{p});
}

// HARDWARE_ON_SM90: error: static assertion failed with "ptxw: R9 target: the selector picks a backend the architecture does not have: for_each_with_state needs sm_90
// PARTIAL_WARP: error: static assertion failed with "ptxw: R18 in range: a for_each_state_policy's block_threads is a multiple of 32 in [32, 1024]"
// SHARED_ROUNDS: error: static assertion failed with "ptxw: R18 in range: a for_each_state_policy has rounds >= 1 and shares 0 to rounds of them"
// MIN_ROUNDS: error: static assertion failed with "ptxw: R18 in range: a for_each_state_policy's min_rounds is 1, or at most half its rounds"
// WAVES: error: static assertion failed with "ptxw: R18 in range: a for_each_state_policy has waves >= 1 and an occupancy >= 0 (0: as ptxas chooses)"
// NO_STATE: error: static assertion failed with "ptxw: R18 in range: a for_each_with_state op names its per-CTA state: a type Op::state"
// NOT_TRIVIAL: error: static assertion failed with "ptxw: R18 in range: an op's state is trivially default-constructible and destructible
// TOO_LARGE: error: static assertion failed with "ptxw: R18 in range: an op's state fits in a CTA's shared memory on every architecture of the build
