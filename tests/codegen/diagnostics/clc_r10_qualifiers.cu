// R10: cluster launch control takes its qualifiers as types: a response goes to
// ptxw::clc::cta_t or cluster_t, the backend is automatic_t, hardware_t, emulated_t, counter_t or
// one with a row in the backend table, and for_each_canceled_block's rank is 1, 2 or 3. Anything
// else fails with ptxw's R10 message, at the declaration that names it.
// REQUIRES: mbarrier-tx
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_RECEIVERS -DCASE_BACKEND -DCASE_RANK %s 2>&1 \
// RUN:   | FileCheck %s \
// RUN:  --check-prefixes=RECEIVERS,BACKEND,RANK,CASES
//
// The cases compile together, once: each is one error, the ptxw one, at the line below it (-DAG
// checks: nvcc reports instantiation errors out of source order), and the total is the number of
// cases (the last line). Without a CASE the file compiles.

#include <ptxw/clc.h>

struct not_a_qualifier
{};

__global__ void clc_r10_qualifiers(float* out, ptxw::clc::context<> ctx)
{
  ptxw::for_each_canceled_block<3>(ctx, [&](dim3 block) { out[block.x + block.y + block.z] = 1.0f; });

#if defined(CASE_RECEIVERS)
  // RECEIVERS-DAG: error: static assertion failed with "ptxw: R10 qualifiers: a response goes to ptxw::clc::cta_t (the requesting CTA) or ptxw::clc::cluster_t (every CTA of the cluster)"
  // RECEIVERS-DAG: at line [[#@LINE+1]] of
  __shared__ ptxw::clc::slot<not_a_qualifier> slot;
  auto clc = ptxw::clc::open(slot, ctx);
#endif

#if defined(CASE_BACKEND)
  __shared__ ptxw::clc::slot<ptxw::clc::cta_t> backend_slot;
  // BACKEND-DAG: error: static assertion failed with "ptxw: R10 qualifiers: the backend is ptxw::clc::automatic_t, hardware_t, emulated_t, counter_t or one with a PTXW_CLC_BACKEND row"
  // BACKEND-DAG: at line [[#@LINE+1]] of
  ptxw::clc::context<not_a_qualifier> other{};
  auto backend_clc = ptxw::clc::open(backend_slot, other);
#endif

#if defined(CASE_RANK)
  // RANK-DAG: error: static assertion failed with "ptxw: R10 qualifiers: the block rank is 1, 2 or 3"
  // RANK-DAG: at line [[#@LINE+1]] of
  ptxw::for_each_canceled_block<4>(ctx, [&](dim3 block) { out[block.x] = 2.0f; });
#endif
}

// CASES: 3 errors detected in the compilation of
