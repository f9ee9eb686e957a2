// What the tests of the device-scope algorithms share (device_test.cu, device_state_test.cu): the
// fixture that runs a two-phase call on storage of exactly the queried size (or allocates it), counts
// how often each index ran, and replays a graph of a captured call; and a wait on the GPU's clock.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "gpu.h"

// Waits ns nanoseconds of %globaltimer, sleeping a microsecond at a time.
__device__ inline void sleep_ns(unsigned long long ns)
{
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do
  {
    __nanosleep(1000);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
}

class DeviceAlgorithm : public Gpu
{
protected:
  // Runs f(temp, bytes) with storage of exactly the queried size, starting one byte past an
  // aligned address (the parts are aligned inside it).
  template <class F>
  cudaError_t with_exact_storage(F&& f)
  {
    std::size_t bytes = 0;
    if (const cudaError_t err = f(nullptr, bytes); err != cudaSuccess)
    {
      return err;
    }
    unsigned char* base = nullptr;
    if (const cudaError_t err = cudaMalloc(&base, bytes + 1); err != cudaSuccess)
    {
      return err;
    }
    const cudaError_t err  = f(base + 1, bytes);
    const cudaError_t sync = cudaDeviceSynchronize();
    (void) cudaFree(base);
    return err != cudaSuccess ? err : sync;
  }

  // temp allocated to the size that the size query f(nullptr, bytes) writes into bytes.
  template <class F>
  static void allocate_queried(DeviceBuffer<unsigned char>& temp, std::size_t& bytes, F&& f)
  {
    bytes = 0;
    PTXW_CUDA_OK(f(nullptr, bytes));
    PTXW_CUDA_OK(temp.allocate(bytes));
  }

  // f(temp, bytes) on storage one byte smaller than its size query asks for is refused
  // (cudaErrorInvalidValue) and writes neither the size nor the storage (filled with 0xab); the
  // device synchronised after it, so that a launch it made would have run.
  template <class F>
  static void expect_too_small_refused(F&& f)
  {
    std::size_t bytes = 0;
    DeviceBuffer<unsigned char> temp;
    ASSERT_NO_FATAL_FAILURE(allocate_queried(temp, bytes, f));
    PTXW_CUDA_OK(temp.fill_bytes(0xab));
    std::size_t less = bytes - 1;
    EXPECT_EQ(f(temp.get(), less), cudaErrorInvalidValue);
    EXPECT_EQ(less, bytes - 1);
    PTXW_CUDA_OK(cudaDeviceSynchronize());
    std::vector<unsigned char> t;
    PTXW_CUDA_OK(temp.download(t));
    EXPECT_EQ(std::count(t.begin(), t.end(), 0xab), static_cast<long>(t.size())) << "the storage was written";
  }

  // Every index ran `times` times (hits: a count per index); `what` names the run in the failure.
  static void expect_all(const DeviceBuffer<unsigned>& hits, unsigned times, const std::string& what = "")
  {
    std::vector<unsigned> h;
    ASSERT_EQ(hits.download(h), cudaSuccess);
    std::size_t wrong = 0, first = h.size();
    for (std::size_t i = 0; i < h.size(); ++i)
    {
      if (h[i] != times)
      {
        first = wrong++ == 0 ? i : first;
      }
    }
    EXPECT_EQ(wrong, 0u) << what << (what.empty() ? "" : ": ") << "indices not run " << times
                         << " times; the first: " << first << " ran " << (first < h.size() ? h[first] : 0) << " times";
  }

  // call(s), captured on a stream s of its own into a graph, which is then launched `replays` times,
  // before(s) ahead of each launch; then s synchronised. call's own status is checked after the
  // capture ends.
  template <class Call, class Before>
  static void capture_and_replay(int replays, Call&& call, Before&& before)
  {
    cudaStream_t s;
    PTXW_CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaGraph_t graph;
    PTXW_CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    const cudaError_t captured = call(s);
    PTXW_CUDA_OK(cudaStreamEndCapture(s, &graph));
    PTXW_CUDA_OK(captured);
    cudaGraphExec_t exec;
    PTXW_CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
    for (int k = 0; k < replays; ++k)
    {
      PTXW_CUDA_OK(before(s));
      PTXW_CUDA_OK(cudaGraphLaunch(exec, s));
    }
    PTXW_CUDA_OK(cudaStreamSynchronize(s));
    PTXW_CUDA_OK(cudaGraphExecDestroy(exec));
    PTXW_CUDA_OK(cudaGraphDestroy(graph));
    PTXW_CUDA_OK(cudaStreamDestroy(s));
  }
  template <class Call>
  static void capture_and_replay(int replays, Call&& call)
  {
    capture_and_replay(replays, call, [](cudaStream_t) { return cudaSuccess; });
  }
};
