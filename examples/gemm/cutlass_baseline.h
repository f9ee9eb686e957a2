// examples/gemm/cutlass_baseline.h: CUTLASS's own sm90 TMA warp-specialized persistent cooperative
// GEMM with the example's tile and stage count (gemm_kernel.h's config) and a cluster of ClusterM x 1
// CTAs (1 or 2), and its grouped (pointer-array) form, for gemm_bench.cu. Its own translation unit (cutlass_baseline.cu): it is the slow one to compile.
#pragma once

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <memory>
#include <vector>

namespace gemm::cutlass_baseline {

// D (M x N, row-major) = A (M x K, row-major) * B^T (B: N x K, row-major), as gemm::dense, with the
// scheduler's swizzle (its max_swizzle_size). Returns false (and says why on stderr) where CUTLASS
// refuses the problem.
template <int ClusterM>
bool run(const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* d, int m, int n, int k, void* workspace,
         std::size_t workspace_bytes, cudaStream_t stream, int swizzle = 1);

// The kernel's registers per thread and shared memory per CTA, for the side-by-side table.
struct resources
{
  int registers;
  std::size_t smem;
};
template <int ClusterM>
resources kernel_resources();

// CUTLASS's grouped GEMM (KernelPtrArrayTmaWarpSpecializedCooperative, one CTA a tile, its static
// persistent scheduler over every group's tiles) on gemm::grouped's problem: group g multiplies the
// ms[g] rows of A after the groups before it by the g-th N x K block of B into the same rows of D.
// Groups of 0 rows are left out (they have no tile). The constructor copies the groups' pointers,
// strides and shapes to the device; run() launches once, and returns false (and says why) where
// CUTLASS refuses the problem.
class grouped
{
public:
  grouped(const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* d, const std::vector<int>& ms, int n, int k);
  ~grouped();
  bool run(cudaStream_t stream = nullptr);

private:
  struct state;
  std::unique_ptr<state> s_;
};

} // namespace gemm::cutlass_baseline
