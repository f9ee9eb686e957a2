// benchmarks/task_trees/pool_search.h: the search on a ptxw task pool (docs/task-queues.md), written
// as the docs' API section shows it, for every method. A task is a batch of up to Threads x Items
// nodes that lie side by side in one arena (every node of the tree gets a slot there, allocated by
// its parent's block); a whole block expands one batch (expand.h): its children get one run of
// slots, and the run is cut into batches, each pushed as a child task -- or, where the queue is
// full, kept by the block, or else spilled for the host to seed into another launch, so that no
// node is lost. What a child reads is the block's writes before fork() (R25): the children are
// written before it.
#pragma once

#include <ptxw/tasks/host/pool_host.h>

#include <cstdint>

#include "expand.h"

namespace task_trees {

namespace tasks = ptxw::tasks;

// Nodes first .. first + count - 1 of the arena.
struct batch
{
  std::uint32_t first, count;
};

// Every node's slot, allocated a block's children at a time; and the batches neither pushed nor kept.
struct arena
{
  uts::node* nodes;
  std::uint32_t capacity;
  std::uint32_t* used; // slots allocated
  std::uint32_t* overflow; // a block found the arena full (its children were dropped)
  batch* spilled;
  std::uint32_t* spills; // batches spilled (those past spill_room were lost: the search fails its check)
  std::uint32_t spill_room;
};

// keep_first: a block keeps its first child batch (forked::keep), as long as its slot has room,
// and runs it next without the pool's queue; the others are pushed. Off, every child is pushed first,
// as the docs' example does.
template <class Method, int Threads, int Items>
__global__ void __launch_bounds__(Threads, resident_threads / Threads)
  pool_search(tasks::pool<batch, Method> p, arena a, uts::shape s, bool keep_first, uts::counts* out)
{
  using expand = block_expand<Threads, Items>;
  static_assert(Threads >= uts::max_children, "a thread a part: a batch's children are at most 100 batches");
  __shared__ tasks::worker_slot<batch, Method> slot;
  __shared__ typename expand::storage st;
  __shared__ std::uint32_t base;
  auto w = p.join(slot);
  tally t;
  while (auto task = w.next())
  {
    const std::uint32_t from = task->first;
    std::uint32_t total =
      expand::plan(st, task->count, [&](std::uint32_t i) { return a.nodes[from + i]; }, s, t);
    if (threadIdx.x == 0 && total != 0)
    {
      base = atomicAdd(a.used, total);
      if (base + static_cast<unsigned long long>(total) > a.capacity)
      {
        *a.overflow = 1;
      }
    }
    __syncthreads();
    const std::uint32_t at = base;
    total                  = at + static_cast<unsigned long long>(total) > a.capacity ? 0 : total;
    expand::each_child(st, total, [&](std::uint32_t j, const uts::node& c) { a.nodes[at + j] = c; });
    const std::uint32_t parts = (total + expand::batch - 1) / expand::batch;
    auto children             = w.fork(task, parts);
    if (threadIdx.x < parts)
    {
      const std::uint32_t first = threadIdx.x * expand::batch;
      const batch b{at + first, total - first < expand::batch ? total - first : expand::batch};
      const bool kept = keep_first && threadIdx.x == 0 && children.keep(b) == tasks::push_result::pushed;
      if (!kept && children.push(b) == tasks::push_result::full && children.keep(b) == tasks::push_result::full)
      {
        const std::uint32_t i = atomicAdd(a.spills, 1u);
        if (i < a.spill_room)
        {
          a.spilled[i] = b;
        }
      }
    }
    w.retire(std::move(task), std::move(children));
  }
  t.add_to<Threads>(out);
}

} // namespace task_trees
