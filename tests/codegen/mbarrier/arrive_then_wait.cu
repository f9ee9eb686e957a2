// The classic pattern: every thread arrives (.release.cta), then waits for the phase (.acquire.cta).
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: %ptxw-sass-equal %t.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

extern "C" __global__ void ptxw_arrive_then_wait(int* data)
{
  __shared__ ptxw::cta_barrier bar;
  ptxw::phase ph;
  data[threadIdx.x] = 1;
  bar.arrive();
  bar.wait(ph);
  data[threadIdx.x + blockDim.x] = 2;
}

extern "C" __global__ void ref_arrive_then_wait(int* data)
{
  __shared__ uint64_t bar;
  data[threadIdx.x] = 1;
  ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar);
  while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &bar, 0u))
  {
  }
  data[threadIdx.x + blockDim.x] = 2;
}

// PTX-LABEL: .entry ptxw_arrive_then_wait(
// PTX:       st.global.u32
// PTX:       mbarrier.arrive.release.cta.shared::cta.b64 %rd{{[0-9]+}}, [%r{{[0-9]+}}];
// PTX:       mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 P_OUT, [%r{{[0-9]+}}], %r{{[0-9]+}};
// PTX:       st.global.u32
// PTX-LABEL: .entry ref_arrive_then_wait(

// The first store stays before the arrive, the second after the wait; neither needs a MEMBAR at .cta.
// SASS-LABEL: Function : ptxw_arrive_then_wait
// SASS:       STG.E
// SASS-NOT:   {{MEMBAR|SYNCS}}
// SASS:       SYNCS.ARRIVE.TRANS64.A1T0 RZ, [UR[[BAR:[0-9]+]]], RZ ;
// SASS-NOT:   {{MEMBAR|SEL|LOP3}}
// SASS:       SYNCS.PHASECHK.TRANS64.TRYWAIT P[[OK:[0-9]]], [UR[[BAR]]], R{{[0-9]+}} ;
// SASS-NOT:   {{MEMBAR|SEL|LOP3|CCTL}}
// SASS:       STG.E
// SASS-NOT:   {{MEMBAR|SEL|LOP3|STG}}
// SASS-LABEL: Function : ref_arrive_then_wait
