// Benchmark: what a cluster launch control request costs through ptxw on this GPU -- with Hopper's
// fast backend (counter_t, a persistent launch) and the faithful emulation (emulated_t, every block
// launched), each with checked mode off and on -- next to a plain launch of the same blocks (one
// block per index, no stealing).
//
// Every variant runs the same block indices, each adding its x to one sum (checked against
// n(n-1)/2, so a variant that skipped or repeated an index is reported, not timed), with no work
// of its own: ns per index is the median kernel time over the indices, the price of scheduling
// one block index.
//
//   build/benchmarks/ptxw_bench_clc_request [reps]
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

float time_counter_unchecked(unsigned blocks, unsigned threads, int reps, unsigned long long* sum);
float time_counter_checked(unsigned blocks, unsigned threads, int reps, unsigned long long* sum);
float time_emulated_unchecked(unsigned blocks, unsigned threads, int reps, unsigned long long* sum);
float time_emulated_checked(unsigned blocks, unsigned threads, int reps, unsigned long long* sum);

namespace {

__global__ void plain(unsigned long long* sum)
{
  if (threadIdx.x == 0)
  {
    atomicAdd(sum, static_cast<unsigned long long>(blockIdx.x));
  }
}

float time_plain(unsigned blocks, unsigned threads, int reps, unsigned long long* sum)
{
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  float best[64];
  int n = 0;
  for (int rep = -2; rep < reps && n < 64; ++rep)
  {
    cudaMemset(sum, 0, sizeof(*sum));
    cudaEventRecord(start);
    plain<<<blocks, threads>>>(sum);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float t = 0;
    cudaEventElapsedTime(&t, start, stop);
    if (rep >= 0)
    {
      best[n++] = t;
    }
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  for (int i = 1; i < n; ++i) // insertion sort for the median
  {
    for (int j = i; j > 0 && best[j] < best[j - 1]; --j)
    {
      const float t = best[j];
      best[j]       = best[j - 1];
      best[j - 1]   = t;
    }
  }
  return best[n / 2];
}

bool check(const char* what, unsigned blocks, unsigned long long* sum)
{
  unsigned long long got = 0;
  cudaMemcpy(&got, sum, sizeof got, cudaMemcpyDeviceToHost);
  const unsigned long long want = static_cast<unsigned long long>(blocks) * (blocks - 1) / 2;
  if (got != want)
  {
    std::printf("%s: sum %llu, expected %llu: an index was lost or repeated\n", what, got, want);
  }
  return got == want;
}

} // namespace

int main(int argc, char** argv)
{
  const int reps = argc > 1 ? std::atoi(argv[1]) : 15;
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess)
  {
    std::printf("no CUDA device\n");
    return 2;
  }
  std::printf("%s, %d SMs; median of %d launches; ns per block index\n", prop.name, prop.multiProcessorCount, reps);
  std::printf("%10s %8s %8s %10s %10s %10s %10s %14s %14s\n", "indices", "threads", "plain", "counter", "counter+chk",
              "emulated", "emul.+chk", "emulated/cntr", "checked/unchk");
  unsigned long long* sum = nullptr;
  cudaMalloc(&sum, sizeof(*sum));
  bool ok = true;
  for (unsigned blocks : {100000u, 1000000u, 10000000u})
  {
    for (unsigned threads : {64u, 256u})
    {
      const float plain_ms = time_plain(blocks, threads, reps, sum);
      ok &= check("plain", blocks, sum);
      const float counter_ms = time_counter_unchecked(blocks, threads, reps, sum);
      ok &= check("counter_t", blocks, sum);
      const float counter_checked_ms = time_counter_checked(blocks, threads, reps, sum);
      ok &= check("counter_t, checked", blocks, sum);
      const float emulated_ms = time_emulated_unchecked(blocks, threads, reps, sum);
      ok &= check("emulated_t", blocks, sum);
      const float emulated_checked_ms = time_emulated_checked(blocks, threads, reps, sum);
      ok &= check("emulated_t, checked", blocks, sum);
      const double scale = 1e6 / blocks;
      std::printf("%10u %8u %8.2f %10.2f %10.2f %10.2f %10.2f %14.2f %14.2f\n", blocks, threads, plain_ms * scale,
                  counter_ms * scale, counter_checked_ms * scale, emulated_ms * scale, emulated_checked_ms * scale,
                  emulated_ms / counter_ms, emulated_checked_ms / emulated_ms);
    }
  }
  const cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess)
  {
    std::printf("CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  cudaFree(sum);
  return ok ? 0 : 1;
}
