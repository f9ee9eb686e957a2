// What the reference twins of tests/codegen/clc share: the plain-PTX pieces a ptxw kernel gets from
// ptxw (elect_one, the slot's storage), the programming guide's prologue, and the work per block of
// the for_each tests. Not a test (lit skips Inputs/).
#pragma once

#include <cuda/ptx>

#include <cstdint>

// elect.sync over the lanes active at the call (CCCL 3.0.1 has no binding for it).
__device__ inline bool ref_elect_one()
{
  uint32_t won;
  asm volatile("{\n\t.reg .pred p;\n\telect.sync _|p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(won)
               : "r"(__activemask()));
  return won != 0;
}

// The CTA's first warp, as ptxw's handle::elect() tests it (a submitter is one of its lanes).
__device__ inline bool ref_first_warp()
{
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z) < 32u;
}

// The shared memory of a twin: what ptxw::clc::slot holds, in plain types. With the result and its
// barrier in one struct, as in the slot, ptxas addresses and schedules both kernels alike.
struct clc_storage
{
  uint4 result; // Request result.
  uint64_t bar; // Synchronization barrier.
  uint32_t started; // (used by ptxw's emulation only)
};

// open(): thread (0,0,0) initialises the slot's barrier for one arrival (the CTA form; a cluster's
// slot also publishes the init to the cluster).
__device__ inline void ref_init(clc_storage& s)
{
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
  {
    cuda::ptx::mbarrier_init(&s.bar, 1);
  }
}

// wait(): an acquire try_wait loop on the phase's parity at `scope` (the guide's "cancellation
// request synchronization"), which moves the phase on; one 16-byte read of the response, released
// to the async proxy right after that read, on every path.
template <class Scope>
__device__ inline uint4 ref_wait(clc_storage& s, int& phase, Scope scope)
{
  namespace ptx = cuda::ptx;
  while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, scope, &s.bar, phase))
  {
  }
  phase ^= 1;
  const uint4 r = s.result;
  ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_release, ptx::space_shared, ptx::scope_cluster);
  return r;
}

// decode() of the x of the first block index (the guide's "cancellation request decoding"): false
// where the request canceled nothing.
__device__ inline bool ref_decode_x(uint4 r, int& bx)
{
  if (!cuda::ptx::clusterlaunchcontrol_query_cancel_is_canceled(r))
  {
    return false;
  }
  bx = cuda::ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x<int>(r);
  return true;
}

// The guide's prologue ("device function not shown").
__device__ float scalar;
__device__ inline float compute_scalar()
{
  return scalar;
}

// The for_each tests' work for block index bx (the guide's, without its prologue): scale the
// block's elements of data by alpha.
__device__ inline void scale_block(float* data, int n, float alpha, unsigned bx)
{
  int i = bx * blockDim.x + threadIdx.x;
  if (i < n)
  {
    data[i] *= alpha;
  }
}
