// R9 for the inter-block primitives where ptxas has no clusters (sm_80): last_block and the work
// queue compile there (their atom and fence forms are sm_70's), last_cluster fails with exactly one
// error, ptxw's R9, and no error from the cluster registers it would read.
// UNSUPPORTED: mbarrier-tx
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_LAST_CLUSTER %s 2>&1 | FileCheck %s --check-prefix=LAST_CLUSTER

#include <ptxw/inter_block.h>

__global__ void inter_block_below_sm90(long long* out, ptxw::last_block_ticket<> ticket,
                                       ptxw::last_block_ticket<unsigned long long> wide, ptxw::work_queue<unsigned> q)
{
  if (ptxw::last_block(ticket) && ptxw::last_block(wide))
  {
    out[0] = 1;
  }
  ptxw::for_each_item<4>(q, [&](unsigned i) { out[i] += 1; });
  __shared__ ptxw::queue_slot slot;
  auto c = ptxw::open_queue<2>(slot, q);
  while (auto it = c.fetch())
  {
    out[*it] += 2;
  }
#if defined(CASE_LAST_CLUSTER)
  // LAST_CLUSTER: error: static assertion failed with "ptxw: R9 target: last_cluster needs clusters: sm_90 or newer"
  // LAST_CLUSTER: at line [[#@LINE+2]] of
  // LAST_CLUSTER: 1 error detected in the compilation of
  if (ptxw::last_cluster(ticket))
  {
    out[1] = 1;
  }
#endif
}
