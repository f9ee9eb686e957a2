// The request-cost benchmark's kernel with checked mode off.
#define PTXW_CHECKED 0
#include "clc_request_kernels.cuh"

float time_steal_all_unchecked(unsigned blocks, unsigned threads, int reps, unsigned long long* sum)
{
  return time_steal_all(blocks, threads, reps, sum);
}
