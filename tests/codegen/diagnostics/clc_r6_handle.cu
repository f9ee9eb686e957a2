// R6: a cluster launch control handle owns its thread's ptxw::phase of the slot's barrier; a copy
// would be a second, diverging phase. Copying one -- into a by-value parameter, or by assignment
// -- fails with ptxw's R6 message, which says to pass it by reference.
// REQUIRES: mbarrier-tx
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_BY_VALUE -DCASE_COPY %s 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=BY_VALUE,COPY,CASES
// The cases compile together, once: each is one error at its line (-DAG checks: nvcc reports
// template instantiation errors at the end of the translation unit, out of source order), and
// the total is the number of cases (the last line).
//
// Without a CASE the file compiles: the handle passed by reference.

#include <ptxw/clc.h>

template <class Handle>
__device__ void request_by_reference(Handle& h)
{
  h.request(h.elect());
}

template <class Handle>
__device__ void request_by_value(Handle h)
{
  h.request(h.elect());
}

__global__ void clc_r6_handle(ptxw::clc::context<> ctx)
{
  __shared__ ptxw::clc::slot<ptxw::clc::cta_t> slot;
  auto clc = ptxw::clc::open(slot, ctx);
  __syncthreads();
  request_by_reference(clc);
  (void) clc.wait();

#if defined(CASE_BY_VALUE)
  // BY_VALUE-DAG: clc_r6_handle.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: a cluster launch control handle owns its thread's ptxw::phase and cannot be copied; pass it by reference"
  request_by_value(clc);
#endif

#if defined(CASE_COPY)
  // COPY-DAG: clc_r6_handle.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: a cluster launch control handle owns its thread's ptxw::phase and cannot be copied
  auto second = clc;
  (void) second.wait();
#endif
}

// CASES: 2 errors detected in the compilation of
