// The CUDA programming guide's work-stealing vector-scalar kernel for thread blocks (section
// 4.12.2.1, "Cluster Launch Control"), written with ptxw's low-level API (open, started, request,
// wait().decode) and, as its twin, in plain cuda::ptx following the guide. The twin departs from
// the guide where ptxw's protocol differs, and only there:
//   - the request is made by the lane elect.sync picks in warp 0, not by thread 0 through
//     cg::invoke_one(cg::coalesced_threads(), ...) -- that compiles to a waterfall loop around the
//     try_cancel (the guide_ kernel below shows it);
//   - the leader that initialises the barrier is threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
//   - the response is read once, 16 bytes at a time, and released right after that read, on every
//     path (the guide fences after decoding, on the success path only): ptxw's wait() releases the
//     slot before it returns the response.
// REQUIRES: clc
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/clc.h>

#include <cooperative_groups.h>

namespace cg  = cooperative_groups;
namespace ptx = cuda::ptx;

// The guide's prologue ("device function not shown").
__device__ float scalar;
__device__ inline float compute_scalar()
{
  return scalar;
}

extern "C" __global__ void ptxw_guide_thread_blocks(float* data, int n, ptxw::clc::context<ptxw::clc::hardware_t> ctx)
{
  __shared__ ptxw::clc::slot<ptxw::clc::cta_t> slot;
  auto clc = ptxw::clc::open(slot, ctx);
  if (!clc.started())
  {
    return;
  }
  float alpha = compute_scalar();
  int bx      = blockIdx.x;
  while (true)
  {
    __syncthreads();
    if (threadIdx.x < 32)
    {
      if (ptxw::elected e = ptxw::elect_one())
      {
        clc.request(e);
      }
    }
    int i = bx * blockDim.x + threadIdx.x;
    if (i < n)
    {
      data[i] *= alpha;
    }
    if (!clc.wait().decode([&](auto block) { bx = block.x(); }))
    {
      break;
    }
  }
}

// The shared memory of the twin: what ptxw::clc::slot<cta_t> holds, in plain types.
struct clc_storage
{
  uint4 result; // Request result.
  uint64_t bar; // Synchronization barrier.
  uint32_t started; // (used by ptxw's emulation only)
};

// elect.sync over the lanes active at the call (CCCL 3.0.1 has no binding for it).
__device__ inline bool elect_sync()
{
  uint32_t won;
  asm volatile("{\n\t.reg .pred p;\n\telect.sync _|p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(won)
               : "r"(__activemask()));
  return won != 0;
}

extern "C" __global__ void ref_guide_thread_blocks(float* data, int n, ptxw::clc::context<ptxw::clc::hardware_t> ctx)
{
  (void) ctx;
  // Cluster launch control initialization (the result and its barrier side by side, as in ptxw's slot):
  __shared__ clc_storage storage;
  uint4& result = storage.result;
  uint64_t& bar = storage.bar;
  int phase     = 0;

  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
  {
    ptx::mbarrier_init(&bar, 1);
  }

  // Prologue:
  float alpha = compute_scalar();

  // Work-stealing loop:
  int bx = blockIdx.x; // Assuming 1D x-axis thread blocks.

  while (true)
  {
    // Protect result from overwrite in the next iteration,
    // (also ensure barrier initialization at 1st iteration):
    __syncthreads();

    // Cancellation request:
    if (threadIdx.x < 32)
    {
      if (elect_sync())
      {
        // Acquire write of result in the async proxy:
        ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);

        ptx::clusterlaunchcontrol_try_cancel(&result, &bar);
        ptx::mbarrier_arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar, sizeof(uint4));
      }
    }

    // Computation:
    int i = bx * blockDim.x + threadIdx.x;
    if (i < n)
    {
      data[i] *= alpha;
    }

    // Cancellation request synchronization:
    while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &bar, phase))
    {
    }
    phase ^= 1;

    // One read of the result, then release it to the async proxy:
    const uint4 r = result;
    ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_release, ptx::space_shared, ptx::scope_cluster);

    // Cancellation request decoding:
    bool success = ptx::clusterlaunchcontrol_query_cancel_is_canceled(r);
    if (!success)
    {
      break;
    }

    bx = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x<int>(r);
  }
}

// The guide's kernel as printed (no twin): thread 0 submits through cg::invoke_one.
extern "C" __global__ void guide_thread_blocks(float* data, int n)
{
  // Cluster launch control initialization:
  __shared__ uint4 result;
  __shared__ uint64_t bar;
  int phase = 0;

  if (cg::thread_block::thread_rank() == 0)
  {
    ptx::mbarrier_init(&bar, 1);
  }

  // Prologue:
  float alpha = compute_scalar();

  // Work-stealing loop:
  int bx = blockIdx.x; // Assuming 1D x-axis thread blocks.

  while (true)
  {
    // Protect result from overwrite in the next iteration,
    // (also ensure barrier initialization at 1st iteration):
    __syncthreads();

    // Cancellation request:
    if (cg::thread_block::thread_rank() == 0)
    {
      // Acquire write of result in the async proxy:
      ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);

      cg::invoke_one(cg::coalesced_threads(), [&]() {
        ptx::clusterlaunchcontrol_try_cancel(&result, &bar);
      });
      ptx::mbarrier_arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar, sizeof(uint4));
    }

    // Computation:
    int i = bx * blockDim.x + threadIdx.x;
    if (i < n)
    {
      data[i] *= alpha;
    }

    // Cancellation request synchronization:
    while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &bar, phase))
    {
    }
    phase ^= 1;

    // Cancellation request decoding:
    bool success = ptx::clusterlaunchcontrol_query_cancel_is_canceled(result);
    if (!success)
    {
      break;
    }

    bx = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x<int>(result);

    // Release read of result to the async proxy:
    ptx::fence_proxy_async_generic_sync_restrict(ptx::sem_release, ptx::space_shared, ptx::scope_cluster);
  }
}
