// R9 gate of ptxw::clc::context<hardware_t> (try_cancel to the requesting CTA) against ptxas. Runs on
// every target: where ptxas accepts clusterlaunchcontrol.try_cancel (lit feature clc, a ptxas probe)
// the hardware form compiles to PTX that contains it and that ptxas assembles; elsewhere it does not
// compile, with ptxw's R9 message. (The automatic context would fall back to the emulation below
// sm_100 and compile everywhere: the hardware form is named explicitly.)
// RUN: %if clc %{ %nvcc -ptx -DNDEBUG -o %t.ptx %s && FileCheck %s --check-prefix=ACCEPT --input-file=%t.ptx && %nvcc -cubin -DNDEBUG -o %t.cubin %s %} %else %{ not %nvcc -ptx -DNDEBUG -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=REJECT %}

#include <ptxw/clc.h>

__global__ void gate_clc_cta(ptxw::clc::context<ptxw::clc::hardware_t> ctx)
{
  __shared__ ptxw::clc::slot<ptxw::clc::cta_t> slot;
  auto clc = ptxw::clc::open(slot, ctx);
  clc.request(clc.elect());
}

// ACCEPT: clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128
// REJECT: error: static assertion failed with "ptxw: R9 target: clusterlaunchcontrol.try_cancel needs sm_100 or newer
