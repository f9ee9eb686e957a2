// A user's kernel whose PTX and SASS ptxw_add_codegen_test checks (arrive.checks, wrong_scope.checks).
#include <ptxw/mbarrier.h>

extern "C" __global__ void signal_ready()
{
  __shared__ ptxw::cta_barrier bar;
  bar.arrive();
}
