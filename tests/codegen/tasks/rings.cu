// The shared queues' publication order (R25), per operation, in the PTX and the SASS --
//   ticket_ring push: the entry's store, then st.release of the slot's sequence -- MEMBAR.ALL.GPU
//         between the STG of the entry and the STG of the sequence; take: ld.acquire of the
//         sequence (LDG + CCTL.IVALL) before the entry's load, st.release of the sequence after it;
//         after a take that found none, a plain load of the count (at +0x800, 1 KiB from the
//         others) finds it empty before any atomic;
//   nil_slots push: atom.acq_rel.cas NIL -> WRITING, the entry, st.release TASK; take: the CAS
//         TASK -> READING before the entry's load, st.release NIL of the next lap after it;
//   locked_queue push and take: the lock taken with atom.acq_rel.cas 0 -> 1 (MEMBAR.ALL.GPU before
//         the ATOMG.CAS, CCTL.IVALL after), on the try and on the retry after the sleep; the ends
//         and the entry plain accesses inside it, ordered by the lock; the lock given back with
//         st.release 0 (MEMBAR.ALL.GPU + STG.STRONG of RZ) after the last of them.
// REQUIRES: target-sm_90a || target-sm_100a
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass

#include <ptxw/tasks.h>

using ring   = ptxw::tasks::lockfree_queue<ptxw::tasks::ticket_ring>;
using nil    = ptxw::tasks::lockfree_queue<ptxw::tasks::nil_slots>;
using locked = ptxw::tasks::locked_queue;

template <class Method>
__device__ void push_one(const ptxw::tasks::pool<unsigned, Method>& p, unsigned child, unsigned* out)
{
  using backend = ptxw::detail::tasks::backend<unsigned, Method>;
  *out          = backend::push(p, {}, 0, child);
}

template <class Method>
__device__ void take_one(const ptxw::tasks::pool<unsigned, Method>& p, unsigned* out, bool polling = false)
{
  using backend = ptxw::detail::tasks::backend<unsigned, Method>;
  typename backend::local l{};
  l.polling = polling;
  ptxw::detail::tasks::entry<unsigned> e;
  ptxw::tasks::counters c{};
  if (backend::take(p, l, e, c) == ptxw::detail::tasks::taken::got)
  {
    *out = e.value;
  }
}

extern "C" __global__ void ptxw_ring_push(ptxw::tasks::pool<unsigned, ring> p, unsigned child, unsigned* out)
{
  push_one(p, child, out);
}
extern "C" __global__ void ptxw_ring_take(ptxw::tasks::pool<unsigned, ring> p, unsigned* out, bool polling)
{
  take_one(p, out, polling);
}
extern "C" __global__ void ptxw_nil_push(ptxw::tasks::pool<unsigned, nil> p, unsigned child, unsigned* out)
{
  push_one(p, child, out);
}
extern "C" __global__ void ptxw_nil_take(ptxw::tasks::pool<unsigned, nil> p, unsigned* out)
{
  take_one(p, out);
}
extern "C" __global__ void ptxw_locked_push(ptxw::tasks::pool<unsigned, locked> p, unsigned child, unsigned* out)
{
  push_one(p, child, out);
}
extern "C" __global__ void ptxw_locked_take(ptxw::tasks::pool<unsigned, locked> p, unsigned* out)
{
  take_one(p, out);
}

// PTX-LABEL: .entry ptxw_ring_push(
// PTX:       ld.acquire.gpu.global.b64
// PTX:       st.global.u32
// PTX-NOT:   {{ld\.|atom}}
// PTX:       st.release.gpu.global.b64
// PTX-LABEL: .entry ptxw_ring_take(
// PTX:       ld.acquire.gpu.global.b64
// PTX-NOT:   st.
// PTX:       ld.global.u32
// PTX-NOT:   {{ld\.|atom}}
// PTX:       st.release.gpu.global.b64
// PTX-LABEL: .entry ptxw_nil_push(
// PTX:       atom.acq_rel.gpu.global.cas.b32
// PTX:       st.global.u32
// PTX-NOT:   {{ld\.|atom}}
// PTX:       st.release.gpu.global.b32
// PTX-LABEL: .entry ptxw_nil_take(
// PTX:       atom.acq_rel.gpu.global.cas.b32
// PTX-NOT:   st.
// PTX:       ld.global.u32
// PTX-NOT:   {{ld\.|atom}}
// PTX:       st.release.gpu.global.b32
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

// SASS-LABEL: Function : ptxw_ring_push
// SASS:       STG.E desc
// SASS-NOT:   {{STG|ATOMG|RED}}
// SASS:       MEMBAR.ALL.GPU ;
// SASS-NOT:   {{LDG|ATOMG}}
// SASS:       STG.E.64.STRONG.GPU
// SASS-LABEL: Function : ptxw_ring_take
// SASS:       LDG.E.64.STRONG.GPU R{{[0-9]+}}, desc[UR{{[0-9]+}}][R{{[0-9]+}}.64+0x800] ;
// SASS-NOT:   CCTL
// SASS:       ATOMG.E.ADD.64.STRONG.GPU
// SASS:       ATOMG.E.ADD.64.STRONG.GPU
// SASS:       LDG.E.64.STRONG.GPU
// SASS-NEXT:  CCTL.IVALL ;
// SASS:       LDG.E R{{[0-9]+}}, desc
// SASS-NOT:   STG
// SASS:       MEMBAR.ALL.GPU ;
// SASS-NOT:   {{LDG|ATOMG}}
// SASS:       STG.E.64.STRONG.GPU
// SASS-LABEL: Function : ptxw_nil_push
// SASS:       ATOMG.E.CAS.STRONG.GPU
// SASS-NEXT:  CCTL.IVALL ;
// SASS:       STG.E desc
// SASS-NOT:   {{STG|ATOMG}}
// SASS:       MEMBAR.ALL.GPU ;
// SASS-NOT:   {{LDG|ATOMG}}
// SASS:       STG.E.STRONG.GPU
// SASS-LABEL: Function : ptxw_nil_take
// SASS:       ATOMG.E.CAS.STRONG.GPU
// SASS-NEXT:  CCTL.IVALL ;
// SASS:       LDG.E R{{[0-9]+}}, desc
// SASS-NOT:   STG
// SASS:       MEMBAR.ALL.GPU ;
// SASS-NOT:   {{LDG|ATOMG}}
// SASS:       STG.E.STRONG.GPU

// The lock's try, then its retry after a sleep (between them the one load of the wait's bound, the
// attached sink's timeout at +0x18, R24); the entry and the end inside; the release last.
// SASS-LABEL: Function : ptxw_locked_push
// SASS-NOT:   {{LDG|STG}}
// SASS:       MEMBAR.ALL.GPU ;
// SASS-NEXT:  ERRBAR ;
// SASS-NEXT:  CGAERRBAR ;
// SASS-NEXT:  ATOMG.E.CAS.STRONG.GPU
// SASS-NEXT:  CCTL.IVALL ;
// SASS-NOT:   {{LDG|STG}}
// SASS:       LDG.E.64 R{{[0-9]+}}, desc[UR{{[0-9]+}}][R{{[0-9]+}}.64+0x18] ;
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
// SASS:       LDG.E.64 R{{[0-9]+}}, desc[UR{{[0-9]+}}][R{{[0-9]+}}.64+0x18] ;
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
