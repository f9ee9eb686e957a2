// R3: request() takes a ptxw::elected, which only elect_one() makes. Passing anything else fails
// with ptxw's R3 message; making an elected by hand fails on its private constructor.
// REQUIRES: mbarrier-tx
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_REQUEST_BOOL %s 2>&1 | FileCheck %s --check-prefix=REQUEST_BOOL
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ELECTED_FROM_BOOL %s 2>&1 | FileCheck %s --check-prefix=ELECTED_FROM_BOOL
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ELECTED_DEFAULT %s 2>&1 | FileCheck %s --check-prefix=ELECTED_DEFAULT
//
// Without a CASE the file compiles: the request is made by the lane elect_one() picked.

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
  if (ptxw::elected e = ptxw::elect_one())
  {
    clc.request(e);
  }

#if defined(CASE_REQUEST_BOOL)
  if (threadIdx.x == 0)
  {
    // REQUEST_BOOL: error: static assertion failed with "ptxw: R3 one submitter: request() takes the ptxw::elected
    // REQUEST_BOOL: at line [[#@LINE+2]] of
    // REQUEST_BOOL: 1 error detected in the compilation of
    clc.request(true);
  }
#endif

#if defined(CASE_ELECTED_FROM_BOOL)
  // ELECTED_FROM_BOOL: clc_r3_elected.cu([[#@LINE+2]]): error: "ptxw::{{(un)?checked_mode}}::elected::elected(__nv_bool) noexcept" (declared at line {{[0-9]+}} of {{.*}}elect.h) is inaccessible
  // ELECTED_FROM_BOOL: 1 error detected in the compilation of
  ptxw::elected forged(threadIdx.x == 0);
  clc.request(forged);
#endif

#if defined(CASE_ELECTED_DEFAULT)
  // ELECTED_DEFAULT: clc_r3_elected.cu([[#@LINE+2]]): error: no default constructor exists for class "ptxw::{{(un)?checked_mode}}::elected"
  // ELECTED_DEFAULT: 1 error detected in the compilation of
  ptxw::elected nobody;
  clc.request(nobody);
#endif
}
