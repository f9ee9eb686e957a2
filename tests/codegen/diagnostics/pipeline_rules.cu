// ptxw::pipeline misuse that fails to compile, each with one `ptxw:` error naming its rule: a stage
// token copied (R27), a bulk producer taken without its elected lane or a store producer with one
// (R3), a stage count of 0 or 33 (R18), a consumer role of no warps (R18), a multicast copy in a
// one-CTA pipeline (R12), a multicast pipeline filled by generic stores (R12), bytes armed on a
// store producer's stage (R11).
// REQUIRES: mbarrier-tx, target-sm_90a
// (Type-level misuse, the same on every target: checked on one.)
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_COPY_STAGE -DCASE_RELEASE_LVALUE -DCASE_BULK_UNELECTED \
// RUN:  -DCASE_STORE_ELECTED -DCASE_NO_STAGES -DCASE_33_STAGES -DCASE_NO_CONSUMERS -DCASE_MULTICAST_ONE_CTA \
// RUN:  -DCASE_STORES_IN_CLUSTER -DCASE_ARM_STORES -DCASE_STATE_FROM_PARITY %s 2>&1 \
// RUN:   | FileCheck %s \
// RUN:  --check-prefixes=COPY_STAGE,RELEASE_LVALUE,BULK_UNELECTED,STORE_ELECTED,NO_STAGES,STAGES_33 \
// RUN:  --check-prefixes=NO_CONSUMERS,MULTICAST_ONE_CTA,STORES_IN_CLUSTER,ARM_STORES,STATE_FROM_PARITY \
// RUN:  --check-prefixes=CASES
// The cases compile together, once: each is one error at its line (-DAG checks: nvcc reports
// template instantiation errors at the end of the translation unit, out of source order), and
// the total is the number of cases (the last line).
//
// Without a CASE the file compiles: both roles used as documented.

#include <ptxw/mbarrier.h>

#include <utility>

using bulk_pipe  = ptxw::pipeline<2, ptxw::bulk_producer, ptxw::consumer_warps<1>>;
using store_pipe = ptxw::pipeline<2, ptxw::store_producer<32>, ptxw::consumer_warps<1>>;

__global__ void pipeline_rules(const int* src)
{
  __shared__ bulk_pipe::storage st;
  __shared__ store_pipe::storage st2;
  __shared__ alignas(128) int tile[2][32];
  auto p  = bulk_pipe::init(st);
  auto p2 = store_pipe::init(st2);
  if (threadIdx.x < 32)
  {
    if (auto e = ptxw::elect_one_of_warp())
    {
      auto prod = p.producer(e);
      auto s    = prod.acquire();
      s.arm(ptxw::tx_bytes{sizeof(tile[0])});
      s.copy(tile[s.index()], src, ptxw::tx_bytes{sizeof(tile[0])});
#if defined(CASE_COPY_STAGE)
      // COPY_STAGE-DAG: pipeline_rules.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R27 stage ownership: a stage is not copied
      auto again = s;
#endif
      prod.commit(std::move(s));
#if defined(CASE_STORE_ELECTED)
      // STORE_ELECTED-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R3 one submitter: a store_producer's threads each take producer() without an elected lane"
      // STORE_ELECTED-DAG: at line [[#@LINE+1]] of
      auto wrong = p2.producer(e);
#endif
    }
#if defined(CASE_BULK_UNELECTED)
    // BULK_UNELECTED-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R3 one submitter: a bulk_producer is one thread
    // BULK_UNELECTED-DAG: at line [[#@LINE+1]] of
    auto every_lane = p.producer();
#endif
    auto prod2 = p2.producer();
    auto s2    = prod2.acquire();
#if defined(CASE_ARM_STORES)
    // ARM_STORES-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R11 units: a store_producer's stages carry no transaction bytes
    // ARM_STORES-DAG: at line [[#@LINE+1]] of
    s2.arm(ptxw::tx_bytes{128});
#endif
#if defined(CASE_MULTICAST_ONE_CTA)
    // MULTICAST_ONE_CTA-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R12 barrier scope: a multicast copy needs a pipeline of ptxw::cluster_multicast<X, Y>"
    if (auto e = ptxw::elect_one_of_warp())
    {
      auto prod = p.producer(e);
      auto s    = prod.acquire();
      s.copy(tile[s.index()], src, ptxw::tx_bytes{sizeof(tile[0])}, 3);
      prod.commit(std::move(s));
    }
#endif
    prod2.commit(std::move(s2));
  }
  else
  {
    auto cons = p.consumer();
    auto s    = cons.wait();
#if defined(CASE_RELEASE_LVALUE)
    // RELEASE_LVALUE-DAG: pipeline_rules.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R27 stage ownership: a stage is released once, by its token
    cons.release(s);
#endif
    cons.release(std::move(s));
    auto cons2 = p2.consumer();
    auto s2    = cons2.wait();
    cons2.release(std::move(s2));
  }
}

#if defined(CASE_STATE_FROM_PARITY)
__global__ void state_from_parity(unsigned* out)
{
  // STATE_FROM_PARITY-DAG: pipeline_rules.cu([[#@LINE+1]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: a ptxw::pipeline_state is not made from a parity or index
  ptxw::pipeline_state<4> s(1u);
  *out = s.parity();
}
#endif
#if defined(CASE_NO_STAGES)
// NO_STAGES-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R18 in range: a pipeline has 1 to 32 stages
static_assert(ptxw::pipeline<0, ptxw::bulk_producer, ptxw::consumer_warps<1>>::stages == 0);
#endif
#if defined(CASE_33_STAGES)
// STAGES_33-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R18 in range: a pipeline has 1 to 32 stages
static_assert(ptxw::pipeline<33, ptxw::bulk_producer, ptxw::consumer_warps<1>>::stages == 33);
#endif
#if defined(CASE_NO_CONSUMERS)
// NO_CONSUMERS-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R18 in range: consumer_warps has 1 to 32 warps
static_assert(ptxw::pipeline<2, ptxw::bulk_producer, ptxw::consumer_warps<0>>::stages == 2);
#endif
#if defined(CASE_STORES_IN_CLUSTER)
// STORES_IN_CLUSTER-DAG: {{.*}}/include/ptxw/{{.*}}: error: static assertion failed with "ptxw: R12 barrier scope: a multicast pipeline is filled by bulk copies
static_assert(ptxw::pipeline<2, ptxw::store_producer<32>, ptxw::consumer_warps<1>, ptxw::cluster_multicast<2>>::stages == 2);
#endif

// CASES: 11 errors detected in the compilation of
