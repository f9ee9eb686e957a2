// R12: a cluster-scope or remote operation needs a barrier declared ptxw::cluster_barrier; a
// ptxw::cta_barrier's init is not published to the cluster.
// REQUIRES: mbarrier-tx, family-representative
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE_CLUSTER -DCASE_TRY_WAIT_CLUSTER -DCASE_TEST_WAIT_CLUSTER \
// RUN:  -DCASE_EXPECT_TX_CLUSTER -DCASE_ARRIVE_EXPECT_TX_CLUSTER -DCASE_COMPLETE_TX_CLUSTER \
// RUN:  -DCASE_WAIT_HINT_CLUSTER -DCASE_REMOTE_CTA_BARRIER -DCASE_GPU_BARRIER %s 2>&1 \
// RUN:   | FileCheck %s \
// RUN:  --check-prefixes=ARRIVE_CLUSTER,TRY_WAIT_CLUSTER,TEST_WAIT_CLUSTER,EXPECT_TX_CLUSTER \
// RUN:  --check-prefixes=ARRIVE_EXPECT_TX_CLUSTER,COMPLETE_TX_CLUSTER,WAIT_HINT_CLUSTER \
// RUN:  --check-prefixes=REMOTE_CTA_BARRIER,GPU_BARRIER,FIRST
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE_COUNT_CLUSTER -DCASE_TRY_WAIT_HINT_CLUSTER %s 2>&1 \
// RUN:   | FileCheck %s \
// RUN:  --check-prefixes=ARRIVE_COUNT_CLUSTER,TRY_WAIT_HINT_CLUSTER,SECOND
// RUN: not %nvcc -ptx -o /dev/null -DCASE_WAIT_CLUSTER %s 2>&1 \
// RUN:   | FileCheck %s \
// RUN:  --check-prefixes=WAIT_CLUSTER,THIRD
//
// Three compiles, each of cases that share no instantiation (nvcc reports a shared one's error once):
// each case of a later compile instantiates what a case of an earlier one does. Each case is one
// error, the ptxw one, at the line below it (-DAG checks: nvcc reports instantiation errors out of
// source order), and each compile's total is its number of cases (the last lines). Without a
// CASE the file compiles: the same calls on a ptxw::cluster_barrier are accepted.

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

__global__ void r12_barrier_scope()
{
  __shared__ ptxw::cta_barrier bar;
  __shared__ ptxw::cluster_barrier cbar;
  ptxw::phase ph;

  // The same operations on a cluster barrier, and at .cta scope on a CTA barrier.
  bar.init(ptxw::arrivals{1});
  cbar.init(ptxw::arrivals{1});
  bar.arrive(ptx::sem_release, ptx::scope_cta);
  cbar.arrive(ptx::sem_release, ptx::scope_cluster);
  cbar.expect_tx(ptx::sem_relaxed, ptx::scope_cluster, ptxw::tx_bytes{16});
  (void) cbar.test_wait(ptx::sem_acquire, ptx::scope_cluster, ph);
  cbar.wait(ptx::sem_acquire, ptx::scope_cluster, ph);
  cbar.remote(ptxw::cta_rank{1}).arrive();
  cbar.arrive(ptx::sem_release, ptx::scope_cluster, ptxw::arrivals{1});
  cbar.arrive_expect_tx(ptx::sem_release, ptx::scope_cluster, ptxw::tx_bytes{16});
  cbar.complete_tx(ptx::sem_relaxed, ptx::scope_cluster, ptxw::tx_bytes{16});
  (void) cbar.try_wait(ptx::sem_acquire, ptx::scope_cluster, ph, ptxw::suspend_hint{1000});
  cbar.wait(ptx::sem_relaxed, ptx::scope_cluster, ph, ptxw::suspend_hint{1000});

#if defined(CASE_ARRIVE_CLUSTER)
  // ARRIVE_CLUSTER-DAG: error: static assertion failed with "ptxw: R12 barrier scope: a .cluster-scope operation needs a ptxw::cluster_barrier; this barrier is a ptxw::cta_barrier
  // ARRIVE_CLUSTER-DAG: at line [[#@LINE+1]] of
  bar.arrive(ptx::sem_release, ptx::scope_cluster);
#endif

#if defined(CASE_TRY_WAIT_CLUSTER)
  // TRY_WAIT_CLUSTER-DAG: error: static assertion failed with "ptxw: R12 barrier scope: a .cluster-scope operation needs a ptxw::cluster_barrier; this barrier is a ptxw::cta_barrier
  // TRY_WAIT_CLUSTER-DAG: at line [[#@LINE+1]] of
  (void) bar.try_wait(ptx::sem_acquire, ptx::scope_cluster, ph);
#endif

#if defined(CASE_TEST_WAIT_CLUSTER)
  // TEST_WAIT_CLUSTER-DAG: error: static assertion failed with "ptxw: R12 barrier scope: a .cluster-scope operation needs a ptxw::cluster_barrier; this barrier is a ptxw::cta_barrier
  // TEST_WAIT_CLUSTER-DAG: at line [[#@LINE+1]] of
  (void) bar.test_wait(ptx::sem_relaxed, ptx::scope_cluster, ph);
#endif

#if defined(CASE_EXPECT_TX_CLUSTER)
  // EXPECT_TX_CLUSTER-DAG: error: static assertion failed with "ptxw: R12 barrier scope: a .cluster-scope operation needs a ptxw::cluster_barrier; this barrier is a ptxw::cta_barrier
  // EXPECT_TX_CLUSTER-DAG: at line [[#@LINE+1]] of
  bar.expect_tx(ptx::sem_relaxed, ptx::scope_cluster, ptxw::tx_bytes{16});
#endif

#if defined(CASE_ARRIVE_COUNT_CLUSTER)
  // ARRIVE_COUNT_CLUSTER-DAG: error: static assertion failed with "ptxw: R12 barrier scope: a .cluster-scope operation needs a ptxw::cluster_barrier; this barrier is a ptxw::cta_barrier
  // ARRIVE_COUNT_CLUSTER-DAG: at line [[#@LINE+1]] of
  bar.arrive(ptx::sem_release, ptx::scope_cluster, ptxw::arrivals{1});
#endif

#if defined(CASE_ARRIVE_EXPECT_TX_CLUSTER)
  // ARRIVE_EXPECT_TX_CLUSTER-DAG: error: static assertion failed with "ptxw: R12 barrier scope: a .cluster-scope operation needs a ptxw::cluster_barrier; this barrier is a ptxw::cta_barrier
  // ARRIVE_EXPECT_TX_CLUSTER-DAG: at line [[#@LINE+1]] of
  bar.arrive_expect_tx(ptx::sem_release, ptx::scope_cluster, ptxw::tx_bytes{16});
#endif

#if defined(CASE_COMPLETE_TX_CLUSTER)
  // COMPLETE_TX_CLUSTER-DAG: error: static assertion failed with "ptxw: R12 barrier scope: a .cluster-scope operation needs a ptxw::cluster_barrier; this barrier is a ptxw::cta_barrier
  // COMPLETE_TX_CLUSTER-DAG: at line [[#@LINE+1]] of
  bar.complete_tx(ptx::sem_relaxed, ptx::scope_cluster, ptxw::tx_bytes{16});
#endif

#if defined(CASE_TRY_WAIT_HINT_CLUSTER)
  // TRY_WAIT_HINT_CLUSTER-DAG: error: static assertion failed with "ptxw: R12 barrier scope: a .cluster-scope operation needs a ptxw::cluster_barrier; this barrier is a ptxw::cta_barrier
  // TRY_WAIT_HINT_CLUSTER-DAG: at line [[#@LINE+1]] of
  (void) bar.try_wait(ptx::sem_acquire, ptx::scope_cluster, ph, ptxw::suspend_hint{1000});
#endif

#if defined(CASE_WAIT_CLUSTER)
  // WAIT_CLUSTER-DAG: error: static assertion failed with "ptxw: R12 barrier scope: a .cluster-scope operation needs a ptxw::cluster_barrier; this barrier is a ptxw::cta_barrier
  // WAIT_CLUSTER-DAG: at line [[#@LINE+1]] of
  bar.wait(ptx::sem_acquire, ptx::scope_cluster, ph);
#endif

#if defined(CASE_WAIT_HINT_CLUSTER)
  // WAIT_HINT_CLUSTER-DAG: error: static assertion failed with "ptxw: R12 barrier scope: a .cluster-scope operation needs a ptxw::cluster_barrier; this barrier is a ptxw::cta_barrier
  // WAIT_HINT_CLUSTER-DAG: at line [[#@LINE+1]] of
  bar.wait(ptx::sem_relaxed, ptx::scope_cluster, ph, ptxw::suspend_hint{1000});
#endif

#if defined(CASE_REMOTE_CTA_BARRIER)
  // REMOTE_CTA_BARRIER-DAG: error: static assertion failed with "ptxw: R12 barrier scope: remote operations target a ptxw::cluster_barrier; this barrier is a ptxw::cta_barrier
  // REMOTE_CTA_BARRIER-DAG: at line [[#@LINE+1]] of
  bar.remote(ptxw::cta_rank{1}).arrive();
#endif

#if defined(CASE_GPU_BARRIER)
  // GPU_BARRIER-DAG: error: static assertion failed with "ptxw: R12 barrier scope: an mbarrier is declared for ptx::scope_cta (ptxw::cta_barrier) or ptx::scope_cluster (ptxw::cluster_barrier)
  // GPU_BARRIER-DAG: at line [[#@LINE+1]] of
  __shared__ ptxw::mbarrier<ptx::scope_gpu_t> gbar;
  (void) gbar.smem_addr(); // used: no unused-variable warning (%nvcc makes warnings errors)
#endif
}

// FIRST: 9 errors detected in the compilation of
// SECOND: 2 errors detected in the compilation of
// THIRD: 1 error detected in the compilation of
