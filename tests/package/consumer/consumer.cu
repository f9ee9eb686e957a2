// Builds a kernel against the installed ptxw: a bulk copy completed through a typed mbarrier.
#include <ptxw/ptxw.h>

#include <cuda/ptx> // cp_async_bulk

#include <cstdio>

namespace ptx = cuda::ptx;

__global__ void copy_in(const int4* src, int4* dst)
{
  __shared__ alignas(16) int4 buffer[64];
  __shared__ ptxw::cta_barrier bar;
  if (threadIdx.x == 0)
  {
    bar.init(ptxw::arrivals{1});
  }
  __syncthreads();
  if (threadIdx.x == 0)
  {
    bar.arrive_expect_tx(ptxw::tx_bytes{sizeof(buffer)});
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buffer, src, sizeof(buffer), bar.native_handle());
  }
  ptxw::phase ph;
  bar.wait(ph);
  dst[threadIdx.x] = buffer[threadIdx.x];
}

int main()
{
  std::printf("ptxw consumer built; kernel at %p\n", reinterpret_cast<void*>(&copy_in));
  return 0;
}
