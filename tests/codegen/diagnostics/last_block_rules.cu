// R17, R18 for ptxw/inter_block.h: a ticket exists only as the view of an initialised
// last_block_ticket_host (a default-made one does not compile), and counts with atom.add.u32 or
// .u64 (a signed or narrower count type does not compile). One target: the gates are the types'.
// REQUIRES: target-sm_90a
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_DEFAULT_TICKET -DCASE_SIGNED_COUNT -DCASE_NARROW_COUNT %s 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=DEFAULT_TICKET,SIGNED_COUNT,NARROW_COUNT,CASES
// The cases compile together, once: each is one error at its line (-DAG checks: nvcc reports
// template instantiation errors at the end of the translation unit, out of source order), and
// the total is the number of cases (the last line).
//
// Without a CASE the file compiles: both count types, the block and the cluster form.

#include <ptxw/inter_block.h>

__global__ void last_block_rules(long long* out, ptxw::last_block_ticket<> t32,
                                 ptxw::last_block_ticket<unsigned long long> t64)
{
  if (ptxw::last_block(t32) && ptxw::last_cluster(t64))
  {
    *out = 1;
  }

#if defined(CASE_DEFAULT_TICKET)
  // DEFAULT_TICKET-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R17 initialised: a last_block_ticket comes only from last_block_ticket_host::view()
  // DEFAULT_TICKET-DAG: at line [[#@LINE+1]] of
  ptxw::last_block_ticket<> uninitialised;
  (void) ptxw::last_block(uninitialised);
#endif

#if defined(CASE_SIGNED_COUNT)
  // SIGNED_COUNT-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R18 in range: a ticket counts with atom.add.u32 or .u64
  // SIGNED_COUNT-DAG: at line [[#@LINE+1]] of
  (void) ptxw::last_block(*reinterpret_cast<const ptxw::last_block_ticket<int>*>(out));
#endif

#if defined(CASE_NARROW_COUNT)
  // NARROW_COUNT-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R18 in range: a ticket counts with atom.add.u32 or .u64
  // NARROW_COUNT-DAG: at line [[#@LINE+1]] of
  (void) ptxw::last_block(*reinterpret_cast<const ptxw::last_block_ticket<unsigned short>*>(out));
#endif
}

// CASES: 3 errors detected in the compilation of
