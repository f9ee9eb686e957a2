// R10: only the sem/scope/space combinations the PTX ISA defines for an instruction compile.
// REQUIRES: mbarrier-tx, fence-sync-restrict, family-representative
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_EXPECT_TX_RELEASE -DCASE_TRY_WAIT_RELEASE -DCASE_ARRIVE_ACQUIRE \
// RUN:  -DCASE_ARRIVE_GPU -DCASE_REMOTE_ARRIVE_CTA -DCASE_ARRIVE_COUNT_FIRST -DCASE_ARRIVE_EXPECT_TX_ACQUIRE \
// RUN:  -DCASE_COMPLETE_TX_RELEASE -DCASE_TEST_WAIT_RELEASE -DCASE_TRY_WAIT_HINT_GPU \
// RUN:  -DCASE_REMOTE_ARRIVE_ACQUIRE -DCASE_GENERIC_ACQUIRE_SHARED -DCASE_GENERIC_RELEASE_CLUSTER \
// RUN:  -DCASE_GENERIC_SCOPE_CTA -DCASE_MBARRIER_INIT_ACQUIRE -DCASE_PROXY_ASYNC_SPACE %s 2>&1 \
// RUN:   | FileCheck %s \
// RUN:  --check-prefixes=EXPECT_TX_RELEASE,TRY_WAIT_RELEASE,ARRIVE_ACQUIRE,ARRIVE_GPU,REMOTE_ARRIVE_CTA \
// RUN:  --check-prefixes=ARRIVE_COUNT_FIRST,ARRIVE_EXPECT_TX_ACQUIRE,COMPLETE_TX_RELEASE \
// RUN:  --check-prefixes=TEST_WAIT_RELEASE,TRY_WAIT_HINT_GPU,REMOTE_ARRIVE_ACQUIRE \
// RUN:  --check-prefixes=GENERIC_ACQUIRE_SHARED,GENERIC_RELEASE_CLUSTER,GENERIC_SCOPE_CTA \
// RUN:  --check-prefixes=MBARRIER_INIT_ACQUIRE,PROXY_ASYNC_SPACE,FIRST
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE_COUNT_ACQUIRE -DCASE_REMOTE_ARRIVE_COUNT_ACQUIRE \
// RUN:  -DCASE_WAIT_RELEASE %s 2>&1 \
// RUN:   | FileCheck %s \
// RUN:  --check-prefixes=ARRIVE_COUNT_ACQUIRE,REMOTE_ARRIVE_COUNT_ACQUIRE,WAIT_RELEASE,SECOND
// RUN: not %nvcc -ptx -o /dev/null -DCASE_WAIT_HINT_RELEASE %s 2>&1 \
// RUN:   | FileCheck %s \
// RUN:  --check-prefixes=WAIT_HINT_RELEASE,THIRD
//
// Three compiles, each of cases that share no instantiation (nvcc reports a shared one's error once):
// each case of a later compile instantiates what a case of an earlier one does. Each case is one
// error, the ptxw one, at the line below it (-DAG checks: nvcc reports instantiation errors out of
// source order), and each compile's total is its number of cases (the last lines). Without a
// CASE the file compiles: the correct spellings of the same calls, in the same kernel, are accepted.

#include <ptxw/fence.h>
#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

__global__ void r10_qualifiers()
{
  __shared__ ptxw::cta_barrier bar;
  __shared__ ptxw::cluster_barrier cbar;
  ptxw::phase ph;

  // The legal forms of everything misused below.
  bar.init(ptxw::arrivals{1});
  bar.expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptxw::tx_bytes{16});
  bar.arrive(ptx::sem_release, ptx::scope_cta);
  bar.arrive(ptx::sem_relaxed, ptx::scope_cta);
  bar.wait(ptx::sem_acquire, ptx::scope_cta, ph);
  bar.arrive(ptx::sem_release, ptx::scope_cta, ptxw::arrivals{1});
  bar.arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptxw::tx_bytes{16});
  bar.complete_tx(ptx::sem_relaxed, ptx::scope_cta, ptxw::tx_bytes{16});
  (void) bar.test_wait(ptx::sem_acquire, ptx::scope_cta, ph);
  bar.wait(ptx::sem_relaxed, ptx::scope_cta, ph, ptxw::suspend_hint{1000});
  (void) bar.try_wait(ptx::sem_acquire, ptx::scope_cta, ph, ptxw::suspend_hint{1000});
  cbar.remote(ptxw::cta_rank{1}).arrive(ptx::sem_release, ptx::scope_cluster);
  cbar.remote(ptxw::cta_rank{1}).arrive(ptx::sem_relaxed, ptx::scope_cluster, ptxw::arrivals{1});
  ptxw::fence_proxy_async_generic(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);
  ptxw::fence_proxy_async_generic(ptx::sem_release, ptx::space_shared, ptx::scope_cluster);
  ptxw::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  ptxw::fence_proxy_async(ptx::space_cluster);

#if defined(CASE_EXPECT_TX_RELEASE)
  // EXPECT_TX_RELEASE-DAG: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // EXPECT_TX_RELEASE-DAG: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_expect_tx, Sem={{[a-z_:0-9]*}}::sem_release_t, Scope={{[a-z_:0-9]*}}::scope_cta_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // EXPECT_TX_RELEASE-DAG: at line [[#@LINE+1]] of
  bar.expect_tx(ptx::sem_release, ptx::scope_cta, ptxw::tx_bytes{16});
#endif

#if defined(CASE_TRY_WAIT_RELEASE)
  // TRY_WAIT_RELEASE-DAG: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // TRY_WAIT_RELEASE-DAG: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_try_wait, Sem={{[a-z_:0-9]*}}::sem_release_t, Scope={{[a-z_:0-9]*}}::scope_cta_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // TRY_WAIT_RELEASE-DAG: at line [[#@LINE+1]] of
  (void) bar.try_wait(ptx::sem_release, ptx::scope_cta, ph);
#endif

#if defined(CASE_ARRIVE_ACQUIRE)
  // ARRIVE_ACQUIRE-DAG: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // ARRIVE_ACQUIRE-DAG: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive, Sem={{[a-z_:0-9]*}}::sem_acquire_t, Scope={{[a-z_:0-9]*}}::scope_cta_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // ARRIVE_ACQUIRE-DAG: at line [[#@LINE+1]] of
  bar.arrive(ptx::sem_acquire, ptx::scope_cta);
#endif

#if defined(CASE_ARRIVE_GPU)
  // ARRIVE_GPU-DAG: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // ARRIVE_GPU-DAG: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive, Sem={{[a-z_:0-9]*}}::sem_release_t, Scope={{[a-z_:0-9]*}}::scope_gpu_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // ARRIVE_GPU-DAG: at line [[#@LINE+1]] of
  bar.arrive(ptx::sem_release, ptx::scope_gpu);
#endif

#if defined(CASE_REMOTE_ARRIVE_CTA)
  // REMOTE_ARRIVE_CTA-DAG: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // REMOTE_ARRIVE_CTA-DAG: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive_remote, Sem={{[a-z_:0-9]*}}::sem_release_t, Scope={{[a-z_:0-9]*}}::scope_cta_t, Space={{[a-z_:0-9]*}}::space_cluster_t]
  // REMOTE_ARRIVE_CTA-DAG: at line [[#@LINE+1]] of
  cbar.remote(ptxw::cta_rank{1}).arrive(ptx::sem_release, ptx::scope_cta);
#endif

#if defined(CASE_ARRIVE_COUNT_ACQUIRE)
  // ARRIVE_COUNT_ACQUIRE-DAG: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // ARRIVE_COUNT_ACQUIRE-DAG: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive, Sem={{[a-z_:0-9]*}}::sem_acquire_t, Scope={{[a-z_:0-9]*}}::scope_cta_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // ARRIVE_COUNT_ACQUIRE-DAG: at line [[#@LINE+1]] of
  bar.arrive(ptx::sem_acquire, ptx::scope_cta, ptxw::arrivals{1});
#endif

#if defined(CASE_ARRIVE_COUNT_FIRST)
  // ARRIVE_COUNT_FIRST-DAG: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // ARRIVE_COUNT_FIRST-DAG: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive, Sem={{[a-z_:0-9]*}}::arrivals, Scope={{[a-z_:0-9]*}}::sem_release_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // ARRIVE_COUNT_FIRST-DAG: at line [[#@LINE+1]] of
  bar.arrive(ptxw::arrivals{1}, ptx::sem_release, ptx::scope_cta);
#endif

#if defined(CASE_ARRIVE_EXPECT_TX_ACQUIRE)
  // ARRIVE_EXPECT_TX_ACQUIRE-DAG: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // ARRIVE_EXPECT_TX_ACQUIRE-DAG: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive_expect_tx, Sem={{[a-z_:0-9]*}}::sem_acquire_t, Scope={{[a-z_:0-9]*}}::scope_cta_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // ARRIVE_EXPECT_TX_ACQUIRE-DAG: at line [[#@LINE+1]] of
  bar.arrive_expect_tx(ptx::sem_acquire, ptx::scope_cta, ptxw::tx_bytes{16});
#endif

#if defined(CASE_COMPLETE_TX_RELEASE)
  // COMPLETE_TX_RELEASE-DAG: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // COMPLETE_TX_RELEASE-DAG: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_complete_tx, Sem={{[a-z_:0-9]*}}::sem_release_t, Scope={{[a-z_:0-9]*}}::scope_cta_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // COMPLETE_TX_RELEASE-DAG: at line [[#@LINE+1]] of
  bar.complete_tx(ptx::sem_release, ptx::scope_cta, ptxw::tx_bytes{16});
#endif

#if defined(CASE_TEST_WAIT_RELEASE)
  // TEST_WAIT_RELEASE-DAG: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // TEST_WAIT_RELEASE-DAG: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_test_wait, Sem={{[a-z_:0-9]*}}::sem_release_t, Scope={{[a-z_:0-9]*}}::scope_cta_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // TEST_WAIT_RELEASE-DAG: at line [[#@LINE+1]] of
  (void) bar.test_wait(ptx::sem_release, ptx::scope_cta, ph);
#endif

#if defined(CASE_WAIT_RELEASE)
  // WAIT_RELEASE-DAG: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // WAIT_RELEASE-DAG: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_try_wait, Sem={{[a-z_:0-9]*}}::sem_release_t, Scope={{[a-z_:0-9]*}}::scope_cta_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // WAIT_RELEASE-DAG: at line [[#@LINE+1]] of
  bar.wait(ptx::sem_release, ptx::scope_cta, ph);
#endif

#if defined(CASE_WAIT_HINT_RELEASE)
  // WAIT_HINT_RELEASE-DAG: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // WAIT_HINT_RELEASE-DAG: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_try_wait, Sem={{[a-z_:0-9]*}}::sem_release_t, Scope={{[a-z_:0-9]*}}::scope_cta_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // WAIT_HINT_RELEASE-DAG: at line [[#@LINE+1]] of
  bar.wait(ptx::sem_release, ptx::scope_cta, ph, ptxw::suspend_hint{1000});
#endif

#if defined(CASE_TRY_WAIT_HINT_GPU)
  // TRY_WAIT_HINT_GPU-DAG: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // TRY_WAIT_HINT_GPU-DAG: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_try_wait, Sem={{[a-z_:0-9]*}}::sem_acquire_t, Scope={{[a-z_:0-9]*}}::scope_gpu_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // TRY_WAIT_HINT_GPU-DAG: at line [[#@LINE+1]] of
  (void) bar.try_wait(ptx::sem_acquire, ptx::scope_gpu, ph, ptxw::suspend_hint{1000});
#endif

#if defined(CASE_REMOTE_ARRIVE_ACQUIRE)
  // REMOTE_ARRIVE_ACQUIRE-DAG: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // REMOTE_ARRIVE_ACQUIRE-DAG: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive_remote, Sem={{[a-z_:0-9]*}}::sem_acquire_t, Scope={{[a-z_:0-9]*}}::scope_cluster_t, Space={{[a-z_:0-9]*}}::space_cluster_t]
  // REMOTE_ARRIVE_ACQUIRE-DAG: at line [[#@LINE+1]] of
  cbar.remote(ptxw::cta_rank{1}).arrive(ptx::sem_acquire, ptx::scope_cluster);
#endif

#if defined(CASE_REMOTE_ARRIVE_COUNT_ACQUIRE)
  // REMOTE_ARRIVE_COUNT_ACQUIRE-DAG: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // REMOTE_ARRIVE_COUNT_ACQUIRE-DAG: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive_remote, Sem={{[a-z_:0-9]*}}::sem_acquire_t, Scope={{[a-z_:0-9]*}}::scope_cluster_t, Space={{[a-z_:0-9]*}}::space_cluster_t]
  // REMOTE_ARRIVE_COUNT_ACQUIRE-DAG: at line [[#@LINE+1]] of
  cbar.remote(ptxw::cta_rank{1}).arrive(ptx::sem_acquire, ptx::scope_cluster, ptxw::arrivals{1});
#endif

#if defined(CASE_GENERIC_ACQUIRE_SHARED)
  // GENERIC_ACQUIRE_SHARED-DAG: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // GENERIC_ACQUIRE_SHARED-DAG: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::fence_proxy_async_generic, Sem={{[a-z_:0-9]*}}::sem_acquire_t, Scope={{[a-z_:0-9]*}}::scope_cluster_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // GENERIC_ACQUIRE_SHARED-DAG: at line [[#@LINE+1]] of
  ptxw::fence_proxy_async_generic(ptx::sem_acquire, ptx::space_shared, ptx::scope_cluster);
#endif

#if defined(CASE_GENERIC_RELEASE_CLUSTER)
  // GENERIC_RELEASE_CLUSTER-DAG: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // GENERIC_RELEASE_CLUSTER-DAG: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::fence_proxy_async_generic, Sem={{[a-z_:0-9]*}}::sem_release_t, Scope={{[a-z_:0-9]*}}::scope_cluster_t, Space={{[a-z_:0-9]*}}::space_cluster_t]
  // GENERIC_RELEASE_CLUSTER-DAG: at line [[#@LINE+1]] of
  ptxw::fence_proxy_async_generic(ptx::sem_release, ptx::space_cluster, ptx::scope_cluster);
#endif

#if defined(CASE_GENERIC_SCOPE_CTA)
  // GENERIC_SCOPE_CTA-DAG: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // GENERIC_SCOPE_CTA-DAG: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::fence_proxy_async_generic, Sem={{[a-z_:0-9]*}}::sem_release_t, Scope={{[a-z_:0-9]*}}::scope_cta_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // GENERIC_SCOPE_CTA-DAG: at line [[#@LINE+1]] of
  ptxw::fence_proxy_async_generic(ptx::sem_release, ptx::space_shared, ptx::scope_cta);
#endif

#if defined(CASE_MBARRIER_INIT_ACQUIRE)
  // MBARRIER_INIT_ACQUIRE-DAG: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // MBARRIER_INIT_ACQUIRE-DAG: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::fence_mbarrier_init, Sem={{[a-z_:0-9]*}}::sem_acquire_t, Scope={{[a-z_:0-9]*}}::scope_cluster_t, Space={{[a-z_:0-9]*}}::none_t]
  // MBARRIER_INIT_ACQUIRE-DAG: at line [[#@LINE+1]] of
  ptxw::fence_mbarrier_init(ptx::sem_acquire, ptx::scope_cluster);
#endif

#if defined(CASE_PROXY_ASYNC_SPACE)
  // PROXY_ASYNC_SPACE-DAG: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // PROXY_ASYNC_SPACE-DAG: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::fence_proxy_async, Sem={{[a-z_:0-9]*}}::none_t, Scope={{[a-z_:0-9]*}}::none_t, Space={{[a-z_:0-9]*}}::scope_cluster_t]
  // PROXY_ASYNC_SPACE-DAG: at line [[#@LINE+1]] of
  ptxw::fence_before_async_read(ptx::scope_cluster);
#endif
}

// FIRST: 16 errors detected in the compilation of
// SECOND: 3 errors detected in the compilation of
// THIRD: 1 error detected in the compilation of
