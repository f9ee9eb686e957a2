// The static list's publication order (R25), per operation, in the PTX and the SASS --
//   push: the size's atom.add (relaxed) before the entry's plain store, and no fence: a round's
//         pushes are published by the round's end, not one by one;
//   arrive (static_list, the grid barrier): atom.acq_rel.gpu.add of the arrivals (MEMBAR.ALL.GPU
//         before the ATOMG, CCTL.IVALL after); the last arrival ends the round with plain stores,
//         then st.release of the generation (MEMBAR.ALL.GPU + STG.STRONG); the others wait with
//         ld.acquire of it (LDG.STRONG + CCTL.IVALL);
//   take: ld.relaxed of the round's size, atom.add on the cursor, the entry's load after it;
//   advance (static_list_graph): plain accesses (the kernel boundaries order the rounds), then the
//         graph's condition set.
// REQUIRES: target-sm_90a || target-sm_100a
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass

#include <ptxw/tasks.h>

using list       = ptxw::tasks::static_list;
using list_graph = ptxw::tasks::static_list_graph;
using backend    = ptxw::detail::tasks::backend<unsigned, list>;

extern "C" __global__ void ptxw_list_push(ptxw::tasks::pool<unsigned, list> p, unsigned child, unsigned* out)
{
  *out = backend::push(p, backend::room{1}, 0, child);
}

extern "C" __global__ void ptxw_list_arrive(ptxw::tasks::pool<unsigned, list> p, unsigned round, unsigned* out)
{
  *out = ptxw::detail::tasks::static_list_rounds<ptxw::tasks::pool<unsigned, list>>::arrive(p, round);
}

extern "C" __global__ void ptxw_list_take(ptxw::tasks::pool<unsigned, list_graph> p, unsigned* out)
{
  using graph_backend = ptxw::detail::tasks::backend<unsigned, list_graph>;
  typename graph_backend::local l{};
  graph_backend::begin(p, l);
  ptxw::detail::tasks::entry<unsigned> e;
  ptxw::tasks::counters c{};
  if (graph_backend::take(p, l, e, c) == ptxw::detail::tasks::taken::got)
  {
    *out = e.value;
  }
}

extern "C" __global__ void ptxw_list_advance(ptxw::tasks::pool<unsigned, list_graph> p, cudaGraphConditionalHandle h)
{
  ptxw::detail::tasks::static_list_rounds<ptxw::tasks::pool<unsigned, list_graph>>::advance(p, h);
}

// PTX-LABEL: .entry ptxw_list_push(
// PTX-NOT:   {{fence|membar|\.release|\.acquire|\.acq_rel|st\.global}}
// PTX:       atom.global.add.u64
// PTX-NOT:   {{fence|membar|\.release|\.acquire|\.acq_rel}}
// PTX:       st.global.u32
// PTX-NOT:   {{fence|membar|\.release|\.acquire|\.acq_rel}}
// PTX:       ret;
// PTX-LABEL: .entry ptxw_list_arrive(
// PTX-NOT:   {{fence|membar|st\.global|ld\.global}}
// PTX:       atom.acq_rel.gpu.global.add.u32
// PTX-NOT:   {{fence|membar|\.release|\.acquire}}
// PTX:       st.global.u32 [%rd{{[0-9]+}}+32], %r{{[0-9]+}};
// PTX-NOT:   {{fence|membar|\.acquire|atom}}
// PTX:       st.release.gpu.global.b32
// PTX-NOT:   {{atom|fence|membar|\.release}}
// PTX:       ld.acquire.gpu.global.b32
// PTX-NOT:   {{atom|fence|membar}}
// PTX-LABEL: .entry ptxw_list_take(
// PTX:       ld.relaxed.gpu.global.b64
// PTX-NOT:   {{fence|membar|\.release|\.acquire|st\.global}}
// PTX:       atom.global.add.u64
// PTX-NOT:   {{fence|membar|\.release|\.acquire|st\.global}}
// PTX:       ld.global.u32
// PTX-LABEL: .entry ptxw_list_advance(
// PTX-NOT:   {{fence|membar|\.release|\.acquire|\.acq_rel|atom}}
// PTX:       ld.global.u32 %r{{[0-9]+}}, [%rd{{[0-9]+}}+36];
// PTX-NOT:   {{fence|membar|\.release|\.acquire|\.acq_rel|atom}}
// PTX:       call.uni
// PTX-NEXT:  cudaGraphSetConditional,

// SASS-LABEL: Function : ptxw_list_push
// SASS-NOT:   {{MEMBAR|CCTL|STG}}
// SASS:       ATOMG.E.ADD.64.STRONG.GPU
// SASS-NOT:   {{MEMBAR|CCTL}}
// SASS:       STG.E desc
// SASS-NOT:   {{MEMBAR|CCTL}}
// SASS:       EXIT ;

// The arrival; then ptxas lays out the waiters' path (ld.acquire) and the last arrival's (the round's
// plain stores, then the release) in either order.
// SASS-LABEL: Function : ptxw_list_arrive
// SASS-NOT:   {{STG|LDG|ATOMG|CCTL}}
// SASS:       {{(@P[0-9] )?}}MEMBAR.ALL.GPU ;
// SASS-NEXT:  {{(@P[0-9] )?}}ERRBAR ;
// SASS-NEXT:  {{(@P[0-9] )?}}CGAERRBAR ;
// SASS-NEXT:  {{(@P[0-9] )?}}ATOMG.E.ADD.STRONG.GPU PT, R{{[0-9]+}}, desc[UR{{[0-9]+}}][R{{[0-9]+}}.64], R{{[0-9]+}} ;
// SASS-NEXT:  {{(@P[0-9] )?}}CCTL.IVALL ;
// SASS-SM9X:  LDG.E.STRONG.GPU R{{[0-9]+}}, desc[UR{{[0-9]+}}][R{{[0-9]+}}.64+0x24] ;
// SASS-SM9X-NEXT: CCTL.IVALL ;
// SASS-NOT:   {{MEMBAR|ATOMG}}
// SASS:       STG.E desc[UR{{[0-9]+}}][R{{[0-9]+}}.64+0x20], RZ ;
// SASS-NOT:   {{MEMBAR|ATOMG|STRONG}}
// SASS:       MEMBAR.ALL.GPU ;
// SASS-NEXT:  ERRBAR ;
// SASS-NEXT:  CGAERRBAR ;
// SASS-NEXT:  STG.E.STRONG.GPU desc[UR{{[0-9]+}}][R{{[0-9]+}}.64+0x24], R{{[0-9]+}} ;
// SASS-SM10X: LDG.E.STRONG.GPU R{{[0-9]+}}, desc[UR{{[0-9]+}}][R{{[0-9]+}}.64+0x24] ;
// SASS-SM10X-NEXT: CCTL.IVALL ;
// SASS-NOT:   {{MEMBAR|ATOMG}}
// SASS:       EXIT ;

// SASS-LABEL: Function : ptxw_list_take
// SASS-NOT:   {{MEMBAR|CCTL}}
// SASS:       LDG.E.64.STRONG.GPU
// SASS-NOT:   {{MEMBAR|CCTL}}
// SASS:       ATOMG.E.ADD.64.STRONG.GPU
// SASS-NOT:   {{MEMBAR|CCTL|STG}}
// SASS:       LDG.E R{{[0-9]+}}, desc
// SASS-NOT:   {{MEMBAR|CCTL}}
// SASS:       EXIT ;

// SASS-LABEL: Function : ptxw_list_advance
// SASS-NOT:   {{MEMBAR|CCTL|ATOMG|STRONG}}
// SASS:       CALL.ABS.NOINC
// SASS-NOT:   {{MEMBAR|CCTL|ATOMG|STRONG}}
// SASS:       EXIT ;
