// examples/octree/cdp.cu: cdp's kernels (cdp.h). A node of n > T particles is split by
//   n <= S (cdp+finish only)  cdp_finish: one block finishes its whole subtree in shared memory (finish.h);
//   n <= C             cdp_node: one block counts, takes the prefix and scatters (the dynamic
//                      builder's one-block split, dynamic.h), then launches its children;
//   n >  C             four grids in order in a stream of their own: cdp_count (a block a chunk
//                      of C, into the node's job), cdp_prefix (the cursors), cdp_scatter (a block a
//                      chunk) and cdp_children (one block).
// Children: those of at most T particles, or at the depth cap, are leaves (appended with one atomic
// a node, copied to the output where they lie in buffer b); each other child is launched by one
// thread of the block, a one-kernel node into cudaStreamFireAndForget. The root is launched the same
// way from the host, into stream 0; a grid is complete only when its children are, so the host's
// launch ends with the last leaf and one event pair times the whole build.
// Limits (CUDA programming guide, CDP2):
// - nesting depth 24: a node's kernels run one level below the kernel that launched them (a big
//   node's four are siblings, one stream), so a node of depth d runs at level d, at most 20 (its
//   children, at the cap, are leaves);
// - pending launches (default 2048): grids launched but not started are nodes none of which is
//   another's ancestor (a node launches its children only once it runs), so at most N / (T + 1),
//   plus three queued grids per big node (at most N / C); run() raises the limit to that.
// A launch that fails anyway is counted (cdp_errors), never silent.
#include "cdp.h"

#include <stdexcept>
#include <string>

#include "device.h"
#include "finish.h"

namespace octree
{

struct cdp_job
{
  std::uint32_t counts[8], cursors[8];
};

struct cdp_errors
{
  std::uint32_t count;
  int first;
};

namespace
{

constexpr int threads = 256;
using block           = dynamic_block<threads>;
using finish          = block_finish<threads>;
static_assert(!block::split_tile::staged, "cdp's splits (one level) pass no stage");

struct cdp_args
{
  buffers buf;
  leaf_out out;
  cdp_job* jobs; // jobs[0]: the root's; jobs[1 + i]: taken by *jobs_used
  std::uint32_t* jobs_used;
  cdp_errors* errors;
  std::uint32_t t, finish, chunk; // finish: S, or 0 (cdp)
};

__host__ __device__ void launch(const node& nd, const cdp_args& a);

// The children of nd (octant counts in s.counts, particles scattered): leaves appended and settled,
// the others launched. Every thread of the block.
__device__ void children(block::storage& s, const node& nd, const cdp_args& a)
{
  if (threadIdx.x == 0)
  {
    block::plan(s, nd, dynamic_config{a.t, ~0u, 0}, 1, a.out); // one level, no chunks: nothing to end early
  }
  __syncthreads(); // ... and the block's scatter is done
  block::for_each_child(s, a.buf, a.out, [&](const node& ch) {
    __threadfence(); // the block's scatter, seen by this thread at the barrier, before the child's reads
    launch(ch, a);
  });
}

__global__ void __launch_bounds__(threads) cdp_node(node nd, cdp_args a)
{
  __shared__ block::storage s;
  const int depth = depth_of(nd.code);
  block::split_node(s, nullptr, nd, a.buf.io(depth), depth);
  children(s, nd, a);
}

// A big node's grids: block b has chunk b, particles [b C, (b + 1) C) of the node.
__device__ node chunk_of(const node& nd, std::uint32_t chunk)
{
  const std::uint32_t beg = blockIdx.x * chunk;
  return node{nd.code, nd.begin + beg, min(chunk, nd.count - beg)};
}

__global__ void __launch_bounds__(threads) cdp_count(node nd, cdp_job* job, cdp_args a)
{
  __shared__ block::storage s;
  const int depth = depth_of(nd.code);
  block::count_own(s, a.buf.io(depth), chunk_of(nd, a.chunk), depth, job->counts);
}

__global__ void cdp_prefix(node nd, cdp_job* job)
{
  block::split_tile::cursors([&](int o) { return job->counts[o]; }, job->cursors, nd.begin);
}

__global__ void __launch_bounds__(threads) cdp_scatter(node nd, cdp_job* job, cdp_args a)
{
  __shared__ block::storage s;
  const int depth = depth_of(nd.code);
  block::scatter_own(s, nullptr, a.buf.io(depth), chunk_of(nd, a.chunk), depth, job->cursors);
}

__global__ void __launch_bounds__(threads) cdp_children(node nd, cdp_job* job, cdp_args a)
{
  __shared__ block::storage s;
  if (threadIdx.x < 8)
  {
    s.counts[threadIdx.x] = job->counts[threadIdx.x];
  }
  __syncthreads();
  children(s, nd, a);
}

// At most 128 registers a thread: two blocks of 256 an SM, as the finish's shared memory allows.
__global__ void __launch_bounds__(threads, 512 / threads) cdp_finish(node nd, cdp_args a)
{
  extern __shared__ __align__(16) unsigned char smem[];
  finish::run(*reinterpret_cast<finish::storage*>(smem), nd, a.buf, a.out, a.t);
}

__device__ void note(cudaError_t e, const cdp_args& a)
{
  if (e != cudaSuccess && atomicAdd(&a.errors->count, 1u) == 0)
  {
    a.errors->first = e;
  }
}

// Launches the split of nd: from the host for the root (stream 0), else from one thread of the
// parent's block.
__host__ __device__ void launch(const node& nd, const cdp_args& a)
{
#ifdef __CUDA_ARCH__
  const cudaStream_t alone = cudaStreamFireAndForget;
#else
  const cudaStream_t alone = 0;
#endif
  if (nd.count <= a.finish)
  {
    cdp_finish<<<1, threads, finish::bytes, alone>>>(nd, a);
  }
  else if (nd.count <= a.chunk)
  {
    cdp_node<<<1, threads, 0, alone>>>(nd, a);
  }
  else
  {
    const std::uint32_t chunks = (nd.count + a.chunk - 1) / a.chunk;
#ifdef __CUDA_ARCH__
    cdp_job* job = a.jobs + 1 + atomicAdd(a.jobs_used, 1u);
    cudaStream_t s;
    note(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), a);
#else
    cdp_job* job         = a.jobs;
    const cudaStream_t s = 0;
#endif
    cdp_count<<<chunks, threads, 0, s>>>(nd, job, a);
    cdp_prefix<<<1, 1, 0, s>>>(nd, job);
    cdp_scatter<<<chunks, threads, 0, s>>>(nd, job, a);
    cdp_children<<<1, threads, 0, s>>>(nd, job, a);
#ifdef __CUDA_ARCH__
    note(cudaStreamDestroy(s), a); // its grids still run
#endif
  }
#ifdef __CUDA_ARCH__
  note(cudaGetLastError(), a);
#endif
}

} // namespace

struct cdp_build::arrays
{
  device_array<cdp_job> jobs;
  device_array<std::uint32_t> jobs_used;
  device_array<cdp_errors> errors;
};

cdp_build::cdp_build(bool finish, std::uint32_t chunk)
    : finish_(finish)
    , chunk_(chunk)
    , arrays_(std::make_unique<arrays>())
{
  // The finish's shared memory, for launches from the device too.
  PTXW_OCTREE_CHECK(
    cudaFuncSetAttribute(cdp_finish, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(finish::bytes)));
}

cdp_build::~cdp_build() = default;

void cdp_build::run(const buffers& buf, const leaf_out& out, std::uint32_t n, std::uint32_t t)
{
  if (finish_ && t >= max_window)
  {
    throw std::invalid_argument(std::string("octree ") + name() + ": T = " + std::to_string(t) + ": at most " +
                                std::to_string(max_window - 1) + " with the shared-memory finish");
  }
  const std::size_t big     = n / chunk_ + 1; // big nodes of one depth, at most
  const std::size_t pending = n / (t + 1) + 3 * big;
  std::size_t limit         = 0;
  PTXW_OCTREE_CHECK(cudaDeviceGetLimit(&limit, cudaLimitDevRuntimePendingLaunchCount));
  if (limit < pending)
  {
    PTXW_OCTREE_CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, pending));
  }
  const std::size_t jobs = 1 + max_depth * big;
  arrays& a = *arrays_;
  a.jobs.reserve(jobs);
  a.jobs_used.reserve(1);
  a.errors.reserve(1);
  PTXW_OCTREE_CHECK(cudaMemsetAsync(a.jobs.get(), 0, jobs * sizeof(cdp_job)));
  PTXW_OCTREE_CHECK(cudaMemsetAsync(a.jobs_used.get(), 0, sizeof(std::uint32_t)));
  PTXW_OCTREE_CHECK(cudaMemsetAsync(a.errors.get(), 0, sizeof(cdp_errors)));
  PTXW_OCTREE_CHECK(cudaMemsetAsync(out.count, 0, sizeof(std::uint32_t)));
  // Every count reads the particles: cdp with the buckets ahead (output.h) is not shown correct (docs/task-queues.md).
  buffers plain = buf;
  plain.ahead_a = plain.ahead_b = nullptr;
  launch(node{1, 0, n}, cdp_args{plain, out, a.jobs.get(), a.jobs_used.get(), a.errors.get(), t,
                                 finish_ ? finish_size : 0, chunk_});
  PTXW_OCTREE_CHECK(cudaGetLastError());
}

std::string cdp_build::failures() const
{
  if (arrays_->errors.size() == 0)
  {
    return {}; // never ran (N <= T)
  }
  const cdp_errors e = arrays_->errors.download(1)[0];
  return e.count == 0 ? std::string()
                      : std::to_string(e.count) + " device launches failed, the first with " +
                          cudaGetErrorName(static_cast<cudaError_t>(e.first));
}

} // namespace octree
