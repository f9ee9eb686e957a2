// Runtime behaviour of ptxw::mbarrier on the GPU.
#include <ptxw/ptxw.h>

#include "gpu.h"

namespace ptx = cuda::ptx;

// Every thread arrives once per phase; the phase object must track the barrier for many phases.
__global__ void phases_kernel(int phases, unsigned* completed)
{
  __shared__ ptxw::cta_barrier bar;
  if (threadIdx.x == 0)
  {
    bar.init(ptxw::arrivals{blockDim.x});
  }
  __syncthreads();
  ptxw::phase ph;
  for (int i = 0; i < phases; ++i)
  {
    bar.arrive();
    bar.wait(ph);
  }
  if (threadIdx.x == 0)
  {
    *completed = phases;
  }
}

TEST_F(Gpu, ThousandPhasesWithThePhaseObject)
{
  unsigned* completed = nullptr;
  PTXW_CUDA_OK(cudaMalloc(&completed, sizeof(unsigned)));
  phases_kernel<<<1, 128>>>(1000, completed);
  PTXW_CUDA_OK(cudaDeviceSynchronize());
  unsigned host = 0;
  PTXW_CUDA_OK(cudaMemcpy(&host, completed, sizeof(host), cudaMemcpyDeviceToHost));
  EXPECT_EQ(host, 1000u);
  PTXW_CUDA_OK(cudaFree(completed));
}
