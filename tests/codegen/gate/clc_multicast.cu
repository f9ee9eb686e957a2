// R9 gate of ptxw::clc::context<hardware_t> on a ptxw::clc::slot<cluster_t> (try_cancel
// .multicast::cluster::all) against ptxas. Runs on every target: where ptxas accepts the multicast
// form (lit feature clc-multicast) it compiles to PTX that contains it and that ptxas assembles;
// elsewhere it does not compile, with ptxw's R9 message -- the multicast one where ptxas has
// try_cancel but not its multicast form (sm_100), the sm_100 one below sm_100.
// RUN: %if clc-multicast %{ %nvcc -ptx -DNDEBUG -o %t.ptx %s && FileCheck %s --check-prefix=ACCEPT --input-file=%t.ptx && %nvcc -cubin -DNDEBUG -o %t.cubin %s %} %else %{ %if clc %{ not %nvcc -ptx -DNDEBUG -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=REJECT-MULTICAST %} %else %{ not %nvcc -ptx -DNDEBUG -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=REJECT %} %}

#include <ptxw/clc.h>

__global__ void __cluster_dims__(2, 1, 1) gate_clc_multicast(ptxw::clc::context<ptxw::clc::hardware_t> ctx)
{
  __shared__ ptxw::clc::slot<ptxw::clc::cluster_t> slot;
  auto clc = ptxw::clc::open(slot, ctx);
  clc.request(clc.elect());
}

// ACCEPT: clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128
// REJECT: error: static assertion failed with "ptxw: R9 target: clusterlaunchcontrol.try_cancel needs sm_100 or newer
// REJECT-MULTICAST: error: static assertion failed with "ptxw: R9 target: clusterlaunchcontrol.try_cancel.multicast::cluster::all needs an arch- or family-specific target
