// examples/gemm/gemm.h: the host side of the example GEMM (gemm_kernel.h) -- argument checks, the
// TMA descriptors, the tile scheduler and the launch.
//
//   gemm::dense<ptxw::clc::static_tiles> g({a, b, d, m, n, k});   // checks, builds the descriptors
//   g.run(stream);                                                // D = A * B^T
//   gemm::grouped<ptxw::clc::dynamic_tiles<>> e({a, b, d, {m0, m1, ...}, n, k});   // B: groups x N x K
//   e.run(stream);                                                // D_g = A_g * B_g^T for each group
//
// Bad input never reaches the GPU: a negative extent, or an operand TMA cannot address (a base
// address not 16-byte aligned, a row pitch not a multiple of 16 bytes: K and N multiples of 8,
// cuTensorMapEncodeTiled's requirements in the CUDA driver API), throws std::invalid_argument
// naming the operand and the alignment before anything is launched; so does an empty group list
// (std::runtime_error, the tile scheduler's R18). Groups of 0 rows take no tile; M or N of 0 in all
// launches nothing; K of 0 writes D = 0 without the GEMM kernel.
#pragma once

#include "gemm_kernel.h"

#include <ptxw/clc/host/tile_scheduler.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace gemm {

// Groups of M[g] rows each; A and D hold the groups' rows one after the other, B one N x K matrix
// a group.
struct grouped_problem
{
  const bf16* a;      // (sum of M) x K, row-major
  const bf16* b;      // groups x N x K, row-major
  bf16* d;            // (sum of M) x N, row-major
  std::vector<int> m; // rows of each group
  int n, k;
};

// One group.
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

// The groups' first rows (groups + 1 prefix sums), after checking the arguments.
inline std::vector<int> check(const grouped_problem& pr)
{
  std::vector<int> rows{0};
  for (int m : pr.m)
  {
    if (m < 0 || rows.back() > std::numeric_limits<int>::max() - m)
    {
      throw std::invalid_argument("gemm: each group has 0 or more rows, at most 2^31 - 1 in all");
    }
    rows.push_back(rows.back() + m);
  }
  if (pr.n < 0 || pr.k < 0)
  {
    throw std::invalid_argument("gemm: N and K are non-negative");
  }
  if (rows.back() == 0 || pr.n == 0)
  {
    return rows;
  }
  require_tma_alignment(pr.d, pr.n, "D", "N");
  if (pr.k == 0)
  {
    return rows;
  }
  require_tma_alignment(pr.a, pr.k, "A", "K");
  require_tma_alignment(pr.b, pr.k, "B", "K");
  return rows;
}

// The descriptors: A and B loaded a 128 x 64 box a stage (A a 64 x 64 one where a tile's group ends
// in its first half), D stored a 64 x 64 box at a time.
// Out-of-bounds boxes are zero-filled on load and clipped on store.
template <int ClusterM>
auto make_params(const grouped_problem& pr, const int* rows, int m)
{
  using namespace cute;
  const int groups = static_cast<int>(pr.m.size());
  Tensor mA = make_tensor(make_gmem_ptr(pr.a), make_shape(m, pr.k), make_stride(pr.k, _1{}));
  Tensor mB = make_tensor(make_gmem_ptr(pr.b), make_shape(pr.n, pr.k, groups),
                          make_stride(pr.k, _1{}, static_cast<long long>(pr.n) * pr.k));
  Tensor mD = make_tensor(make_gmem_ptr(pr.d), make_shape(m, pr.n), make_stride(pr.n, _1{}));
  auto tma_a = make_tma_atom(SM90_TMA_LOAD{}, mA, smem_layout_a{}(_, _, 0), make_shape(tile_m{}, tile_k{}));
  auto tma_a_half = make_tma_atom(SM90_TMA_LOAD{}, mA, smem_layout_a_halves{}(_, _, 0), make_shape(half_m{}, tile_k{}));
  using load_b = ::cuda::std::conditional_t<(ClusterM > 1), SM90_TMA_LOAD_MULTICAST, SM90_TMA_LOAD>;
  auto tma_b   = make_tma_atom(load_b{}, mB, smem_layout_b{}(_, _, 0), make_shape(tile_n{}, tile_k{}), Int<ClusterM>{});
  auto tma_d = make_tma_atom(SM90_TMA_STORE{}, mD, smem_layout_store{}, make_shape(half_m{}, store_n{}));
  return params<decltype(tma_a), decltype(tma_a_half), decltype(tma_b), decltype(tma_d)>{
      tma_a, tma_a_half, tma_b, tma_d, pr.d, rows, m, pr.n, pr.k, groups, tile_trace{}};
}
template <int ClusterM>
using params_type = decltype(make_params<ClusterM>(grouped_problem{}, nullptr, 0));

inline std::vector<ptxw::clc::problem_shape> shapes(const grouped_problem& pr)
{
  std::vector<ptxw::clc::problem_shape> s;
  for (int m : pr.m)
  {
    s.push_back({m, pr.n});
  }
  return s;
}
} // namespace detail

template <int ClusterM>
constexpr std::size_t smem_bytes = sizeof(shared_storage<pipe_t<ClusterM>>);

// A list of groups, one policy (ptxw::clc::static_tiles or ptxw::clc::dynamic_tiles<Backend>; with
// clusters of ClusterM CTAs along M, which share B tiles by multicast, ptxw::clc::dynamic_tiles<
// Backend, ptxw::clc::cluster_t>).
template <class Policy, int ClusterM = 1>
class grouped
{
  static constexpr std::size_t smem = smem_bytes<ClusterM>;

  grouped_problem pr_;
  std::vector<int> rows_;
  ptxw::clc::tile_scheduler tiles_; // validates the list (an empty one throws) before it allocates
  ptxw::detail::device_array<int> rows_d_;
  detail::params_type<ClusterM> params_{};

public:
  static constexpr auto kernel = gemm_kernel<detail::params_type<ClusterM>, Policy, ClusterM>;

  // CUTLASS's heuristic (PersistentTileSchedulerSm90Params::get_rasterization, RasterOrderOptions::
  // Heuristic) on the largest group: walk along the shorter side, so the CTAs running at once share
  // the operand of the longer one in L2 -- along M when there are more tile columns than rows.
  static ptxw::clc::raster heuristic_raster(const grouped_problem& pr)
  {
    int m = 0;
    for (int g : pr.m)
    {
      m = g > m ? g : m;
    }
    const long long rows = (m + config::tile_m - 1) / config::tile_m;
    const long long cols = (pr.n + config::tile_n - 1) / config::tile_n;
    return cols > rows ? ptxw::clc::raster::along_m : ptxw::clc::raster::along_n;
  }

  explicit grouped(const grouped_problem& pr, ptxw::clc::swizzle sw = {})
      : grouped(pr, heuristic_raster(pr), sw)
  {}

  // Checks the arguments and builds the descriptors; throws before any launch.
  grouped(const grouped_problem& pr, ptxw::clc::raster order, ptxw::clc::swizzle sw = {})
      : pr_(pr)
      , rows_(detail::check(pr))
      , tiles_(detail::shapes(pr), ptxw::clc::fixed_tile_shape<config::tile_m, config::tile_n>{}, order, sw,
               ptxw::clc::cluster_shape{ClusterM, 1})
      , rows_d_(rows_.size(), "allocating the groups' first rows")
  {
    // The dynamic policy requests only the last wave of tiles: before it each CTA (cluster) takes the
    // tiles the static policy would give it, which share their operands in L2 with the tiles that
    // run beside them (docs/gemm.md).
    tiles_.set_dynamic_tail({1});
    ptxw::detail::cuda_check(cudaMemcpy(rows_d_.get(), rows_.data(), sizeof(int) * rows_.size(), cudaMemcpyHostToDevice),
                             "copying the groups' first rows");
    if (rows_.back() > 0 && pr.n > 0 && pr.k > 0)
    {
      params_ = detail::make_params<ClusterM>(pr, rows_d_.get(), rows_.back());
    }
    ptxw::detail::cuda_check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                  static_cast<int>(smem)),
                             "opting the GEMM kernel into its shared memory");
  }

  const ptxw::clc::tile_scheduler& scheduler() const noexcept
  {
    return tiles_;
  }
  // How many of the last waves of tiles the dynamic policy requests (ptxw::clc::dynamic_tail; 1
  // unless set here).
  void set_dynamic_tail(ptxw::clc::dynamic_tail tail) noexcept
  {
    tiles_.set_dynamic_tail(tail);
  }

  // Record when each tile starts into `trace` on the following runs (gemm_kernel.h's tile_trace);
  // a default tile_trace turns it off.
  void trace(const tile_trace& trace) noexcept
  {
    params_.trace = trace;
  }

  // D = A * B^T for every group, on `stream`. The dynamic policy prepares its scheduler for each
  // launch, so one launch at a time per object (clc::scheduler's rule).
  void run(cudaStream_t stream = 0)
  {
    const int m = rows_.back();
    if (m == 0 || pr_.n == 0)
    {
      return;
    }
    if (pr_.k == 0)
    {
      ptxw::detail::cuda_check(cudaMemsetAsync(pr_.d, 0, sizeof(bf16) * m * pr_.n, stream), "D = 0 for K = 0");
      return;
    }
    auto l = tiles_.prepare(kernel, dim3(config::threads), smem, stream);
    if constexpr (ClusterM > 1)
    {
      ptxw::detail::cuda_check(ptxw::clc::launch_in_clusters(kernel, l.grid, dim3(config::threads), l.cluster, smem,
                                                             stream, params_, l.sched),
                               "launching the GEMM kernel in clusters");
    }
    else
    {
      kernel<<<l.grid, config::threads, smem, stream>>>(params_, l.sched);
    }
  }
};

// One group.
template <class Policy, int ClusterM = 1>
class dense : public grouped<Policy, ClusterM>
{
public:
  explicit dense(const problem& pr, ptxw::clc::swizzle sw = {})
      : grouped<Policy, ClusterM>(grouped_problem{pr.a, pr.b, pr.d, {pr.m}, pr.n, pr.k}, sw)
  {}
};

} // namespace gemm
