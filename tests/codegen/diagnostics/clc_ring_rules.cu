// clc::ring (ptxw/clc/ring.h): what the types refuse. A token is the one right to release its stage
// (R4: not copied, released by rvalue only, so not twice by lvalue); a ring has 1 to 32 stages
// (R18); the scheduler requests only with the submitter its elect() made (R3). Each misuse is one
// `ptxw:` error naming the user's line.
// REQUIRES: mbarrier-tx
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TOKEN_COPY %s 2>&1 | FileCheck %s --check-prefix=TOKEN_COPY
// RUN: not %nvcc -ptx -o /dev/null -DCASE_RELEASE_TWICE %s 2>&1 | FileCheck %s --check-prefix=RELEASE_TWICE
// RUN: not %nvcc -ptx -o /dev/null -DCASE_DEPTH_0 %s 2>&1 | FileCheck %s --check-prefix=DEPTH_0
// RUN: not %nvcc -ptx -o /dev/null -DCASE_DEPTH_33 %s 2>&1 | FileCheck %s --check-prefix=DEPTH_33
// RUN: not %nvcc -ptx -o /dev/null -DCASE_REQUEST_BOOL %s 2>&1 | FileCheck %s --check-prefix=REQUEST_BOOL
// RUN: not %nvcc -ptx -o /dev/null -DCASE_REQUEST_WARP_ELECTED %s 2>&1 | FileCheck %s --check-prefix=REQUEST_WARP_ELECTED
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
    // REQUEST_BOOL: clc_ring_rules.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R3 one submitter: a ring request takes the scheduler's submitter
    // REQUEST_BOOL: 1 error detected in the compilation of
    (void) s.request(threadIdx.x == 0);
#endif
#if defined(CASE_REQUEST_WARP_ELECTED)
    // REQUEST_WARP_ELECTED: clc_ring_rules.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R3 one submitter: a ring request takes the scheduler's submitter
    // REQUEST_WARP_ELECTED: 1 error detected in the compilation of
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
    // TOKEN_COPY: clc_ring_rules.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R4 one observation: a ring token is the one right to release its stage and cannot be copied
    // TOKEN_COPY: 1 error detected in the compilation of
    auto copy = t;
    c.release(std::move(copy));
#endif
    const auto b = t.block();
    c.release(std::move(t));
#if defined(CASE_RELEASE_TWICE)
    // RELEASE_TWICE: clc_ring_rules.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R4 one observation: release() takes the token back by rvalue
    // RELEASE_TWICE: 1 error detected in the compilation of
    c.release(t);
#endif
    if (!b)
    {
      break;
    }
    out[b.x()] = threadIdx.x;
  }
}

#if defined(CASE_DEPTH_0)
__global__ void depth_0(clc::context<> ctx)
{
  // DEPTH_0: error: static assertion failed with "ptxw: R18 in range: a cluster launch control ring has 1 to 32 stages
  // DEPTH_0: at line [[#@LINE+2]] of
  // DEPTH_0: 1 error detected in the compilation of
  __shared__ clc::ring<0, 3> ring;
  auto r = clc::open(ring, ctx);
  r.scheduler().run(r.elect());
}
#endif

#if defined(CASE_DEPTH_33)
__global__ void depth_33(clc::context<> ctx)
{
  // DEPTH_33: error: static assertion failed with "ptxw: R18 in range: a cluster launch control ring has 1 to 32 stages
  // DEPTH_33: at line [[#@LINE+2]] of
  // DEPTH_33: 1 error detected in the compilation of
  __shared__ clc::ring<33, 3> ring;
  auto r = clc::open(ring, ctx);
  r.scheduler().run(r.elect());
}
#endif
