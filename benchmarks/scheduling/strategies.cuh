// The strategies the scheduling benchmark compares: what a kernel author would pick instead of
// ptxw's work stealing, and ptxw's own backends and forms. Every kernel runs the same Cta protocol
// (work.cuh) with the same register budget (__launch_bounds__(256, 8): at most 32 registers, so
// that 2048 threads fit on an SM whatever the strategy).
#pragma once

#include "work.cuh"

#include <ptxw/clc.h>
#include <ptxw/clc/host/scheduler.h>
#include <ptxw/inter_block/host/work_queue.h>

#include <cuda/work_stealing>

#include <string>
#include <vector>

#define SCHED_BOUNDS __launch_bounds__(256, 8)

namespace sched {

// One block per item, no stealing: what a plain launch does.
__global__ SCHED_BOUNDS void one_per_item(Work w)
{
  Cta cta(w);
  cta.prologue();
  cta.item(blockIdx.x);
}

// As many blocks as fit, each taking items i, i + gridDim.x, ...
__global__ SCHED_BOUNDS void grid_stride(Work w)
{
  Cta cta(w);
  cta.prologue();
  for (unsigned i = blockIdx.x; i < w.n; i += gridDim.x)
  {
    cta.item(i);
  }
}

// As many blocks as fit, each taking the next item from one global counter.
__global__ SCHED_BOUNDS void atomic_queue(Work w, unsigned* next)
{
  __shared__ unsigned claimed;
  Cta cta(w);
  cta.prologue();
  while (true)
  {
    if (leader())
    {
      claimed = atomicAdd(next, 1u);
    }
    __syncthreads();
    const unsigned i = claimed;
    __syncthreads();
    if (i >= w.n)
    {
      break;
    }
    cta.item(i);
  }
}

// ptxw's block work queue (ptxw/inter_block.h) over the items 0..n-1, as many blocks as fit: the
// plain form (fetch: claim, then work) and the prefetching one (for_each_item: the next claim in
// flight during the work), one item per atomic or batches of up to K.
template <unsigned K>
__global__ SCHED_BOUNDS void queue_fetch(Work w, ptxw::work_queue<unsigned> q)
{
  __shared__ ptxw::queue_slot slot;
  Cta cta(w);
  cta.prologue();
  auto c = ptxw::open_queue<K>(slot, q);
  while (auto it = c.fetch())
  {
    cta.item(*it);
  }
}

template <unsigned K>
__global__ SCHED_BOUNDS void queue_for_each(Work w, ptxw::work_queue<unsigned> q)
{
  Cta cta(w);
  cta.prologue();
  ptxw::for_each_item<K>(q, [&](unsigned i) {
    cta.item(i);
  });
}

// CCCL's cuda::for_each_canceled_block, the prologue outside the lambda as its documentation says.
// Below sm_100 it runs the block's own index once: one block per item.
__global__ SCHED_BOUNDS void cccl(Work w)
{
  Cta cta(w);
  cta.prologue();
  cuda::for_each_canceled_block<1>([&](dim3 block) {
    cta.item(block.x);
  });
}

template <class Backend>
__global__ SCHED_BOUNDS void ptxw_block(Work w, ptxw::clc::context<Backend> ctx)
{
  Cta cta(w);
  ptxw::for_each_canceled_block<1>(
    ctx,
    [&] {
      cta.prologue();
    },
    [&](dim3 block) {
      cta.item(block.x);
    });
}

template <class Backend>
__global__ SCHED_BOUNDS void ptxw_cluster(Work w, ptxw::clc::context<Backend> ctx)
{
  Cta cta(w);
  ptxw::for_each_canceled_cluster<1>(
    ctx,
    [&] {
      cta.prologue();
    },
    [&](dim3 block) {
      cta.item(block.x);
    });
}

// How a strategy is launched for one run.
struct Launch
{
  unsigned threads;
  unsigned resident; // CTAs of this block size the GPU holds at once
  unsigned* next; // a zeroed counter, for atomic_queue
  ptxw::clc::scheduler* scheduler;
  ptxw::work_queue<unsigned> queue; // the items 0..n-1, reset before each launch
  unsigned grid; // CTAs launched (filled in by the strategy)
};

struct Strategy
{
  std::string name;
  unsigned cluster; // CTAs per cluster the strategy needs (the workload's cost groups)
  bool ptxw; // a ptxw backend: its counts are checked (no canceled CTA ran the prologue)
  cudaError_t (*run)(const Work&, Launch&);
};

inline std::vector<Strategy> strategies()
{
  using namespace ptxw::clc;
  return {
    {"one block per item", 1, false,
     [](const Work& w, Launch& l) {
       l.grid = w.n;
       one_per_item<<<w.n, l.threads>>>(w);
       return cudaGetLastError();
     }},
    {"grid-stride", 1, false,
     [](const Work& w, Launch& l) {
       l.grid = l.resident;
       grid_stride<<<l.resident, l.threads>>>(w);
       return cudaGetLastError();
     }},
    {"persistent atomic queue", 1, false,
     [](const Work& w, Launch& l) {
       l.grid = l.resident;
       atomic_queue<<<l.resident, l.threads>>>(w, l.next);
       return cudaGetLastError();
     }},
    {"ptxw work queue, fetch", 1, false,
     [](const Work& w, Launch& l) {
       l.grid = l.resident;
       queue_fetch<1><<<l.resident, l.threads>>>(w, l.queue);
       return cudaGetLastError();
     }},
    {"ptxw work queue, fetch, batches of 8", 1, false,
     [](const Work& w, Launch& l) {
       l.grid = l.resident;
       queue_fetch<8><<<l.resident, l.threads>>>(w, l.queue);
       return cudaGetLastError();
     }},
    {"ptxw work queue, prefetching", 1, false,
     [](const Work& w, Launch& l) {
       l.grid = l.resident;
       queue_for_each<1><<<l.resident, l.threads>>>(w, l.queue);
       return cudaGetLastError();
     }},
    {"ptxw work queue, prefetching, batches of 8", 1, false,
     [](const Work& w, Launch& l) {
       l.grid = l.resident;
       queue_for_each<8><<<l.resident, l.threads>>>(w, l.queue);
       return cudaGetLastError();
     }},
    {"CCCL for_each_canceled_block", 1, false,
     [](const Work& w, Launch& l) {
       l.grid = w.n;
       cccl<<<w.n, l.threads>>>(w);
       return cudaGetLastError();
     }},
    {"ptxw default (counter_t)", 1, true,
     [](const Work& w, Launch& l) {
       const auto p = l.scheduler->prepare(ptxw_block<automatic_t>, dim3(w.n), dim3(l.threads));
       l.grid       = p.grid.x;
       ptxw_block<automatic_t><<<p.grid, l.threads>>>(w, p.ctx);
       return cudaGetLastError();
     }},
    {"ptxw counter_t, whole grid", 1, true,
     [](const Work& w, Launch& l) {
       const auto ctx = l.scheduler->prepare<counter_t>(dim3(w.n));
       l.grid         = w.n;
       ptxw_block<counter_t><<<w.n, l.threads>>>(w, ctx);
       return cudaGetLastError();
     }},
    {"ptxw emulated_t", 1, true,
     [](const Work& w, Launch& l) {
       const auto ctx = l.scheduler->prepare<emulated_t>(dim3(w.n));
       l.grid         = w.n;
       ptxw_block<emulated_t><<<w.n, l.threads>>>(w, ctx);
       return cudaGetLastError();
     }},
    {"ptxw cluster form, clusters of 2", 2, true,
     [](const Work& w, Launch& l) {
       const auto p = l.scheduler->prepare(ptxw_cluster<automatic_t>, dim3(w.n), dim3(l.threads), 0, dim3(2, 1, 1));
       l.grid       = p.grid.x;
       return launch_in_clusters(ptxw_cluster<automatic_t>, p.grid, dim3(l.threads), dim3(2, 1, 1), 0, 0, w, p.ctx);
     }},
    {"ptxw cluster form, clusters of 4", 4, true,
     [](const Work& w, Launch& l) {
       const auto p = l.scheduler->prepare(ptxw_cluster<automatic_t>, dim3(w.n), dim3(l.threads), 0, dim3(4, 1, 1));
       l.grid       = p.grid.x;
       return launch_in_clusters(ptxw_cluster<automatic_t>, p.grid, dim3(l.threads), dim3(4, 1, 1), 0, 0, w, p.ctx);
     }},
    {"ptxw emulated_t, clusters of 2", 2, true,
     [](const Work& w, Launch& l) {
       const auto ctx = l.scheduler->prepare<emulated_t>(dim3(w.n), dim3(2, 1, 1));
       l.grid         = w.n;
       return launch_in_clusters(ptxw_cluster<emulated_t>, dim3(w.n), dim3(l.threads), dim3(2, 1, 1), 0, 0, w, ctx);
     }},
  };
}

} // namespace sched
