// The request-cost benchmark's kernel with checked mode on.
#define PTXW_CHECKED 1
#include "clc_request_kernels.cuh"

double time_counter_checked(unsigned blocks, unsigned threads, int reps, unsigned long long* sum)
{
  return time_steal_all<ptxw::clc::counter_t>(blocks, threads, reps, sum);
}

double time_emulated_checked(unsigned blocks, unsigned threads, int reps, unsigned long long* sum)
{
  return time_steal_all<ptxw::clc::emulated_t>(blocks, threads, reps, sum);
}
