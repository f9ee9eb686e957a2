// ptxw/tasks/host/round_graph.h: rounds of a kernel without a host round trip -- a CUDA graph whose
// conditional WHILE node runs a body of two kernel nodes: the worker kernel, then a one-thread
// advance kernel that sets the loop's condition from the device (cudaGraphSetConditional). The
// graph is built and instantiated for a kernel and its launch shape, and kept; a launch of the
// same shape sets both nodes' parameters in the instantiated graph and launches it (pool_host's
// static_list_graph, ptxw/tasks/host/pool_host.h). while_loop_graph makes the WHILE node for any body.
#pragma once

#include <ptxw/core/device_array.h>

#include <cuda_runtime.h>

PTXW_NAMESPACE_BEGIN
namespace detail {
// A new graph whose one node is a conditional WHILE loop (CUDA 12.4+), its condition 1 by default
// (the body runs at least once, then while a body's cudaGraphSetConditional(loop, 1)); returns the
// body, which the caller fills. Shared by the task pools' rounds (below) and the octree example's
// level graph (examples/octree/level_sync.h).
inline cudaGraph_t while_loop_graph(cudaGraph_t& graph, cudaGraphConditionalHandle& loop, const char* what)
{
  cuda_check(cudaGraphCreate(&graph, 0), what);
  cuda_check(cudaGraphConditionalHandleCreate(&loop, graph, 1, cudaGraphCondAssignDefault), what);
  cudaGraphNodeParams p{};
  p.type               = cudaGraphNodeTypeConditional;
  p.conditional.handle = loop;
  p.conditional.type   = cudaGraphCondTypeWhile;
  p.conditional.size   = 1;
  cudaGraphNode_t node = nullptr;
#if CUDART_VERSION >= 13000
  cuda_check(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &p), what);
#else
  cuda_check(cudaGraphAddNode(&node, graph, nullptr, 0, &p), what);
#endif
  return p.conditional.phGraph_out[0];
}

class round_graph
{
  cudaGraph_t graph_     = nullptr;
  cudaGraphExec_t exec_  = nullptr;
  cudaGraphNode_t work_  = nullptr, advance_ = nullptr;
  cudaGraphConditionalHandle loop_{};
  cudaKernelNodeParams shape_{}; // the worker node's kernel and shape as instantiated

  void drop() noexcept
  {
    if (exec_ != nullptr)
    {
      (void) cudaGraphExecDestroy(exec_);
    }
    if (graph_ != nullptr)
    {
      (void) cudaGraphDestroy(graph_);
    }
    exec_  = nullptr;
    graph_ = nullptr;
  }

  bool same_shape(const cudaKernelNodeParams& w) const
  {
    return exec_ != nullptr && w.func == shape_.func && w.gridDim.x == shape_.gridDim.x
        && w.blockDim.x == shape_.blockDim.x && w.sharedMemBytes == shape_.sharedMemBytes;
  }

  // The loop's handle is created first: the advance node's parameters point at loop_.
  void build(const cudaKernelNodeParams& work, const cudaKernelNodeParams& advance)
  {
    drop();
    const cudaGraph_t body = while_loop_graph(graph_, loop_, "building a task pool's round graph");
    cuda_check(cudaGraphAddKernelNode(&work_, body, nullptr, 0, &work),
               "building a task pool's round graph (worker kernel)");
    cuda_check(cudaGraphAddKernelNode(&advance_, body, &work_, 1, &advance),
               "building a task pool's round graph (advance kernel)");
    cuda_check(cudaGraphInstantiate(&exec_, graph_, 0), "instantiating a task pool's round graph");
    shape_ = work;
  }

public:
  round_graph() = default;
  round_graph(const round_graph&)            = delete;
  round_graph& operator=(const round_graph&) = delete;
  ~round_graph()
  {
    drop();
  }

  // Runs `work` (its kernelParams: the pool first) and `advance(pool, loop)` until advance sets the
  // loop's condition to 0. `pool` points at the advance kernel's first parameter.
  void launch(const cudaKernelNodeParams& work, const void* advance, void* pool, cudaStream_t stream)
  {
    void* advance_args[] = {pool, &loop_};
    cudaKernelNodeParams next{};
    next.func         = const_cast<void*>(advance);
    next.gridDim      = dim3(1);
    next.blockDim     = dim3(1);
    next.kernelParams = advance_args;
    if (!same_shape(work))
    {
      build(work, next);
    }
    else if (cudaGraphExecKernelNodeSetParams(exec_, work_, &work) != cudaSuccess
             || cudaGraphExecKernelNodeSetParams(exec_, advance_, &next) != cudaSuccess)
    {
      (void) cudaGetLastError(); // a driver that does not update a node in a WHILE body: build anew
      build(work, next);
    }
    cuda_check(cudaGraphLaunch(exec_, stream), "launching a task pool's round graph");
  }
};
} // namespace detail
PTXW_NAMESPACE_END
