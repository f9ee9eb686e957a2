// The one_word deque's memory order, per operation, in PTX and SASS (tasks/one_word_deque.h), on
// sm_90a and sm_100a (the same SASS on both):
//   pop:     ld.acquire the word (LDG.E.64.STRONG.GPU + CCTL.IVALL); atom.relaxed.cas -- no MEMBAR
//            at all: no fence.sc, no release;
//   steal:   ld.acquire the word; the entry; atom.release.cas -- MEMBAR.ALL.GPU right before the
//            ATOMG.E.CAS.64 of the word loaded, and no MEMBAR.SC.GPU;
//   publish: the entries, then atom.release.cas of the word -- MEMBAR.ALL.GPU before the CAS (R25).
// Each fails where one of these is dropped (tools/mutation/mutants.txt).
// REQUIRES: target-sm_90a || target-sm_100a
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass

#include <ptxw/tasks.h>

using method  = ptxw::tasks::stealing_deques<ptxw::tasks::one_word>;
using backend = ptxw::detail::tasks::backend<unsigned, method>;
using pool    = ptxw::tasks::pool<unsigned, method>;

extern "C" __global__ void ptxw_pop(pool p, unsigned* out, long long bottom)
{
  backend::local l{bottom, 0, 0, 0, 1, 1, 0};
  ptxw::detail::tasks::entry<unsigned> e;
  ptxw::tasks::counters c{};
  if (backend::pop(p, l, e, c))
  {
    *out = e.value;
  }
}

extern "C" __global__ void ptxw_steal(pool p, unsigned* out, unsigned victim)
{
  backend::local l{0, 0, 0, 0, 2, 1, 0};
  ptxw::detail::tasks::entry<unsigned> e;
  ptxw::tasks::counters c{};
  if (backend::steal(p, l, victim, e, c))
  {
    *out = e.value;
  }
}

extern "C" __global__ void ptxw_publish(pool p, unsigned child, long long bottom)
{
  backend::local l{bottom, 0, 0, 0, 1, 1, 0};
  if (backend::push(p, backend::room{bottom, 4}, 0, child))
  {
    backend::publish(p, l, 1);
  }
}

// PTX-LABEL: .entry ptxw_pop(
// PTX-NOT:   {{fence|membar}}
// PTX:       ld.acquire.gpu.global.b64 [[W:%rd[0-9]+]], [[[WORD:%rd[0-9]+]]];
// PTX-NOT:   {{fence|membar|st\.}}
// PTX:       atom.relaxed.gpu.global.cas.b64 %rd{{[0-9]+}}, [[[WORD]]], [[W]], %rd{{[0-9]+}};
// PTX-NOT:   {{fence|membar}}
// PTX-LABEL: .entry ptxw_steal(
// PTX-NOT:   {{fence|membar}}
// PTX:       ld.acquire.gpu.global.b64 [[W:%rd[0-9]+]], [[[WORD:%rd[0-9]+]]];
// PTX-NOT:   {{fence|membar|atom}}
// PTX:       ld.global.u32
// PTX-NOT:   {{fence|membar}}
// PTX:       atom.release.gpu.global.cas.b64 %rd{{[0-9]+}}, [[[WORD]]], [[W]], %rd{{[0-9]+}};
// PTX-NOT:   {{fence|membar}}
// PTX-LABEL: .entry ptxw_publish(
// PTX:       st.global.u32
// PTX-NOT:   {{fence|membar|ld\.}}
// PTX:       atom.release.gpu.global.cas.b64
// PTX-NOT:   {{fence|membar}}

// Pop: the acquire load of the word (LDG + CCTL.IVALL), the relaxed CAS (no MEMBAR before it), the
// entry -- and no MEMBAR anywhere (no fence.sc, no release).
// SASS-LABEL: Function : ptxw_pop
// SASS-NOT:   MEMBAR
// SASS:       LDG.E.64.STRONG.GPU R{{[0-9]+}}, desc[UR{{[0-9]+}}][R{{[0-9]+}}.64] ;
// SASS-NEXT:  CCTL.IVALL ;
// SASS-NOT:   MEMBAR
// SASS:       ATOMG.E.CAS.64.STRONG.GPU PT, R{{[0-9]+}}, [R{{[0-9]+}}], R{{[0-9]+}}, R{{[0-9]+}} ;
// SASS-NOT:   MEMBAR
// SASS:       LDG.E R{{[0-9]+}}, desc[UR{{[0-9]+}}][R{{[0-9]+}}.64] ;
// SASS-NOT:   MEMBAR

// Steal: the acquire load of the word, the entry at top, then (past the thief_stall fault's sleep)
// the release (MEMBAR.ALL.GPU) and the CAS of the same word from the value loaded -- one MEMBAR,
// and not the SC one.
// SASS-LABEL: Function : ptxw_steal
// SASS-NOT:   MEMBAR
// SASS:       LDG.E.64.STRONG.GPU R[[W:[0-9]+]], desc[UR{{[0-9]+}}][R[[WORD:[0-9]+]].64] ;
// SASS-NEXT:  CCTL.IVALL ;
// SASS-NOT:   {{MEMBAR|ATOMG}}
// SASS:       LDG.E R{{[0-9]+}}, desc[UR{{[0-9]+}}][R{{[0-9]+}}.64] ;
// SASS-NOT:   {{MEMBAR|ATOMG|LDG|STG}}
// SASS:       MEMBAR.ALL.GPU ;
// SASS-NEXT:  ERRBAR ;
// SASS-NEXT:  CGAERRBAR ;
// SASS-NEXT:  ATOMG.E.CAS.64.STRONG.GPU PT, R{{[0-9]+}}, [R[[WORD]]], R[[W]], R{{[0-9]+}} ;
// SASS-NOT:   {{MEMBAR|CCTL}}

// Publish: the entry's store, then the release (MEMBAR.ALL.GPU) right before the CAS of the word.
// SASS-LABEL: Function : ptxw_publish
// SASS:       STG.E desc
// SASS-NOT:   {{STG|ATOMG|MEMBAR}}
// SASS:       MEMBAR.ALL.GPU ;
// SASS-NEXT:  ERRBAR ;
// SASS-NEXT:  CGAERRBAR ;
// SASS-NEXT:  ATOMG.E.CAS.64.STRONG.GPU PT, R{{[0-9]+}}, [R{{[0-9]+}}], R{{[0-9]+}}, R{{[0-9]+}} ;
// SASS-NOT:   {{STG|MEMBAR}}
