// R10: cluster launch control takes its qualifiers as types: a response goes to
// ptxw::clc::cta_t or cluster_t, the backend is automatic_t, hardware_t, emulated_t, counter_t or
// one with a row in the backend table, and for_each_canceled_block's rank is 1, 2 or 3. Anything
// else fails with ptxw's R10 message, at the declaration that names it.
// REQUIRES: mbarrier-tx
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_RECEIVERS %s 2>&1 | FileCheck %s --check-prefix=RECEIVERS
// RUN: not %nvcc -ptx -o /dev/null -DCASE_BACKEND %s 2>&1 | FileCheck %s --check-prefix=BACKEND
// RUN: not %nvcc -ptx -o /dev/null -DCASE_RANK %s 2>&1 | FileCheck %s --check-prefix=RANK
//
// Each case must fail with exactly one error, the ptxw one, reported at the line below it. Without a
// CASE the file compiles.

#include <ptxw/clc.h>

struct not_a_qualifier
{};

__global__ void clc_r10_qualifiers(float* out, ptxw::clc::context<> ctx)
{
  ptxw::for_each_canceled_block<3>(ctx, [&](dim3 block) { out[block.x + block.y + block.z] = 1.0f; });

#if defined(CASE_RECEIVERS)
  // RECEIVERS: error: static assertion failed with "ptxw: R10 qualifiers: a response goes to ptxw::clc::cta_t (the requesting CTA) or ptxw::clc::cluster_t (every CTA of the cluster)"
  // RECEIVERS: at line [[#@LINE+2]] of
  // RECEIVERS: 1 error detected in the compilation of
  __shared__ ptxw::clc::slot<not_a_qualifier> slot;
  auto clc = ptxw::clc::open(slot, ctx);
#endif

#if defined(CASE_BACKEND)
  __shared__ ptxw::clc::slot<ptxw::clc::cta_t> slot;
  // BACKEND: error: static assertion failed with "ptxw: R10 qualifiers: the backend is ptxw::clc::automatic_t, hardware_t, emulated_t, counter_t or one with a PTXW_CLC_BACKEND row"
  // BACKEND: at line [[#@LINE+2]] of
  // BACKEND: 1 error detected in the compilation of
  ptxw::clc::context<not_a_qualifier> other{};
  auto clc = ptxw::clc::open(slot, other);
#endif

#if defined(CASE_RANK)
  // RANK: error: static assertion failed with "ptxw: R10 qualifiers: the block rank is 1, 2 or 3"
  // RANK: at line [[#@LINE+2]] of
  // RANK: 1 error detected in the compilation of
  ptxw::for_each_canceled_block<4>(ctx, [&](dim3 block) { out[block.x] = 2.0f; });
#endif
}
