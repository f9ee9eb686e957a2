// R10: only the sem/scope/space combinations the PTX ISA defines for an instruction compile.
// REQUIRES: mbarrier-tx, fence-sync-restrict, family-representative
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_EXPECT_TX_RELEASE %s 2>&1 | FileCheck %s --check-prefix=EXPECT_TX_RELEASE
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TRY_WAIT_RELEASE %s 2>&1 | FileCheck %s --check-prefix=TRY_WAIT_RELEASE
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE_ACQUIRE %s 2>&1 | FileCheck %s --check-prefix=ARRIVE_ACQUIRE
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE_GPU %s 2>&1 | FileCheck %s --check-prefix=ARRIVE_GPU
// RUN: not %nvcc -ptx -o /dev/null -DCASE_REMOTE_ARRIVE_CTA %s 2>&1 | FileCheck %s --check-prefix=REMOTE_ARRIVE_CTA
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE_COUNT_ACQUIRE %s 2>&1 | FileCheck %s --check-prefix=ARRIVE_COUNT_ACQUIRE
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE_COUNT_FIRST %s 2>&1 | FileCheck %s --check-prefix=ARRIVE_COUNT_FIRST
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE_EXPECT_TX_ACQUIRE %s 2>&1 | FileCheck %s --check-prefix=ARRIVE_EXPECT_TX_ACQUIRE
// RUN: not %nvcc -ptx -o /dev/null -DCASE_COMPLETE_TX_RELEASE %s 2>&1 | FileCheck %s --check-prefix=COMPLETE_TX_RELEASE
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TEST_WAIT_RELEASE %s 2>&1 | FileCheck %s --check-prefix=TEST_WAIT_RELEASE
// RUN: not %nvcc -ptx -o /dev/null -DCASE_WAIT_RELEASE %s 2>&1 | FileCheck %s --check-prefix=WAIT_RELEASE
// RUN: not %nvcc -ptx -o /dev/null -DCASE_WAIT_HINT_RELEASE %s 2>&1 | FileCheck %s --check-prefix=WAIT_HINT_RELEASE
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TRY_WAIT_HINT_GPU %s 2>&1 | FileCheck %s --check-prefix=TRY_WAIT_HINT_GPU
// RUN: not %nvcc -ptx -o /dev/null -DCASE_REMOTE_ARRIVE_ACQUIRE %s 2>&1 | FileCheck %s --check-prefix=REMOTE_ARRIVE_ACQUIRE
// RUN: not %nvcc -ptx -o /dev/null -DCASE_REMOTE_ARRIVE_COUNT_ACQUIRE %s 2>&1 | FileCheck %s --check-prefix=REMOTE_ARRIVE_COUNT_ACQUIRE
// RUN: not %nvcc -ptx -o /dev/null -DCASE_GENERIC_ACQUIRE_SHARED %s 2>&1 | FileCheck %s --check-prefix=GENERIC_ACQUIRE_SHARED
// RUN: not %nvcc -ptx -o /dev/null -DCASE_GENERIC_RELEASE_CLUSTER %s 2>&1 | FileCheck %s --check-prefix=GENERIC_RELEASE_CLUSTER
// RUN: not %nvcc -ptx -o /dev/null -DCASE_GENERIC_SCOPE_CTA %s 2>&1 | FileCheck %s --check-prefix=GENERIC_SCOPE_CTA
// RUN: not %nvcc -ptx -o /dev/null -DCASE_MBARRIER_INIT_ACQUIRE %s 2>&1 | FileCheck %s --check-prefix=MBARRIER_INIT_ACQUIRE
// RUN: not %nvcc -ptx -o /dev/null -DCASE_PROXY_ASYNC_SPACE %s 2>&1 | FileCheck %s --check-prefix=PROXY_ASYNC_SPACE
//
// Each case must fail with exactly one error, the ptxw one, reported at the line below it. Without a
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
  // EXPECT_TX_RELEASE: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // EXPECT_TX_RELEASE: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_expect_tx, Sem={{[a-z_:0-9]*}}::sem_release_t, Scope={{[a-z_:0-9]*}}::scope_cta_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // EXPECT_TX_RELEASE: at line [[#@LINE+2]] of
  // EXPECT_TX_RELEASE: 1 error detected in the compilation of
  bar.expect_tx(ptx::sem_release, ptx::scope_cta, ptxw::tx_bytes{16});
#endif

#if defined(CASE_TRY_WAIT_RELEASE)
  // TRY_WAIT_RELEASE: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // TRY_WAIT_RELEASE: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_try_wait, Sem={{[a-z_:0-9]*}}::sem_release_t, Scope={{[a-z_:0-9]*}}::scope_cta_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // TRY_WAIT_RELEASE: at line [[#@LINE+2]] of
  // TRY_WAIT_RELEASE: 1 error detected in the compilation of
  (void) bar.try_wait(ptx::sem_release, ptx::scope_cta, ph);
#endif

#if defined(CASE_ARRIVE_ACQUIRE)
  // ARRIVE_ACQUIRE: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // ARRIVE_ACQUIRE: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive, Sem={{[a-z_:0-9]*}}::sem_acquire_t, Scope={{[a-z_:0-9]*}}::scope_cta_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // ARRIVE_ACQUIRE: at line [[#@LINE+2]] of
  // ARRIVE_ACQUIRE: 1 error detected in the compilation of
  bar.arrive(ptx::sem_acquire, ptx::scope_cta);
#endif

#if defined(CASE_ARRIVE_GPU)
  // ARRIVE_GPU: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // ARRIVE_GPU: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive, Sem={{[a-z_:0-9]*}}::sem_release_t, Scope={{[a-z_:0-9]*}}::scope_gpu_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // ARRIVE_GPU: at line [[#@LINE+2]] of
  // ARRIVE_GPU: 1 error detected in the compilation of
  bar.arrive(ptx::sem_release, ptx::scope_gpu);
#endif

#if defined(CASE_REMOTE_ARRIVE_CTA)
  // REMOTE_ARRIVE_CTA: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // REMOTE_ARRIVE_CTA: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive_remote, Sem={{[a-z_:0-9]*}}::sem_release_t, Scope={{[a-z_:0-9]*}}::scope_cta_t, Space={{[a-z_:0-9]*}}::space_cluster_t]
  // REMOTE_ARRIVE_CTA: at line [[#@LINE+2]] of
  // REMOTE_ARRIVE_CTA: 1 error detected in the compilation of
  cbar.remote(ptxw::cta_rank{1}).arrive(ptx::sem_release, ptx::scope_cta);
#endif

#if defined(CASE_ARRIVE_COUNT_ACQUIRE)
  // ARRIVE_COUNT_ACQUIRE: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // ARRIVE_COUNT_ACQUIRE: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive, Sem={{[a-z_:0-9]*}}::sem_acquire_t, Scope={{[a-z_:0-9]*}}::scope_cta_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // ARRIVE_COUNT_ACQUIRE: at line [[#@LINE+2]] of
  // ARRIVE_COUNT_ACQUIRE: 1 error detected in the compilation of
  bar.arrive(ptx::sem_acquire, ptx::scope_cta, ptxw::arrivals{1});
#endif

#if defined(CASE_ARRIVE_COUNT_FIRST)
  // ARRIVE_COUNT_FIRST: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // ARRIVE_COUNT_FIRST: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive, Sem={{[a-z_:0-9]*}}::arrivals, Scope={{[a-z_:0-9]*}}::sem_release_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // ARRIVE_COUNT_FIRST: at line [[#@LINE+2]] of
  // ARRIVE_COUNT_FIRST: 1 error detected in the compilation of
  bar.arrive(ptxw::arrivals{1}, ptx::sem_release, ptx::scope_cta);
#endif

#if defined(CASE_ARRIVE_EXPECT_TX_ACQUIRE)
  // ARRIVE_EXPECT_TX_ACQUIRE: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // ARRIVE_EXPECT_TX_ACQUIRE: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive_expect_tx, Sem={{[a-z_:0-9]*}}::sem_acquire_t, Scope={{[a-z_:0-9]*}}::scope_cta_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // ARRIVE_EXPECT_TX_ACQUIRE: at line [[#@LINE+2]] of
  // ARRIVE_EXPECT_TX_ACQUIRE: 1 error detected in the compilation of
  bar.arrive_expect_tx(ptx::sem_acquire, ptx::scope_cta, ptxw::tx_bytes{16});
#endif

#if defined(CASE_COMPLETE_TX_RELEASE)
  // COMPLETE_TX_RELEASE: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // COMPLETE_TX_RELEASE: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_complete_tx, Sem={{[a-z_:0-9]*}}::sem_release_t, Scope={{[a-z_:0-9]*}}::scope_cta_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // COMPLETE_TX_RELEASE: at line [[#@LINE+2]] of
  // COMPLETE_TX_RELEASE: 1 error detected in the compilation of
  bar.complete_tx(ptx::sem_release, ptx::scope_cta, ptxw::tx_bytes{16});
#endif

#if defined(CASE_TEST_WAIT_RELEASE)
  // TEST_WAIT_RELEASE: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // TEST_WAIT_RELEASE: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_test_wait, Sem={{[a-z_:0-9]*}}::sem_release_t, Scope={{[a-z_:0-9]*}}::scope_cta_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // TEST_WAIT_RELEASE: at line [[#@LINE+2]] of
  // TEST_WAIT_RELEASE: 1 error detected in the compilation of
  (void) bar.test_wait(ptx::sem_release, ptx::scope_cta, ph);
#endif

#if defined(CASE_WAIT_RELEASE)
  // WAIT_RELEASE: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // WAIT_RELEASE: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_try_wait, Sem={{[a-z_:0-9]*}}::sem_release_t, Scope={{[a-z_:0-9]*}}::scope_cta_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // WAIT_RELEASE: at line [[#@LINE+2]] of
  // WAIT_RELEASE: 1 error detected in the compilation of
  bar.wait(ptx::sem_release, ptx::scope_cta, ph);
#endif

#if defined(CASE_WAIT_HINT_RELEASE)
  // WAIT_HINT_RELEASE: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // WAIT_HINT_RELEASE: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_try_wait, Sem={{[a-z_:0-9]*}}::sem_release_t, Scope={{[a-z_:0-9]*}}::scope_cta_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // WAIT_HINT_RELEASE: at line [[#@LINE+2]] of
  // WAIT_HINT_RELEASE: 1 error detected in the compilation of
  bar.wait(ptx::sem_release, ptx::scope_cta, ph, ptxw::suspend_hint{1000});
#endif

#if defined(CASE_TRY_WAIT_HINT_GPU)
  // TRY_WAIT_HINT_GPU: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // TRY_WAIT_HINT_GPU: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_try_wait, Sem={{[a-z_:0-9]*}}::sem_acquire_t, Scope={{[a-z_:0-9]*}}::scope_gpu_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // TRY_WAIT_HINT_GPU: at line [[#@LINE+2]] of
  // TRY_WAIT_HINT_GPU: 1 error detected in the compilation of
  (void) bar.try_wait(ptx::sem_acquire, ptx::scope_gpu, ph, ptxw::suspend_hint{1000});
#endif

#if defined(CASE_REMOTE_ARRIVE_ACQUIRE)
  // REMOTE_ARRIVE_ACQUIRE: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // REMOTE_ARRIVE_ACQUIRE: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive_remote, Sem={{[a-z_:0-9]*}}::sem_acquire_t, Scope={{[a-z_:0-9]*}}::scope_cluster_t, Space={{[a-z_:0-9]*}}::space_cluster_t]
  // REMOTE_ARRIVE_ACQUIRE: at line [[#@LINE+2]] of
  // REMOTE_ARRIVE_ACQUIRE: 1 error detected in the compilation of
  cbar.remote(ptxw::cta_rank{1}).arrive(ptx::sem_acquire, ptx::scope_cluster);
#endif

#if defined(CASE_REMOTE_ARRIVE_COUNT_ACQUIRE)
  // REMOTE_ARRIVE_COUNT_ACQUIRE: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // REMOTE_ARRIVE_COUNT_ACQUIRE: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_arrive_remote, Sem={{[a-z_:0-9]*}}::sem_acquire_t, Scope={{[a-z_:0-9]*}}::scope_cluster_t, Space={{[a-z_:0-9]*}}::space_cluster_t]
  // REMOTE_ARRIVE_COUNT_ACQUIRE: at line [[#@LINE+2]] of
  // REMOTE_ARRIVE_COUNT_ACQUIRE: 1 error detected in the compilation of
  cbar.remote(ptxw::cta_rank{1}).arrive(ptx::sem_acquire, ptx::scope_cluster, ptxw::arrivals{1});
#endif

#if defined(CASE_GENERIC_ACQUIRE_SHARED)
  // GENERIC_ACQUIRE_SHARED: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // GENERIC_ACQUIRE_SHARED: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::fence_proxy_async_generic, Sem={{[a-z_:0-9]*}}::sem_acquire_t, Scope={{[a-z_:0-9]*}}::scope_cluster_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // GENERIC_ACQUIRE_SHARED: at line [[#@LINE+2]] of
  // GENERIC_ACQUIRE_SHARED: 1 error detected in the compilation of
  ptxw::fence_proxy_async_generic(ptx::sem_acquire, ptx::space_shared, ptx::scope_cluster);
#endif

#if defined(CASE_GENERIC_RELEASE_CLUSTER)
  // GENERIC_RELEASE_CLUSTER: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // GENERIC_RELEASE_CLUSTER: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::fence_proxy_async_generic, Sem={{[a-z_:0-9]*}}::sem_release_t, Scope={{[a-z_:0-9]*}}::scope_cluster_t, Space={{[a-z_:0-9]*}}::space_cluster_t]
  // GENERIC_RELEASE_CLUSTER: at line [[#@LINE+2]] of
  // GENERIC_RELEASE_CLUSTER: 1 error detected in the compilation of
  ptxw::fence_proxy_async_generic(ptx::sem_release, ptx::space_cluster, ptx::scope_cluster);
#endif

#if defined(CASE_GENERIC_SCOPE_CTA)
  // GENERIC_SCOPE_CTA: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // GENERIC_SCOPE_CTA: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::fence_proxy_async_generic, Sem={{[a-z_:0-9]*}}::sem_release_t, Scope={{[a-z_:0-9]*}}::scope_cta_t, Space={{[a-z_:0-9]*}}::space_shared_t]
  // GENERIC_SCOPE_CTA: at line [[#@LINE+2]] of
  // GENERIC_SCOPE_CTA: 1 error detected in the compilation of
  ptxw::fence_proxy_async_generic(ptx::sem_release, ptx::space_shared, ptx::scope_cta);
#endif

#if defined(CASE_MBARRIER_INIT_ACQUIRE)
  // MBARRIER_INIT_ACQUIRE: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // MBARRIER_INIT_ACQUIRE: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::fence_mbarrier_init, Sem={{[a-z_:0-9]*}}::sem_acquire_t, Scope={{[a-z_:0-9]*}}::scope_cluster_t, Space={{[a-z_:0-9]*}}::none_t]
  // MBARRIER_INIT_ACQUIRE: at line [[#@LINE+2]] of
  // MBARRIER_INIT_ACQUIRE: 1 error detected in the compilation of
  ptxw::fence_mbarrier_init(ptx::sem_acquire, ptx::scope_cluster);
#endif

#if defined(CASE_PROXY_ASYNC_SPACE)
  // PROXY_ASYNC_SPACE: error: static assertion failed with "ptxw: R10 qualifiers: the PTX ISA has no form of this instruction with these qualifiers
  // PROXY_ASYNC_SPACE: refuse_qualifiers<{{.*}}[with Instruction={{[a-z_:0-9]*}}::fence_proxy_async, Sem={{[a-z_:0-9]*}}::none_t, Scope={{[a-z_:0-9]*}}::none_t, Space={{[a-z_:0-9]*}}::scope_cluster_t]
  // PROXY_ASYNC_SPACE: at line [[#@LINE+2]] of
  // PROXY_ASYNC_SPACE: 1 error detected in the compilation of
  ptxw::fence_before_async_read(ptx::scope_cluster);
#endif
}
