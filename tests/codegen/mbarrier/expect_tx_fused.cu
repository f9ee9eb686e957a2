// expect_tx, then a second tx operation of 256 bytes on one barrier: ptxas fuses the two into one
// SYNCS.ARRIVE carrying the summed bytes -- with arrive_expect_tx an arrive (SYNCS.ARRIVE.TRANS64),
// with a second expect_tx none (SYNCS.ARRIVE.TRANS64.RED.A0TR).
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t.arrive -- -DSECOND=arrive_expect_tx
// RUN: %ptx-check %s --input-file=%t.arrive.ptx --check-prefix=ARRIVE-PTX
// RUN: %sass-check %s --input-file=%t.arrive.sass --check-prefix=ARRIVE-SASS
// RUN: %ptxw-sass-equal %t.arrive.sass
// RUN: %ptxw-compile %s -o %t.twice -- -DSECOND=expect_tx
// RUN: %ptx-check %s --input-file=%t.twice.ptx --check-prefix=TWICE-PTX
// RUN: %sass-check %s --input-file=%t.twice.sass --check-prefix=TWICE-SASS
// RUN: %ptxw-sass-equal %t.twice.sass

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

// The second operation's cuda::ptx semantics: arrive_expect_tx releases, expect_tx is relaxed.
#define REF_SEM_arrive_expect_tx ptx::sem_release
#define REF_SEM_expect_tx ptx::sem_relaxed
#define REF_SECOND_(name) ptx::mbarrier_##name(REF_SEM_##name, ptx::scope_cta, ptx::space_shared, &bar, 256)
#define REF_SECOND(name) REF_SECOND_(name)

extern "C" __global__ void ptxw_expect_tx_fused()
{
  __shared__ ptxw::cta_barrier bar;
  bar.expect_tx(ptxw::tx_bytes{256});
  bar.SECOND(ptxw::tx_bytes{256});
}

extern "C" __global__ void ref_expect_tx_fused()
{
  __shared__ uint64_t bar;
  ptx::mbarrier_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar, 256);
  REF_SECOND(SECOND);
}

// ARRIVE-PTX-LABEL: .entry ptxw_expect_tx_fused(
// ARRIVE-PTX:       mov.{{[bu]}}32 [[TX:%r[0-9]+]], 256;
// ARRIVE-PTX:       mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r{{[0-9]+}}], [[TX]];
// ARRIVE-PTX:       mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %rd{{[0-9]+}}, [%r{{[0-9]+}}], [[TX]];
// ARRIVE-PTX-LABEL: .entry ref_expect_tx_fused(

// TWICE-PTX-LABEL:   .entry ptxw_expect_tx_fused(
// TWICE-PTX-COUNT-2: mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r{{[0-9]+}}], %r{{[0-9]+}};
// TWICE-PTX-LABEL:   .entry ref_expect_tx_fused(

// 256 + 256 bytes in one SYNCS.ARRIVE: the HFMA2 bit pattern of 512.
// SASS-LABEL:          Function : ptxw_expect_tx_fused
// ARRIVE-SASS-NOT:     {{SYNCS|MEMBAR}}
// TWICE-SASS-NOT:      SYNCS
// SASS-DAG:            HFMA2{{(\.MMA)?}} R[[TX:[0-9]+]], -RZ, RZ, 0, 3.0517578125e-05 ;
// SASS-DAG:            ULEA UR[[BAR:[0-9]+]], UR{{[0-9]+}}, UR{{[0-9]+}}, 0x18 ;
// ARRIVE-SASS-NOT:     {{SYNCS|MEMBAR}}
// ARRIVE-SASS-COUNT-1: SYNCS.ARRIVE.TRANS64 RZ, [UR[[BAR]]], R[[TX]] ;
// ARRIVE-SASS-NOT:     {{SYNCS|MEMBAR}}
// TWICE-SASS-NOT:      SYNCS
// TWICE-SASS-COUNT-1:  SYNCS.ARRIVE.TRANS64.RED.A0TR RZ, [UR[[BAR]]], R[[TX]] ;
// TWICE-SASS-NOT:      SYNCS
// SASS-LABEL:          Function : ref_expect_tx_fused
