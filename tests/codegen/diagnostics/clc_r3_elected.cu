// R3: request() takes the CTA's submitter, which only handle::elect() makes (one lane of the first
// warp). Passing anything else -- a bool, or ptxw::elect_one()'s lane of every warp -- fails with
// ptxw's R3 message, and so does making a submitter or an elected from a bool.
// REQUIRES: mbarrier-tx
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_REQUEST_BOOL %s 2>&1 | FileCheck %s --check-prefix=REQUEST_BOOL
// RUN: not %nvcc -ptx -o /dev/null -DCASE_REQUEST_WARP_ELECTED %s 2>&1 | FileCheck %s --check-prefix=REQUEST_WARP_ELECTED
// RUN: not %nvcc -ptx -o /dev/null -DCASE_SUBMITTER_FROM_BOOL %s 2>&1 | FileCheck %s --check-prefix=SUBMITTER_FROM_BOOL
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ELECTED_FROM_BOOL %s 2>&1 | FileCheck %s --check-prefix=ELECTED_FROM_BOOL
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ELECTED_DEFAULT %s 2>&1 | FileCheck %s --check-prefix=ELECTED_DEFAULT
//
// Without a CASE the file compiles: the request is made by the submitter elect() picked.

#include <ptxw/clc.h>

__global__ void clc_r3_elected(ptxw::clc::context<> ctx)
{
  __shared__ ptxw::clc::slot<ptxw::clc::cta_t> slot;
  auto clc = ptxw::clc::open(slot, ctx);
  if (!clc.started())
  {
    return;
  }
  __syncthreads();
  clc.request(clc.elect());

#if defined(CASE_REQUEST_BOOL)
  if (threadIdx.x == 0)
  {
    // REQUEST_BOOL: clc_r3_elected.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R3 one submitter: request() takes the CTA's submitter, clc.elect()
    // REQUEST_BOOL: 1 error detected in the compilation of
    clc.request(true);
  }
#endif

#if defined(CASE_REQUEST_WARP_ELECTED)
  // REQUEST_WARP_ELECTED: clc_r3_elected.cu([[#@LINE+3]]): error: {{.*}} was declared unavailable ("ptxw: R3 one submitter: request() takes the CTA's submitter, clc.elect(); ptxw::elect_one() elects a lane per warp
  // REQUEST_WARP_ELECTED: 1 error detected in the compilation of
  if (ptxw::elected e = ptxw::elect_one())
    clc.request(e);
#endif

#if defined(CASE_SUBMITTER_FROM_BOOL)
  // SUBMITTER_FROM_BOOL: clc_r3_elected.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R3 one submitter: a ptxw::clc::submitter comes only from handle.elect()
  // SUBMITTER_FROM_BOOL: 1 error detected in the compilation of
  ptxw::clc::submitter forged(threadIdx.x == 0);
  clc.request(forged);
#endif

#if defined(CASE_ELECTED_FROM_BOOL)
  // ELECTED_FROM_BOOL: clc_r3_elected.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R3 one submitter: a ptxw::elected comes only from ptxw::elect_one()
  // ELECTED_FROM_BOOL: 1 error detected in the compilation of
  ptxw::elected forged(threadIdx.x == 0);
  (void) forged;
#endif

#if defined(CASE_ELECTED_DEFAULT)
  // ELECTED_DEFAULT: clc_r3_elected.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R3 one submitter: a ptxw::elected comes only from ptxw::elect_one()
  // ELECTED_DEFAULT: 1 error detected in the compilation of
  ptxw::elected nobody;
  (void) nobody;
#endif
}
