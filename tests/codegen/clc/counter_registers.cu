// What counter_t's for_each_canceled_block costs in registers, against the hand-written atomicAdd
// queue a user would write instead, on the kernel of issue 35: a CSR SpMV, a thread a row, tiles of
// 256 rows, whose prologue copies the first 2048 entries of x into shared memory; 256 threads, no
// launch bounds. Registers are allocated for the whole kernel, so what the loop holds across the
// user's work is held by every thread and decides how many CTAs fit on an SM.
//
// The margin over the queue, 4 registers, is what the loop must hold through the work that the
// queue does not -- the claim in flight, the 64-bit result of the atomic first read after the work
// so that its latency hides behind it (2), and the end of the range being walked (1; the queue
// holds a tile index and a slot index, the loop a unit and a buffer parity) -- and 1 of slack for
// ptxas's allocation. Everything else (the pace, the launch's extent, the claim's size) lives in
// shared memory, and the walk is not unrolled. In checked mode (-DPTXW_CHECKED=1) the reports'
// printf calls cost registers of their own; there the bound is the queue's occupancy: at most 32
// registers, so that 8 CTAs of 256 threads fit on an SM (2048 threads, 64 Ki registers).
// Hopper only (target-sm_90a): there counter_t is the default backend; from sm_100 on the default is
// the hardware's (ptxw/clc/backend_table.h), and counter_t is what a kernel asks for by name.
// REQUIRES: target-sm_90a
// RUN: %ptxw-compile %s -o %t
// RUN: echo "excess: 0" > %t.zero
// RUN: cat %t.sass.json %t.zero | FileCheck %s --check-prefix=UNCHECKED
// RUN: %ptxw-compile %s -o %t.checked -- -DPTXW_CHECKED=1
// RUN: cat %t.checked.sass.json %t.zero | FileCheck %s --check-prefix=CHECKED

#include <ptxw/clc.h>

constexpr unsigned kHot = 2048;

struct csr
{
  const unsigned* row_start;
  const int* col;
  const float* val;
  const float* x;
  float* y;
  unsigned rows;

  __device__ void prologue(float* hot) const
  {
    for (unsigned i = threadIdx.x; i < kHot; i += blockDim.x)
    {
      hot[i] = x[i];
    }
  }
  __device__ void tile(const float* hot, unsigned t) const
  {
    const unsigned row = t * blockDim.x + threadIdx.x;
    if (row >= rows)
    {
      return;
    }
    float sum = 0.f;
    for (unsigned j = row_start[row]; j < row_start[row + 1]; ++j)
    {
      const int c = col[j];
      sum         = fmaf(val[j], c < static_cast<int>(kHot) ? hot[c] : __ldg(&x[c]), sum);
    }
    y[row] = sum;
  }
};

// Thread 0 claims the next tile before the current one's work; the barrier that ends the work
// hands it over.
extern "C" __global__ void queue_spmv(csr m, unsigned tiles, unsigned* counter)
{
  __shared__ float hot[kHot];
  __shared__ unsigned next[2];
  m.prologue(hot);
  __syncthreads();
  unsigned t = blockIdx.x;
  for (unsigned k = 0; t < tiles; k ^= 1)
  {
    if (threadIdx.x == 0)
    {
      next[k] = gridDim.x + atomicAdd(counter, 1u);
    }
    m.tile(hot, t);
    __syncthreads();
    t = next[k];
  }
}

extern "C" __global__ void counter_spmv(csr m, ptxw::clc::context<ptxw::clc::counter_t> ctx)
{
  __shared__ float hot[kHot];
  ptxw::for_each_canceled_block<1>(ctx, [&] { m.prologue(hot); }, [&](dim3 b) { m.tile(hot, b.x); });
}

// The line after the record (%t.zero): the registers over the bound, which must be 0.
// UNCHECKED:      "name": "queue_spmv",
// UNCHECKED:      "REG": [[#QUEUE:]],
// UNCHECKED:      "name": "counter_spmv",
// UNCHECKED:      "REG": [[#COUNTER:]],
// UNCHECKED:      "LOCAL": 0,
// UNCHECKED:      excess: [[#sub(max(COUNTER, QUEUE + 4), QUEUE + 4)]]{{$}}

// CHECKED:        "name": "counter_spmv",
// CHECKED:        "REG": [[#COUNTER:]],
// CHECKED:        excess: [[#sub(max(COUNTER, 32), 32)]]{{$}}
