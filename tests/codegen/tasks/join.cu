// A task's arrival at a join (owner_end::last_at, tasks/join.h) -- last_block's order at task
// scope: the block's barrier (every thread's part), the leader's atom.release.gpu on the count, in
// the block whose arrival was the n-th fence.acq_rel.gpu (the acquire), then bar.red.or to tell
// the block. n is read from the join (ld, no atomic); the count is never set back (open() does).
// REQUIRES: target-sm_90a || target-sm_100a
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass

#include <ptxw/tasks.h>

extern "C" __global__ void ptxw_join_last_at(ptxw::tasks::join_point* j, unsigned* part, unsigned* out)
{
  const ptxw::tasks::join_point* joined = nullptr;
  if (threadIdx.x == 0)
  {
    part[blockIdx.x] = blockIdx.x;
  }
  if (ptxw::detail::tasks::last_at(*j, true, joined, nullptr, nullptr) && threadIdx.x == 0)
  {
    *out = part[0];
  }
}

// PTX-LABEL: .entry ptxw_join_last_at(
// PTX:       st.global.u32
// PTX-NOT:   {{atom|fence|membar|bar\.}}
// PTX:       bar.sync 0;
// PTX-NOT:   {{atom|fence|membar|st.global|bar\.}}
// PTX-DAG:   ld.global.u32 %r{{[0-9]+}}, [%rd{{[0-9]+}}+4];
// PTX-DAG:   atom.release.gpu.global.add.u32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// PTX-NOT:   {{atom|membar|bar\.|st.global}}
// PTX:       fence.acq_rel.gpu;
// PTX-NOT:   {{atom|fence|membar|bar\.|st.global}}
// PTX:       bar.red.or.pred
// PTX-NOT:   {{atom|fence|membar|bar\.}}
// PTX:       st.global.u32
// PTX-NOT:   {{atom|fence|membar|bar\.}}
// PTX:       ret;

// In the SASS, MEMBAR.ALL.GPU (the release; never MEMBAR.SC) right before the one ATOMG, MEMBAR.ALL.GPU +
// CCTL.IVALL (the acquire) in the last block, no store into the join.
// SASS-LABEL: Function : ptxw_join_last_at
// SASS-NOT:   {{MEMBAR|ATOMG|CCTL}}
// SASS:       BAR.SYNC.DEFER_BLOCKING 0x0 ;
// SASS-NOT:   {{MEMBAR|ATOMG|CCTL|BAR.RED}}
// SASS:       {{(@P[0-9] )?}}MEMBAR.ALL.GPU ;
// SASS-NEXT:  {{(@P[0-9] )?}}ERRBAR ;
// SASS-NEXT:  {{(@P[0-9] )?}}CGAERRBAR ;
// SASS-NEXT:  {{(@P[0-9] )?}}ATOMG.E.ADD.STRONG.GPU PT, R{{[0-9]+}}, desc[UR{{[0-9]+}}][R{{[0-9]+}}.64], R{{[0-9]+}} ;
// SASS-NOT:   {{ATOMG|BAR|CCTL|STG}}
// SASS:       MEMBAR.ALL.GPU ;
// SASS-NEXT:  ERRBAR ;
// SASS-NEXT:  CGAERRBAR ;
// SASS-NEXT:  CCTL.IVALL ;
// SASS-NOT:   {{MEMBAR|ATOMG|CCTL|STG}}
// SASS:       BAR.RED.OR.DEFER_BLOCKING 0x0, P{{[0-9]}} ;
// SASS-NOT:   {{MEMBAR|ATOMG|CCTL|BAR.RED}}
// SASS:       EXIT
