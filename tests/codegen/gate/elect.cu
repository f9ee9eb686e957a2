// R9 gate of ptxw::elect_one() (elect.sync) against ptxas. Runs on every target. The probes have
// no elect.sync feature, so the branch follows mbarrier-tx (also sm_90 and newer) and each branch
// asks ptxas itself about a plain inline-asm elect.sync (-DRAW): where ptxw's elect compiles, the
// raw instruction must assemble; where ptxw rejects it with its R9 message, ptxas must reject it too.
// RUN: %if mbarrier-tx %{ %nvcc -ptx -DNDEBUG -o %t.ptx %s && FileCheck %s --check-prefix=ACCEPT --input-file=%t.ptx && %nvcc -cubin -DNDEBUG -o %t.cubin %s && %nvcc -cubin -DNDEBUG -DRAW -o %t.raw.cubin %s %} %else %{ not %nvcc -ptx -DNDEBUG -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=REJECT && not %nvcc -cubin -DNDEBUG -DRAW -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=PTXAS-REJECT %}

#include <ptxw/elect.h>

#if defined(RAW)
__global__ void gate_elect(unsigned* out)
{
  unsigned won;
  asm volatile("{\n\t.reg .pred p;\n\telect.sync _|p, 0xffffffff;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(won));
  *out = won;
}
#else
__global__ void gate_elect(unsigned* out)
{
  *out = ptxw::elect_one() ? 1u : 0u;
}
#endif

// ACCEPT: elect.sync _|p, %r{{[0-9]+}};
// REJECT: error: static assertion failed with "ptxw: R9 target: this form needs sm_90 or newer
// REJECT: refuse_target<{{.*}}[with Instruction={{[a-z_:0-9]*}}::elect_sync,
// PTXAS-REJECT: ptxas {{.*}}error{{ +}}: Feature 'elect' requires .target sm_90 or higher
