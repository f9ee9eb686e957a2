// CUTLASS's sm90 cooperative GEMM with gemm::config's shape, built through its CollectiveBuilder
// (CUTLASS 4.2's headers, the pinned nvidia-cutlass).
#include "cutlass_baseline.h"
#include "gemm_kernel.h"

#include <cute/tensor.hpp>
#include <cutlass/epilogue/collective/collective_builder.hpp>
#include <cutlass/gemm/collective/collective_builder.hpp>
#include <cutlass/gemm/device/gemm_universal_adapter.h>
#include <cutlass/gemm/kernel/gemm_universal.hpp>

#include <cstdio>

namespace gemm::cutlass_baseline {
namespace {
using namespace cute;
using element = cutlass::bfloat16_t;
using tile    = Shape<Int<config::tile_m>, Int<config::tile_n>, Int<config::tile_k>>;

template <int ClusterM>
struct built
{
  using cluster = Shape<Int<ClusterM>, _1, _1>;

  using epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, tile, cluster, cutlass::epilogue::collective::EpilogueTileAuto,
    float, float, void, cutlass::layout::RowMajor, 8, element, cutlass::layout::RowMajor, 8,
    cutlass::epilogue::TmaWarpSpecializedCooperative>::CollectiveOp;

  using mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, element, cutlass::layout::RowMajor, 8, element,
    cutlass::layout::ColumnMajor, 8, float, tile, cluster, cutlass::gemm::collective::StageCount<config::stages>,
    cutlass::gemm::KernelTmaWarpSpecializedCooperative>::CollectiveOp;

  using kernel  = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, mainloop, epilogue>;
  using adapter = cutlass::gemm::device::GemmUniversalAdapter<kernel>;
};

// Every operand is row-major with unit stride along its last mode (A: K, B: K, D: N); the leading
// extent is the row pitch (cutlass/util/packed_stride.hpp's rule, which the include folder lacks).
template <class Stride>
Stride packed(int pitch)
{
  Stride s{};
  get<0>(s) = pitch;
  return s;
}
} // namespace

template <int ClusterM>
bool run(const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* d, int m, int n, int k, void* workspace,
         std::size_t workspace_bytes, cudaStream_t stream)
{
  using kernel  = typename built<ClusterM>::kernel;
  using adapter = typename built<ClusterM>::adapter;
  static const cutlass::KernelHardwareInfo hw = cutlass::KernelHardwareInfo::make_kernel_hardware_info<kernel>(0);
  typename adapter::Arguments args{
      cutlass::gemm::GemmUniversalMode::kGemm,
      {m, n, k, 1},
      {reinterpret_cast<const element*>(a), packed<typename kernel::StrideA>(k),
       reinterpret_cast<const element*>(b), packed<typename kernel::StrideB>(k)},
      {{1.f, 0.f}, nullptr, packed<typename kernel::StrideC>(n),
       reinterpret_cast<element*>(d), packed<typename kernel::StrideD>(n)},
      hw};
  adapter op;
  if (op.can_implement(args) != cutlass::Status::kSuccess || adapter::get_workspace_size(args) > workspace_bytes)
  {
    std::fprintf(stderr, "CUTLASS refuses %d x %d x %d\n", m, n, k);
    return false;
  }
  if (op.initialize(args, workspace, stream) != cutlass::Status::kSuccess || op.run(stream) != cutlass::Status::kSuccess)
  {
    std::fprintf(stderr, "CUTLASS failed to launch %d x %d x %d\n", m, n, k);
    return false;
  }
  return true;
}

template <int ClusterM>
resources kernel_resources()
{
  using kernel = typename built<ClusterM>::kernel;
  cudaFuncAttributes attr{};
  cudaFuncGetAttributes(&attr, cutlass::device_kernel<kernel>);
  return {attr.numRegs, sizeof(typename kernel::SharedStorage)};
}

template bool run<1>(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*, int, int, int, void*, std::size_t,
                     cudaStream_t);
template bool run<2>(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*, int, int, int, void*, std::size_t,
                     cudaStream_t);
template resources kernel_resources<1>();
template resources kernel_resources<2>();

} // namespace gemm::cutlass_baseline
