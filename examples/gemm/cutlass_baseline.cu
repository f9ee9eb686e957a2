// CUTLASS's sm90 cooperative GEMM with gemm::config's shape, dense and grouped, built through its
// CollectiveBuilder (CUTLASS 4.2's headers, the pinned nvidia-cutlass).
#include "cutlass_baseline.h"
#include "gemm_kernel.h"

#include <ptxw/core/device_array.h>

#include <cute/tensor.hpp>
#include <cutlass/epilogue/collective/collective_builder.hpp>
#include <cutlass/gemm/collective/collective_builder.hpp>
#include <cutlass/gemm/device/gemm_universal_adapter.h>
#include <cutlass/gemm/group_array_problem_shape.hpp>
#include <cutlass/gemm/kernel/gemm_universal.hpp>

#include <algorithm>
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

// The grouped form: pointer-array layouts (one pointer and one stride a group), one CTA a tile.
struct built_grouped
{
  using cluster = Shape<_1, _1, _1>;
  using problem = cutlass::gemm::GroupProblemShape<Shape<int, int, int>>;

  using epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, tile, cluster, cutlass::epilogue::collective::EpilogueTileAuto,
    float, float, void, cutlass::layout::RowMajor*, 8, element, cutlass::layout::RowMajor*, 8,
    cutlass::epilogue::PtrArrayTmaWarpSpecializedCooperative>::CollectiveOp;

  using mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, element, cutlass::layout::RowMajor*, 8, element,
    cutlass::layout::ColumnMajor*, 8, float, tile, cluster, cutlass::gemm::collective::StageCount<config::stages>,
    cutlass::gemm::KernelPtrArrayTmaWarpSpecializedCooperative>::CollectiveOp;

  using kernel  = cutlass::gemm::kernel::GemmUniversal<problem, mainloop, epilogue>;
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
         std::size_t workspace_bytes, cudaStream_t stream, int swizzle)
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
  args.scheduler.max_swizzle_size = swizzle;
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


struct grouped::state
{
  using kernel  = built_grouped::kernel;
  using adapter = built_grouped::adapter;
  using shape   = built_grouped::problem::UnderlyingProblemShape;
  using stride_a = typename kernel::InternalStrideA;
  using stride_b = typename kernel::InternalStrideB;
  using stride_d = typename kernel::InternalStrideD;

  template <class T>
  using array = ptxw::detail::device_array<T>;

  std::vector<shape> host_shapes;
  array<shape> shapes;
  array<const element*> a, b;
  array<element*> d;
  array<stride_a> sa;
  array<stride_b> sb;
  array<stride_d> sd;
  array<unsigned char> workspace;
  typename adapter::Arguments args{};
  adapter op;
  bool ready = false;
};

grouped::grouped(const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* d, const std::vector<int>& ms, int n,
                 int k)
    : s_(std::make_unique<state>())
{
  std::vector<const element*> pa, pb;
  std::vector<element*> pd;
  std::vector<state::stride_a> sa;
  std::vector<state::stride_b> sb;
  std::vector<state::stride_d> sd;
  std::size_t first = 0;
  for (std::size_t g = 0; g < ms.size(); first += ms[g++])
  {
    if (ms[g] == 0)
    {
      continue;
    }
    s_->host_shapes.push_back({ms[g], n, k});
    pa.push_back(reinterpret_cast<const element*>(a) + first * k);
    pb.push_back(reinterpret_cast<const element*>(b) + g * std::size_t(n) * k);
    pd.push_back(reinterpret_cast<element*>(d) + first * n);
    sa.push_back(packed<state::stride_a>(k));
    sb.push_back(packed<state::stride_b>(k));
    sd.push_back(packed<state::stride_d>(n));
  }
  s_->shapes.upload(s_->host_shapes, "CUTLASS grouped: the groups' shapes");
  s_->a.upload(pa, "CUTLASS grouped: the groups' A");
  s_->b.upload(pb, "CUTLASS grouped: the groups' B");
  s_->d.upload(pd, "CUTLASS grouped: the groups' D");
  s_->sa.upload(sa, "CUTLASS grouped: the groups' strides");
  s_->sb.upload(sb, "CUTLASS grouped: the groups' strides");
  s_->sd.upload(sd, "CUTLASS grouped: the groups' strides");
  const int groups = static_cast<int>(s_->host_shapes.size());
  cutlass::KernelHardwareInfo hw = cutlass::KernelHardwareInfo::make_kernel_hardware_info<state::kernel>(0);
  s_->args = {cutlass::gemm::GemmUniversalMode::kGrouped,
              {groups, s_->shapes.get(), s_->host_shapes.data()},
              {s_->a.get(), s_->sa.get(), s_->b.get(), s_->sb.get()},
              {{}, nullptr, nullptr, s_->d.get(), s_->sd.get()},
              hw};
  s_->args.epilogue.thread.alpha = 1.f;
  s_->args.epilogue.thread.beta  = 0.f;
  if (s_->op.can_implement(s_->args) != cutlass::Status::kSuccess)
  {
    std::fprintf(stderr, "CUTLASS refuses the grouped problem (%d groups)\n", groups);
    return;
  }
  if (s_->workspace.try_reserve(std::max<std::size_t>(1, state::adapter::get_workspace_size(s_->args))) != cudaSuccess
      || s_->op.initialize(s_->args, s_->workspace.get()) != cutlass::Status::kSuccess)
  {
    std::fprintf(stderr, "CUTLASS could not initialise the grouped problem (%d groups)\n", groups);
    return;
  }
  s_->ready = true;
}

grouped::~grouped() = default; // here, where state is complete

bool grouped::run(cudaStream_t stream)
{
  if (!s_->ready || s_->op.run(stream) != cutlass::Status::kSuccess)
  {
    std::fprintf(stderr, "CUTLASS failed to launch the grouped problem\n");
    return false;
  }
  return true;
}

template bool run<1>(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*, int, int, int, void*, std::size_t,
                     cudaStream_t, int);
template bool run<2>(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*, int, int, int, void*, std::size_t,
                     cudaStream_t, int);
template resources kernel_resources<1>();
template resources kernel_resources<2>();

} // namespace gemm::cutlass_baseline
