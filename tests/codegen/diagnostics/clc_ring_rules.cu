// clc::ring (ptxw/clc/ring.h): what the types refuse. A token is the one right to release its stage
// (R4: not copied, released by rvalue only, so not twice by lvalue); a ring has 1 to 32 stages
// (R18); the scheduler requests only with the submitter its elect() made (R3). Each misuse is one
// `ptxw:` error naming the user's line.
// REQUIRES: mbarrier-tx
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TOKEN_COPY -DCASE_RELEASE_TWICE -DCASE_DEPTH_0 -DCASE_DEPTH_33 \
// RUN:  -DCASE_REQUEST_BOOL -DCASE_REQUEST_WARP_ELECTED %s 2>&1 \
// RUN:   | FileCheck %s \
// RUN:  --check-prefixes=TOKEN_COPY,RELEASE_TWICE,DEPTH_0,DEPTH_33,REQUEST_BOOL,REQUEST_WARP_ELECTED \
// RUN:  --check-prefixes=CASES
// The cases compile together, once: each is one error at its line (-DAG checks: nvcc reports
// template instantiation errors at the end of the translation unit, out of source order), and
// the total is the number of cases (the last line).
//
// Without a CASE the file compiles: the correct spellings of the same steps.

#include <ptxw/clc.h>

#include <utility>

namespace clc = ptxw::clc;

__global__ void clc_ring_rules(unsigned* out, clc::context<> ctx)
{
  __shared__ clc::ring<2, 3> ring;
  auto r = clc::open(ring, ctx);
  if (!r.started())
  {
    return;
  }
  if (threadIdx.x < 32)
  {
    auto s = r.scheduler();
    const auto sub = r.elect();
#if defined(CASE_REQUEST_BOOL)
    // REQUEST_BOOL-DAG: clc_ring_rules.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R3 one submitter: a ring request takes the scheduler's submitter
    (void) s.request(threadIdx.x == 0);
#endif
#if defined(CASE_REQUEST_WARP_ELECTED)
    // REQUEST_WARP_ELECTED-DAG: clc_ring_rules.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R3 one submitter: a ring request takes the scheduler's submitter
    s.run(ptxw::elect_one());
#endif
    s.run(sub);
    return;
  }
  auto c = r.consumer(threadIdx.x / 32 - 1);
  while (true)
  {
    auto t = c.wait();
#if defined(CASE_TOKEN_COPY)
    // TOKEN_COPY-DAG: clc_ring_rules.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R4 one observation: a ring token is the one right to release its stage and cannot be copied
    auto copy = t;
    c.release(std::move(copy));
#endif
    const auto b = t.block();
    c.release(std::move(t));
#if defined(CASE_RELEASE_TWICE)
    // RELEASE_TWICE-DAG: clc_ring_rules.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R4 one observation: release() takes the token back by rvalue
    c.release(t);
#endif
    if (!b)
    {
      break;
    }
    out[b.x()] = threadIdx.x;
  }
}

// A ring of Depth stages and its scheduler: the depth cases instantiate it out of range.
template <unsigned Depth>
__global__ void ring_of_depth(clc::context<> ctx)
{
  __shared__ clc::ring<Depth, 3> ring;
  auto r = clc::open(ring, ctx);
  r.scheduler().run(r.elect());
}

#if defined(CASE_DEPTH_0)
// DEPTH_0-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R18 in range: a cluster launch control ring has 1 to 32 stages
// DEPTH_0-DAG: at line [[#@LINE+1]] of
template __global__ void ring_of_depth<0>(clc::context<>);
#endif

#if defined(CASE_DEPTH_33)
// DEPTH_33-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R18 in range: a cluster launch control ring has 1 to 32 stages
// DEPTH_33-DAG: at line [[#@LINE+1]] of
template __global__ void ring_of_depth<33>(clc::context<>);
#endif

// CASES: 6 errors detected in the compilation of
