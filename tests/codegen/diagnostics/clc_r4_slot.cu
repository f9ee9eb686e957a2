// R4: a response is read through handle::wait(), after its phase completed; the slot's contents
// are not reachable: reading slot.response right after a request fails with ptxw's R4 message, and
// the slot's barrier is not a member users can reach.
// REQUIRES: mbarrier-tx
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_READ_RESPONSE -DCASE_SLOT_BARRIER %s 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=READ_RESPONSE,SLOT_BARRIER,CASES
// The cases compile together, once: each is one error at its line (-DAG checks: nvcc reports
// template instantiation errors at the end of the translation unit, out of source order), and
// the total is the number of cases (the last line).
//
// Without a CASE the file compiles: the response read through wait().

#include <ptxw/clc.h>

__global__ void clc_r4_slot(uint4* out, ptxw::clc::context<> ctx)
{
  __shared__ ptxw::clc::slot<ptxw::clc::cta_t> slot;
  auto clc = ptxw::clc::open(slot, ctx);
  __syncthreads();
  clc.request(clc.elect());
  out[0] = clc.wait().raw();

#if defined(CASE_READ_RESPONSE)
  // READ_RESPONSE-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R4 one observation: the response exists only after its barrier phase completed; read it through handle.wait()
  // READ_RESPONSE-DAG: at line [[#@LINE+1]] of
  const uint4 early = slot.response;
  out[1]            = early;
#endif

#if defined(CASE_SLOT_BARRIER)
  // SLOT_BARRIER-DAG: clc_r4_slot.cu([[#@LINE+1]]): error: class "ptxw::{{(un)?checked_mode}}::clc::slot<ptxw::{{(un)?checked_mode}}::clc::cta_t>" has no member "bar"
  slot.bar.arrive();
#endif
}

// CASES: 2 errors detected in the compilation of
