// The request-cost benchmark's kernel with checked mode off.
#define PTXW_CHECKED 0
#include "clc_request_kernels.cuh"

double time_counter_unchecked(unsigned blocks, unsigned threads, int reps, unsigned long long* sum)
{
  return time_steal_all<ptxw::clc::counter_t>(blocks, threads, reps, sum);
}

double time_emulated_unchecked(unsigned blocks, unsigned threads, int reps, unsigned long long* sum)
{
  return time_steal_all<ptxw::clc::emulated_t>(blocks, threads, reps, sum);
}
