// One kernel per distinct policy (CUB's cubin check): a build for sm_90a and sm_100a of each
// device-scope algorithm, counted in `cuobjdump -symbols`. The default selectors give both
// architectures the same policy, so one kernel each; split_selector gives them two, so two.
// REQUIRES: target-sm_90a
// RUN: %nvcc -gencode arch=compute_100a,code=sm_100a -c %s -o %t.o
// RUN: %cuobjdump -symbols %t.o \
// RUN:   | awk '/^arch = /{a=$3} /ENTRY/ && match($NF, /(for_each|reduce|drain)_kernel/) { k=substr($NF, RSTART, RLENGTH); \
// RUN:       o=$NF ~ /op_split/ ? "split" : $NF ~ /op_same/ ? "same" : "-"; n[a " " k " " o]++ } \
// RUN:       END { for (x in n) print x, n[x] }' | sort | FileCheck %s

#include <ptxw/algorithms.h>

namespace kp {
// Marks index i with V. The ops are types of their own, op_same and op_split, so that each kernel's
// name says which call it is for.
template <unsigned V>
struct marks
{
  unsigned* p;
  __device__ void operator()(unsigned i) const
  {
    p[i] = V;
  }
};
struct op_same : marks<1>
{};
struct op_split : marks<2>
{};
struct item
{
  unsigned id;
};
struct op_drain
{
  unsigned* p;
  __device__ void operator()(const item& it) const
  {
    p[it.id] = 3;
  }
};
struct split_selector
{
  constexpr ptxw::device::for_each_policy operator()(ptxw::device::compute_capability cc) const
  {
    return cc.major() >= 10 ? ptxw::device::for_each_policy{256, 8, 1, ptxw::clc::backend_id::hardware}
                            : ptxw::device::for_each_policy{256, 8, 1, ptxw::clc::backend_id::counter};
  }
};
} // namespace kp

static_assert(ptxw::device::detail::distinct_policies<ptxw::device::for_each_selector>() == 1);
static_assert(ptxw::device::detail::distinct_policies<kp::split_selector>() == 2);
static_assert(ptxw::device::detail::distinct_policies<ptxw::device::reduce_selector>() == 1);
static_assert(ptxw::device::detail::distinct_policies<ptxw::device::drain_selector>() == 1);

void calls(void* t, std::size_t& b, unsigned* p, const int* in, long long* out, const kp::item* items)
{
  (void) ptxw::device::for_each_canceled(t, b, 100u, kp::op_same{p});
  (void) ptxw::device::for_each_canceled<kp::split_selector>(t, b, 100u, kp::op_split{p});
  (void) ptxw::device::sum(t, b, in, out, 100);
  (void) ptxw::device::drain(t, b, items, 100, kp::op_drain{p});
}

// CHECK:      sm_100a drain_kernel - 1
// CHECK-NEXT: sm_100a for_each_kernel same 1
// CHECK-NEXT: sm_100a for_each_kernel split 2
// CHECK-NEXT: sm_100a reduce_kernel - 1
// CHECK-NEXT: sm_90a drain_kernel - 1
// CHECK-NEXT: sm_90a for_each_kernel same 1
// CHECK-NEXT: sm_90a for_each_kernel split 2
// CHECK-NEXT: sm_90a reduce_kernel - 1
// CHECK-EMPTY:
