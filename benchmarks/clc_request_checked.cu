// The request-cost benchmark's kernel with checked mode on.
#define PTXW_CHECKED 1
#include "clc_request_kernels.cuh"

float time_steal_all_checked(unsigned blocks, unsigned threads, int reps, unsigned long long* sum)
{
  return time_steal_all(blocks, threads, reps, sum);
}
