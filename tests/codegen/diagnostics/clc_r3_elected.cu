// R3: request() takes the CTA's submitter, which only handle::elect() makes (one lane of the first
// warp). Passing anything else -- a bool, or ptxw::elect_one()'s lane of every warp -- fails with
// ptxw's R3 message, and so does making a submitter or an elected from a bool.
// REQUIRES: mbarrier-tx
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_REQUEST_BOOL -DCASE_REQUEST_WARP_ELECTED -DCASE_SUBMITTER_FROM_BOOL \
// RUN:  -DCASE_ELECTED_FROM_BOOL -DCASE_ELECTED_DEFAULT %s 2>&1 \
// RUN:   | FileCheck %s \
// RUN:  --check-prefixes=REQUEST_BOOL,REQUEST_WARP_ELECTED,SUBMITTER_FROM_BOOL,ELECTED_FROM_BOOL \
// RUN:  --check-prefixes=ELECTED_DEFAULT,CASES
//
// The cases compile together, once: each is one error, the ptxw one, at its line (-DAG checks), and
// the total is the number of cases (the last line). Without a CASE the file compiles: the request is
// made by the submitter elect() picked.

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
    // REQUEST_BOOL-DAG: clc_r3_elected.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R3 one submitter: request() takes the CTA's submitter, clc.elect()
    clc.request(true);
  }
#endif

#if defined(CASE_REQUEST_WARP_ELECTED)
  // REQUEST_WARP_ELECTED-DAG: clc_r3_elected.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R3 one submitter: request() takes the CTA's submitter, clc.elect(); ptxw::elect_one() elects a lane per warp
  if (ptxw::elected e = ptxw::elect_one())
    clc.request(e);
#endif

#if defined(CASE_SUBMITTER_FROM_BOOL)
  // SUBMITTER_FROM_BOOL-DAG: clc_r3_elected.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R3 one submitter: a ptxw::clc::submitter comes only from handle.elect()
  ptxw::clc::submitter forged(threadIdx.x == 0);
  clc.request(forged);
#endif

#if defined(CASE_ELECTED_FROM_BOOL)
  // ELECTED_FROM_BOOL-DAG: clc_r3_elected.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R3 one submitter: a ptxw::elected comes only from ptxw::elect_one()
  ptxw::elected forged_elected(threadIdx.x == 0);
  (void) forged_elected;
#endif

#if defined(CASE_ELECTED_DEFAULT)
  // ELECTED_DEFAULT-DAG: clc_r3_elected.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R3 one submitter: a ptxw::elected comes only from ptxw::elect_one()
  ptxw::elected nobody;
  (void) nobody;
#endif
}

// CASES: 5 errors detected in the compilation of
