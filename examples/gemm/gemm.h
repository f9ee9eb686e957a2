// examples/gemm/gemm.h: the host side of the example GEMM (gemm_kernel.h) -- argument checks, the
// TMA descriptors, the tile scheduler and the launch.
//
//   gemm::dense<ptxw::clc::static_tiles> g({a, b, d, m, n, k});   // checks, builds, sizes the grid
//   g.run(stream);                                                // D = A * B^T
//
// Bad input never reaches the GPU: a negative extent, or an operand TMA cannot address (a base
// address not 16-byte aligned, a row pitch not a multiple of 16 bytes: K and N multiples of 8,
// cuTensorMapEncodeTiled's requirements in the CUDA driver API), throws std::invalid_argument
// naming the operand and the alignment before anything is launched. M or N of 0 launches nothing;
// K of 0 writes D = 0 without the GEMM kernel.
#pragma once

#include "gemm_kernel.h"

#include <ptxw/host/tile_scheduler.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace gemm {

struct problem
{
  const bf16* a; // M x K, row-major
  const bf16* b; // N x K, row-major
  bf16* d;       // M x N, row-major
  int m, n, k;
};

namespace detail {
inline void require_tma_alignment(const void* p, long long row_elems, const char* name, const char* extent)
{
  if (reinterpret_cast<std::uintptr_t>(p) % 16 != 0)
  {
    throw std::invalid_argument(std::string("gemm: ") + name
                                + "'s address must be 16-byte aligned for TMA (cuTensorMapEncodeTiled's globalAddress)");
  }
  if (row_elems * static_cast<long long>(sizeof(bf16)) % 16 != 0)
  {
    throw std::invalid_argument(std::string("gemm: ") + name + "'s row pitch must be a multiple of 16 bytes for TMA ("
                                + extent + " a multiple of 8 bf16 elements; cuTensorMapEncodeTiled's globalStrides)");
  }
}

inline void check(const problem& pr)
{
  if (pr.m < 0 || pr.n < 0 || pr.k < 0)
  {
    throw std::invalid_argument("gemm: M, N and K are non-negative");
  }
  if (pr.m == 0 || pr.n == 0)
  {
    return;
  }
  require_tma_alignment(pr.d, pr.n, "D", "N");
  if (pr.k == 0)
  {
    return;
  }
  require_tma_alignment(pr.a, pr.k, "A", "K");
  require_tma_alignment(pr.b, pr.k, "B", "K");
}

// The descriptors: A and B loaded a 128 x 64 (resp. 128 x 64) box a stage, D stored a 64 x 64 box
// at a time. Out-of-bounds boxes are zero-filled on load and clipped on store.
inline auto make_params(const problem& pr)
{
  using namespace cute;
  Tensor mA = make_tensor(make_gmem_ptr(pr.a), make_shape(pr.m, pr.k), make_stride(pr.k, _1{}));
  Tensor mB = make_tensor(make_gmem_ptr(pr.b), make_shape(pr.n, pr.k), make_stride(pr.k, _1{}));
  Tensor mD = make_tensor(make_gmem_ptr(pr.d), make_shape(pr.m, pr.n), make_stride(pr.n, _1{}));
  auto tma_a = make_tma_atom(SM90_TMA_LOAD{}, mA, smem_layout_a{}(_, _, 0), make_shape(tile_m{}, tile_k{}));
  auto tma_b = make_tma_atom(SM90_TMA_LOAD{}, mB, smem_layout_b{}(_, _, 0), make_shape(tile_n{}, tile_k{}));
  auto tma_d = make_tma_atom(SM90_TMA_STORE{}, mD, smem_layout_store{}, make_shape(half_m{}, store_n{}));
  return params<decltype(tma_a), decltype(tma_b), decltype(tma_d)>{tma_a, tma_b, tma_d, pr.m, pr.n, pr.k};
}
using params_type = decltype(make_params(problem{}));
} // namespace detail

constexpr std::size_t smem_bytes = sizeof(shared_storage);

// One problem, one policy (ptxw::clc::static_tiles or ptxw::clc::dynamic_tiles<Backend>).
template <class Policy>
class dense
{
  problem pr_;
  detail::params_type params_{};
  ptxw::clc::tile_scheduler tiles_;

  static std::vector<ptxw::clc::problem_shape> shapes(const problem& pr)
  {
    detail::check(pr);
    return {{pr.m, pr.n}};
  }

public:
  static constexpr auto kernel = gemm_kernel<detail::params_type, Policy>;

  // CUTLASS's heuristic (PersistentTileSchedulerSm90Params::get_rasterization, RasterOrderOptions::
  // Heuristic): walk along the shorter side, so the CTAs running at once share the operand of the
  // longer one in L2 -- along M when there are more tile columns than rows.
  static ptxw::clc::raster heuristic_raster(const problem& pr)
  {
    const long long rows = (pr.m + config::tile_m - 1) / config::tile_m;
    const long long cols = (pr.n + config::tile_n - 1) / config::tile_n;
    return cols > rows ? ptxw::clc::raster::along_m : ptxw::clc::raster::along_n;
  }

  explicit dense(const problem& pr, ptxw::clc::swizzle sw = {})
      : dense(pr, heuristic_raster(pr), sw)
  {}

  // Checks the arguments and builds the descriptors; throws before any launch.
  dense(const problem& pr, ptxw::clc::raster order, ptxw::clc::swizzle sw = {})
      : pr_(pr)
      , tiles_(shapes(pr), ptxw::clc::fixed_tile_shape<config::tile_m, config::tile_n>{}, order, sw)
  {
    if (pr.m > 0 && pr.n > 0 && pr.k > 0)
    {
      params_ = detail::make_params(pr);
    }
    ptxw::detail::cuda_check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                  static_cast<int>(smem_bytes)),
                             "opting the GEMM kernel into its shared memory");
  }

  const ptxw::clc::tile_scheduler& scheduler() const noexcept
  {
    return tiles_;
  }

  // D = A * B^T on `stream`. The dynamic policy prepares its scheduler for each launch, so one
  // launch at a time per object (clc::scheduler's rule).
  void run(cudaStream_t stream = 0)
  {
    if (pr_.m == 0 || pr_.n == 0)
    {
      return;
    }
    if (pr_.k == 0)
    {
      ptxw::detail::cuda_check(cudaMemsetAsync(pr_.d, 0, sizeof(bf16) * pr_.m * pr_.n, stream), "D = 0 for K = 0");
      return;
    }
    auto l = tiles_.prepare(kernel, dim3(config::threads), smem_bytes, stream);
    kernel<<<l.grid, config::threads, smem_bytes, stream>>>(params_, l.sched);
  }
};

} // namespace gemm
