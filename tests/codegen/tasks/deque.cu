// The stealing method's memory order, per operation, in PTX and SASS (tasks/deque.h):
//   pop:     st.relaxed bottom = b - 1; fence.sc.gpu; ld.relaxed top; CAS top for the last task
//            -- STG of bottom (two, predicated: at once, or held by the late_store fault until the
//            fence), MEMBAR.SC.GPU, then the LDG of top: the store->load order that only fence.sc
//            gives (dropping it is the 2011 code's bug; tasks_litmus_test.cu);
//   steal:   ld.relaxed top; fence.sc.gpu; ld.acquire bottom; the entry; atom.release.cas top
//            -- ATOMG.E.CAS.64 behind MEMBAR.ALL.GPU (the release), no CCTL.IVALL after;
//   publish: the entries, then st.release bottom -- MEMBAR.ALL.GPU before the STG of bottom (R25).
// REQUIRES: target-sm_90a
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass

#include <ptxw/tasks.h>

using backend = ptxw::detail::tasks::backend<unsigned, ptxw::tasks::stealing>;
using pool    = ptxw::tasks::pool<unsigned, ptxw::tasks::stealing>;

extern "C" __global__ void ptxw_pop(pool p, unsigned* out, long long bottom)
{
  backend::local l{bottom, 0, 0, 0, 1, 1};
  ptxw::detail::tasks::entry<unsigned> e;
  ptxw::tasks::counters c{};
  if (backend::pop(p, l, e, c))
  {
    *out = e.value;
  }
}

extern "C" __global__ void ptxw_steal(pool p, unsigned* out, unsigned victim)
{
  backend::local l{0, 0, 0, 0, 2, 1};
  ptxw::detail::tasks::entry<unsigned> e;
  ptxw::tasks::counters c{};
  if (backend::steal(p, l, victim, e, c))
  {
    *out = e.value;
  }
}

extern "C" __global__ void ptxw_publish(pool p, unsigned child, long long bottom)
{
  backend::local l{bottom, 0, 0, 0, 1, 1};
  if (backend::push(p, backend::room{bottom, 4}, 0, child))
  {
    backend::publish(p, l, 1);
  }
}

// PTX-LABEL: .entry ptxw_pop(
// PTX:       ld.relaxed.gpu.global.b64 [[TOP:%rd[0-9]+]], [[[ENDS:%rd[0-9]+]]];
// PTX:       st.relaxed.gpu.global.b64 [%rd{{[0-9]+}}], %rd{{[0-9]+}};
// PTX-NOT:   {{ld\.|atom}}
// PTX:       fence.sc.gpu;
// PTX-NOT:   {{st\.|atom}}
// PTX:       ld.relaxed.gpu.global.b64 %rd{{[0-9]+}}, [[[ENDS]]];
// PTX:       atom.acq_rel.gpu.global.cas.b64
// PTX:       st.relaxed.gpu.global.b64
// PTX-LABEL: .entry ptxw_steal(
// PTX:       ld.relaxed.gpu.global.b64
// PTX-NEXT:  // end inline asm
// PTX-NOT:   {{ld\.|st\.|atom}}
// PTX:       fence.sc.gpu;
// PTX-NOT:   {{st\.|atom}}
// PTX:       ld.acquire.gpu.global.b64
// PTX:       atom.release.gpu.global.cas.b64
// PTX-LABEL: .entry ptxw_publish(
// PTX:       st.global
// PTX-NOT:   {{fence|membar}}
// PTX:       st.release.gpu.global.b64
// PTX-NOT:   {{ld\.relaxed|ld\.acquire}}

// Pop: the stores of bottom (one of the two runs), the full fence, then the load of top -- in
// this order, nothing between them but the fence's parts.
// SASS-LABEL: Function : ptxw_pop
// SASS:       LDG.E.64.STRONG.GPU R{{[0-9]+}}, desc[UR{{[0-9]+}}][R[[ENDS:[0-9]+]].64] ;
// SASS-NOT:   {{MEMBAR|LDG|ATOMG}}
// SASS:       @!P{{[0-9]}} STG.E.64.STRONG.GPU desc[UR{{[0-9]+}}][R[[BOTTOM:[0-9]+]].64], R{{[0-9]+}} ;
// SASS-NOT:   {{LDG|ATOMG|MEMBAR}}
// SASS:       @P{{[0-9]}} STG.E.64.STRONG.GPU desc[UR{{[0-9]+}}][R[[BOTTOM]].64], R{{[0-9]+}} ;
// SASS-NOT:   {{LDG|ATOMG|STG}}
// SASS:       MEMBAR.SC.GPU ;
// SASS-NEXT:  ERRBAR ;
// SASS-NEXT:  CGAERRBAR ;
// SASS-NEXT:  CCTL.IVALL ;
// SASS-NEXT:  LDG.E.64.STRONG.GPU R{{[0-9]+}}, desc[UR{{[0-9]+}}][R{{[0-9]+}}.64] ;
// SASS:       MEMBAR.ALL.GPU ;
// SASS-NEXT:  ERRBAR ;
// SASS-NEXT:  CGAERRBAR ;
// SASS-NEXT:  ATOMG.E.CAS.64.STRONG.GPU PT, R{{[0-9]+}}, [R{{[0-9]+}}], R{{[0-9]+}}, R{{[0-9]+}} ;
// SASS-NEXT:  CCTL.IVALL ;
// SASS:       STG.E.64.STRONG.GPU desc[UR{{[0-9]+}}][R{{[0-9]+}}.64{{(\+0x40)?}}], R{{[0-9]+}} ;

// Steal: the load of top, the full fence, the acquire load of bottom, the CAS with release.
// SASS-LABEL: Function : ptxw_steal
// SASS:       LDG.E.64.STRONG.GPU R{{[0-9]+}}, desc[UR{{[0-9]+}}][R[[VICTIM:[0-9]+]].64] ;
// SASS-NEXT:  MEMBAR.SC.GPU ;
// SASS:       LDG.E.64.STRONG.GPU R{{[0-9]+}}, desc[UR{{[0-9]+}}][R[[VICTIM]].64+0x40] ;
// SASS-NEXT:  CCTL.IVALL ;
// SASS:       MEMBAR.ALL.GPU ;
// SASS-NEXT:  ERRBAR ;
// SASS-NEXT:  CGAERRBAR ;
// SASS-NEXT:  ATOMG.E.CAS.64.STRONG.GPU PT, R{{[0-9]+}}, [R[[VICTIM]]], R{{[0-9]+}}, R{{[0-9]+}} ;
// SASS-NOT:   CCTL.IVALL
// SASS:       STG.E desc

// Publish: the entry's store, then the release (MEMBAR.ALL.GPU), then bottom's store.
// SASS-LABEL: Function : ptxw_publish
// SASS:       STG.E desc
// SASS-NOT:   {{STG|MEMBAR}}
// SASS:       MEMBAR.ALL.GPU ;
// SASS-NOT:   STG
// SASS:       STG.E.64.STRONG.GPU desc[UR{{[0-9]+}}][R{{[0-9]+}}.64+0x40], R{{[0-9]+}} ;
