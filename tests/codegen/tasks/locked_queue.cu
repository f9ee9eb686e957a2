// The locked queue's order (R25): the lock taken with atom.acq_rel.gpu.cas 0 -> 1 (MEMBAR.ALL.GPU
// before the ATOMG.CAS, CCTL.IVALL after), the ends and the entry plain accesses inside it, the lock
// given back with st.release 0 (MEMBAR.ALL.GPU + STG.STRONG) after the last of them.
// REQUIRES: target-sm_90a || target-sm_100a
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass

#include <ptxw/tasks.h>

using locked  = ptxw::tasks::locked_queue;
using backend = ptxw::detail::tasks::backend<unsigned, locked>;

extern "C" __global__ void ptxw_locked_push(ptxw::tasks::pool<unsigned, locked> p, unsigned child, unsigned* out)
{
  *out = backend::push(p, {}, 0, child);
}

extern "C" __global__ void ptxw_locked_take(ptxw::tasks::pool<unsigned, locked> p, unsigned* out)
{
  typename backend::local l{};
  ptxw::detail::tasks::entry<unsigned> e;
  ptxw::tasks::counters c{};
  if (backend::take(p, l, e, c) == ptxw::detail::tasks::taken::got)
  {
    *out = e.value;
  }
}

// PTX-LABEL: .entry ptxw_locked_push(
// PTX-NOT:   {{ld\.global|st\.global|fence|membar}}
// PTX:       atom.acq_rel.gpu.global.cas.b32
// PTX-NOT:   {{fence|membar|\.release|\.acquire|st\.global}}
// PTX:       st.global.u32
// PTX-NOT:   {{fence|membar|\.release|\.acquire|atom}}
// PTX:       st.global.u64
// PTX-NOT:   {{fence|membar|\.acquire|atom|st\.global}}
// PTX:       st.release.gpu.global.b32
// PTX-LABEL: .entry ptxw_locked_take(
// PTX-NOT:   {{ld\.global|st\.global|fence|membar}}
// PTX:       atom.acq_rel.gpu.global.cas.b32
// PTX-NOT:   {{fence|membar|\.release|\.acquire|st\.global}}
// PTX:       ld.global.u32
// PTX-NOT:   {{fence|membar|\.release|\.acquire|atom}}
// PTX:       st.global.u64
// PTX-NOT:   {{fence|membar|\.acquire|atom|st\.global}}
// PTX:       st.release.gpu.global.b32
// PTX-NOT:   {{fence|membar|atom}}
// PTX:       st.global.u32
// PTX:       ret;

// The lock's try, then its retry after a sleep; the entry and the end inside; the release last.
// SASS-LABEL: Function : ptxw_locked_push
// SASS-NOT:   {{LDG|STG}}
// SASS:       MEMBAR.ALL.GPU ;
// SASS-NEXT:  ERRBAR ;
// SASS-NEXT:  CGAERRBAR ;
// SASS-NEXT:  ATOMG.E.CAS.STRONG.GPU
// SASS-NEXT:  CCTL.IVALL ;
// SASS-NOT:   {{LDG|STG}}
// SASS:       NANOSLEEP 0x20 ;
// SASS-NEXT:  MEMBAR.ALL.GPU ;
// SASS-NEXT:  ERRBAR ;
// SASS-NEXT:  CGAERRBAR ;
// SASS-NEXT:  ATOMG.E.CAS.STRONG.GPU
// SASS-NEXT:  CCTL.IVALL ;
// SASS-NOT:   {{MEMBAR|STRONG|STG}}
// SASS:       STG.E desc
// SASS-NOT:   {{MEMBAR|STRONG|ATOMG}}
// SASS:       STG.E.64 desc
// SASS-NOT:   {{LDG|STG|ATOMG}}
// SASS:       MEMBAR.ALL.GPU ;
// SASS-NEXT:  ERRBAR ;
// SASS-NEXT:  CGAERRBAR ;
// SASS-NEXT:  STG.E.STRONG.GPU desc[UR{{[0-9]+}}][R{{[0-9]+}}.64], RZ ;
// SASS-LABEL: Function : ptxw_locked_take
// SASS-NOT:   {{LDG|STG}}
// SASS:       MEMBAR.ALL.GPU ;
// SASS-NEXT:  ERRBAR ;
// SASS-NEXT:  CGAERRBAR ;
// SASS-NEXT:  ATOMG.E.CAS.STRONG.GPU
// SASS-NEXT:  CCTL.IVALL ;
// SASS-NOT:   {{LDG|STG}}
// SASS:       NANOSLEEP 0x20 ;
// SASS-NEXT:  MEMBAR.ALL.GPU ;
// SASS-NEXT:  ERRBAR ;
// SASS-NEXT:  CGAERRBAR ;
// SASS-NEXT:  ATOMG.E.CAS.STRONG.GPU
// SASS-NEXT:  CCTL.IVALL ;
// SASS-NOT:   {{MEMBAR|STRONG|STG}}
// SASS:       LDG.E R{{[0-9]+}}, desc
// SASS-NOT:   {{MEMBAR|STRONG|ATOMG}}
// SASS:       STG.E.64 desc
// SASS-NOT:   {{LDG|STG|ATOMG}}
// SASS:       MEMBAR.ALL.GPU ;
// SASS-NEXT:  ERRBAR ;
// SASS-NEXT:  CGAERRBAR ;
// SASS-NEXT:  STG.E.STRONG.GPU desc[UR{{[0-9]+}}][R{{[0-9]+}}.64], RZ ;
// SASS-NOT:   {{MEMBAR|ATOMG}}
// SASS:       EXIT ;
