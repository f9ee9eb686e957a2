// benchmarks/state/plain.cuh: the per-CTA-state benchmark's other contender (device_state.cu), the
// same op launched plainly: one CTA of Threads per tile of Threads x Rounds consecutive indices (round
// r: Threads consecutive indices), each with set-up, its tile and flush.
#pragma once

#include <cstddef>

#include "../check.h"

namespace state_work {

constexpr int plain_threads = 256;
constexpr int plain_rounds  = 16;

template <int Threads, int Rounds, class Op>
__global__ __launch_bounds__(Threads) void plain_kernel(Op op, unsigned long long n)
{
  extern __shared__ __align__(16) unsigned char plain_state[];
  auto& st = *reinterpret_cast<typename Op::state*>(plain_state);
  op.setup(st);
  __syncthreads();
  const unsigned long long base = blockIdx.x * static_cast<unsigned long long>(Threads * Rounds);
#pragma unroll 4
  for (int r = 0; r < Rounds; ++r)
  {
    if (const unsigned long long i = base + static_cast<unsigned long long>(r) * Threads + threadIdx.x; i < n)
    {
      op(st, i);
    }
  }
  __syncthreads();
  op.flush(st);
}

constexpr unsigned long long plain_blocks(unsigned long long n)
{
  return (n + plain_threads * plain_rounds - 1) / (plain_threads * plain_rounds);
}

template <class Op>
void plain_call(const Op& op, unsigned long long n, cudaStream_t stream = 0)
{
  constexpr auto* kernel   = plain_kernel<plain_threads, plain_rounds, Op>;
  constexpr std::size_t sm = sizeof(typename Op::state);
  static bool allowed      = false; // the attribute, once (one device)
  if (!allowed && sm > 48 * 1024)
  {
    PTXW_BENCH_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(sm)));
  }
  allowed = true;
  kernel<<<static_cast<unsigned>(plain_blocks(n)), plain_threads, sm, stream>>>(op, n);
  PTXW_BENCH_CHECK(cudaGetLastError());
}

} // namespace state_work
