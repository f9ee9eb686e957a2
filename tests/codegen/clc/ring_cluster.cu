// clc::ring<Depth, 3, cluster_t> on Hopper's software backends, Depth 2: the cluster form. open()
// publishes the inits to the cluster (fence.mbarrier_init, then a cluster barrier); the scheduler
// of the leader alone (cluster rank 0) waits for the stage's releases, at cluster scope; every
// lane of a consumer releases to the leader's empty barrier (a release.cluster remote arrive) --
// ring_consumer.h says why not one lane. counter_t: the leader's submitter stores each CTA's
// response through distributed shared memory and arrives on each CTA's barrier; the emulation:
// one bulk copy per CTA. No local memory.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass
// RUN: not grep -n "mbarrier.arrive.release.cta" %t.ptx

#include <ptxw/clc.h>

#include "Inputs/ring_kernel.h"

namespace clc = ptxw::clc;

extern "C" __global__ void __cluster_dims__(2, 1, 1) counter_ring_cluster(unsigned* out, clc::context<clc::counter_t> ctx)
{
  ring_kernel<2, clc::cluster_t>(out, ctx);
}
extern "C" __global__ void __cluster_dims__(2, 1, 1) emulated_ring_cluster(unsigned* out, clc::context<clc::emulated_t> ctx)
{
  ring_kernel<2, clc::cluster_t>(out, ctx);
}

// Both backends: the inits published to the cluster before any role runs; the waits at cluster
// scope; each consumer lane's release a remote arrive on the leader's empty barrier (mapa, then
// arrive.release.cluster on the shared::cluster address) and never a local one (the grep above);
// no local memory. The order of the roles' code differs by target: the checks after the cluster
// barrier are unordered.
// SASS-LABEL: Function : counter_ring_cluster{{$}}
// SASS-NOT:   {{LDL|STL}}
// SASS-LABEL: Function : emulated_ring_cluster{{$}}
// SASS-NOT:   {{LDL|STL}}
//
// counter_t: the leader's submitter claims with one predicated atomic, stores the response into each
// CTA's stage through distributed shared memory (mapa, st.v4) and arrives on each CTA's barrier; no
// async proxy.
// PTX-LABEL:  .entry counter_ring_cluster(
// PTX-NOT:    {{cp.async|fence.proxy}}
// PTX:        fence.mbarrier_init.release.cluster;
// PTX-NOT:    {{cp.async|fence.proxy}}
// PTX:        barrier.cluster.arrive;
// PTX-NEXT:   // end inline asm
// PTX-NEXT:   // begin inline asm
// PTX-NEXT:   barrier.cluster.wait;
// PTX-NOT:    {{cp.async|fence.proxy}}
// PTX-DAG:    mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64
// PTX-DAG:    @p atom.relaxed.gpu.global.add.u64
// PTX-DAG:    mapa.u64 [[M:%rd[0-9]+]],
// PTX-DAG:    st.v4.u32 {{.*}}[[[M]]],
// PTX-DAG:    mapa.shared::cluster.u32 [[A:%r[0-9]+]],
// PTX-DAG:    mbarrier.arrive.release.cluster.shared::cluster.b64 _, [[[A]]];
// PTX-NOT:    {{cp.async|fence.proxy}}
//
// The emulation: the response through one bulk copy per CTA, completing the bytes each CTA armed
// for.
// PTX-LABEL:  .entry emulated_ring_cluster(
// PTX:        fence.mbarrier_init.release.cluster;
// PTX:        barrier.cluster.arrive;
// PTX-DAG:    mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64
// PTX-DAG:    mapa.shared::cluster.u32 [[B:%r[0-9]+]],
// PTX-DAG:    mbarrier.arrive.release.cluster.shared::cluster.b64 _, [[[B]]];
// PTX-DAG:    cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
// PTX-DAG:    mbarrier.arrive.expect_tx.relaxed.cluster.shared::cta.b64
