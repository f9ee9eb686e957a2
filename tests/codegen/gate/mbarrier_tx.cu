// R9 gate of ptxw's mbarrier transaction counts (expect_tx) against ptxas. Runs on every target:
// where ptxas accepts mbarrier.expect_tx (lit feature mbarrier-tx, a ptxas probe) ptxw's
// expect_tx compiles to PTX that contains it and that ptxas assembles; elsewhere it does not
// compile, with ptxw's R9 message.
// RUN: %if mbarrier-tx %{ %nvcc -ptx -DNDEBUG -o %t.ptx %s && FileCheck %s --check-prefix=ACCEPT --input-file=%t.ptx && %nvcc -cubin -DNDEBUG -o %t.cubin %s %} %else %{ not %nvcc -ptx -DNDEBUG -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=REJECT %}

#include <ptxw/mbarrier.h>

__global__ void gate_mbarrier_tx()
{
  __shared__ ptxw::cta_barrier bar;
  bar.init(ptxw::arrivals{1});
  bar.expect_tx(ptxw::tx_bytes{16});
}

// ACCEPT: mbarrier.expect_tx.relaxed.cta.shared::cta.b64
// REJECT: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
// REJECT: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::mbarrier_expect_tx,
