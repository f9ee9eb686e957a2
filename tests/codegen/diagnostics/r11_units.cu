// R11: arrival counts (ptxw::arrivals), transaction bytes (ptxw::tx_bytes), suspend hints and CTA
// ranks are distinct types; a bare integer or the wrong unit does not compile.
// REQUIRES: mbarrier-tx
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE_BYTES %s 2>&1 | FileCheck %s --check-prefix=ARRIVE_BYTES
// RUN: not %nvcc -ptx -o /dev/null -DCASE_EXPECT_TX_ARRIVALS %s 2>&1 | FileCheck %s --check-prefix=EXPECT_TX_ARRIVALS
// RUN: not %nvcc -ptx -o /dev/null -DCASE_EXPECT_TX_INT %s 2>&1 | FileCheck %s --check-prefix=EXPECT_TX_INT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_INIT_INT %s 2>&1 | FileCheck %s --check-prefix=INIT_INT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_INIT_BYTES %s 2>&1 | FileCheck %s --check-prefix=INIT_BYTES
// RUN: not %nvcc -ptx -o /dev/null -DCASE_ARRIVE_EXPECT_TX_INT %s 2>&1 | FileCheck %s --check-prefix=ARRIVE_EXPECT_TX_INT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_REMOTE_COMPLETE_TX_ARRIVALS %s 2>&1 | FileCheck %s --check-prefix=REMOTE_COMPLETE_TX_ARRIVALS
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TRY_WAIT_HINT_INT %s 2>&1 | FileCheck %s --check-prefix=TRY_WAIT_HINT_INT
// RUN: not %nvcc -ptx -o /dev/null -DCASE_REMOTE_RANK_INT %s 2>&1 | FileCheck %s --check-prefix=REMOTE_RANK_INT
//
// Each case must fail with exactly one error, the ptxw one, reported at the line below it. Without a
// CASE the file compiles: the correct spellings of the same calls, in the same kernel, are accepted.

#include <ptxw/mbarrier.h>

namespace ptx = cuda::ptx;

__global__ void r11_units()
{
  __shared__ ptxw::cta_barrier bar;
  __shared__ ptxw::cluster_barrier cbar;
  ptxw::phase ph;

  // The legal forms of everything misused below.
  bar.init(ptxw::arrivals{4});
  cbar.init(ptxw::arrivals{4});
  bar.arrive(ptxw::arrivals{1});
  bar.expect_tx(ptxw::tx_bytes{16});
  bar.arrive_expect_tx(ptxw::tx_bytes{16});
  cbar.remote(ptxw::cta_rank{1}).complete_tx(ptxw::tx_bytes{16});
  (void) bar.try_wait(ph, ptxw::suspend_hint{1000});

#if defined(CASE_ARRIVE_BYTES)
  // ARRIVE_BYTES: error: static assertion failed with "ptxw: R11 units: this count is ptxw::arrivals{n}
  // ARRIVE_BYTES: at line [[#@LINE+2]] of
  // ARRIVE_BYTES: 1 error detected in the compilation of
  bar.arrive(ptxw::tx_bytes{16});
#endif

#if defined(CASE_EXPECT_TX_ARRIVALS)
  // EXPECT_TX_ARRIVALS: error: static assertion failed with "ptxw: R11 units: this count is ptxw::tx_bytes{n}
  // EXPECT_TX_ARRIVALS: at line [[#@LINE+2]] of
  // EXPECT_TX_ARRIVALS: 1 error detected in the compilation of
  bar.expect_tx(ptxw::arrivals{1});
#endif

#if defined(CASE_EXPECT_TX_INT)
  // EXPECT_TX_INT: error: static assertion failed with "ptxw: R11 units: this count is ptxw::tx_bytes{n}
  // EXPECT_TX_INT: at line [[#@LINE+2]] of
  // EXPECT_TX_INT: 1 error detected in the compilation of
  bar.expect_tx(16u);
#endif

#if defined(CASE_INIT_INT)
  // INIT_INT: error: static assertion failed with "ptxw: R11 units: this count is ptxw::arrivals{n}
  // INIT_INT: at line [[#@LINE+2]] of
  // INIT_INT: 1 error detected in the compilation of
  bar.init(4);
#endif

#if defined(CASE_INIT_BYTES)
  // INIT_BYTES: error: static assertion failed with "ptxw: R11 units: this count is ptxw::arrivals{n}
  // INIT_BYTES: at line [[#@LINE+2]] of
  // INIT_BYTES: 1 error detected in the compilation of
  bar.init(ptxw::tx_bytes{4});
#endif

#if defined(CASE_ARRIVE_EXPECT_TX_INT)
  // ARRIVE_EXPECT_TX_INT: error: static assertion failed with "ptxw: R11 units: this count is ptxw::tx_bytes{n}
  // ARRIVE_EXPECT_TX_INT: at line [[#@LINE+2]] of
  // ARRIVE_EXPECT_TX_INT: 1 error detected in the compilation of
  bar.arrive_expect_tx(16);
#endif

#if defined(CASE_REMOTE_COMPLETE_TX_ARRIVALS)
  // REMOTE_COMPLETE_TX_ARRIVALS: error: static assertion failed with "ptxw: R11 units: this count is ptxw::tx_bytes{n}
  // REMOTE_COMPLETE_TX_ARRIVALS: at line [[#@LINE+2]] of
  // REMOTE_COMPLETE_TX_ARRIVALS: 1 error detected in the compilation of
  cbar.remote(ptxw::cta_rank{1}).complete_tx(ptxw::arrivals{1});
#endif

#if defined(CASE_TRY_WAIT_HINT_INT)
  // TRY_WAIT_HINT_INT: error: static assertion failed with "ptxw: R11 units: the argument after the phase is a ptxw::suspend_hint{ns}
  // TRY_WAIT_HINT_INT: at line [[#@LINE+2]] of
  // TRY_WAIT_HINT_INT: 1 error detected in the compilation of
  (void) bar.try_wait(ph, 1000u);
#endif

#if defined(CASE_REMOTE_RANK_INT)
  // REMOTE_RANK_INT: error: static assertion failed with "ptxw: R11 units: remote() takes a ptxw::cta_rank{r}
  // REMOTE_RANK_INT: at line [[#@LINE+2]] of
  // REMOTE_RANK_INT: 1 error detected in the compilation of
  cbar.remote(1u).arrive();
#endif
}
