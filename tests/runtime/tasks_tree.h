// The tree of tasks the task-pool tests run: task n of depth d < max has children(n) (1 to 4)
// children 4n + 1 .. 4n + children(n), a deterministic rule, so the exact set of tasks is known on
// the host (depth 5: 240 tasks, 6: 606, 8: 3825, 10: 23987).
// The kernel counts each task's id once per run; a run is right when every reachable id counts 1
// and every other 0 -- a lost task is a 0, a task run twice a 2.
#pragma once

#include <ptxw/tasks/host/pool_host.h>

#include <cstddef>
#include <vector>

#include "gpu.h"

namespace tasks_test {
struct node
{
  unsigned id;
  unsigned depth;
};

constexpr unsigned kBranching = 4;

__host__ __device__ inline unsigned children(unsigned id, unsigned depth, unsigned max_depth)
{
  return depth < max_depth ? 1u + (((id + 1u) * 2654435761u) >> 7) % kBranching : 0u;
}

// Ids below this bound, for a tree of max_depth.
inline unsigned id_bound(unsigned max_depth)
{
  unsigned long long bound = 1, level = 1;
  for (unsigned d = 0; d < max_depth; ++d)
  {
    level *= kBranching;
    bound += level;
  }
  return static_cast<unsigned>(bound);
}

// The count each id must reach: 1 for the tasks of the trees under `roots`, 0 elsewhere.
inline std::vector<unsigned> expected_counts(const std::vector<node>& roots, unsigned max_depth)
{
  std::vector<unsigned> expected(id_bound(max_depth), 0u);
  std::vector<node> todo(roots);
  while (!todo.empty())
  {
    const node n = todo.back();
    todo.pop_back();
    ++expected[n.id];
    for (unsigned j = 0; j < children(n.id, n.depth, max_depth); ++j)
    {
      todo.push_back({kBranching * n.id + j + 1, n.depth + 1});
    }
  }
  return expected;
}

// One task, by every thread of the block, as the tests' kernels run theirs (any task with an id):
// forked for at most `most` children, its id counted once (thread 0, after the fork), handed with
// its fork to `make`(task, kids), which pushes the children, and retired with the fork.
template <class Owner, class T, class Make>
__device__ void count_and_fork(Owner& w, ptxw::tasks::task<T>&& t, unsigned most, unsigned* counts, Make make)
{
  const T v = *t;
  auto kids = w.fork(t, most);
  if (threadIdx.x == 0)
  {
    atomicAdd(&counts[v.id], 1u);
  }
  make(v, kids);
  w.retire(std::move(t), std::move(kids));
}

// One task of the tree, by every thread of the block: counts it, pushes its children (one thread
// each, at once), keeps those a full queue refuses, and hands each it could not even keep to
// `neither` (in the thread that pushed it).
template <class Owner, class Neither>
__device__ void run_task(Owner& w, ptxw::tasks::task<node>&& t, unsigned* counts, unsigned max_depth, Neither neither)
{
  count_and_fork(w, std::move(t), kBranching, counts, [&](const node& n, auto& kids) {
    if (threadIdx.x < children(n.id, n.depth, max_depth))
    {
      const node c{kBranching * n.id + threadIdx.x + 1, n.depth + 1};
      if (kids.push(c) == ptxw::tasks::push_result::full && kids.keep(c) == ptxw::tasks::push_result::full)
      {
        neither(c);
      }
    }
  });
}

// The kernel every method runs: the tree's tasks, counting the children it could not even keep
// (`dropped`).
template <class Method, unsigned Keep>
__global__ void run_tree(ptxw::tasks::pool<node, Method> p, unsigned* counts, unsigned* dropped, unsigned max_depth)
{
  __shared__ ptxw::tasks::worker_slot<node, Method, Keep> slot;
  auto w = p.join(slot);
  while (auto t = w.next())
  {
    run_task(w, std::move(t), counts, max_depth, [&](const node&) { atomicAdd(dropped, 1u); });
  }
}

// What a launch of run_tree counts against the tree it runs.
struct tree_tally
{
  unsigned dropped = 0; // children neither pushed nor kept, over every launch
  std::size_t lost = 0; // ids counted fewer times than the tree has them
  std::size_t twice = 0; // ids counted more times
};

// Launches of run_tree on the tree under `roots` to max_depth, host side: the tree (each id's count
// and the tasks in all) and the device counts the kernel fills. The caller seeds the pool and
// asserts on the tally; a failed CUDA call is a fatal failure of the helper that made it.
class tree_launch
{
public:
  tree_launch(const std::vector<node>& roots, unsigned max_depth)
      : expected_(expected_counts(roots, max_depth))
      , max_depth_(max_depth)
  {
    for (unsigned c : expected_)
    {
      total_ += c;
    }
  }

  // The tasks in the tree: what pool_stats::tasks_run reads after a launch.
  unsigned long long total() const
  {
    return total_;
  }

  void allocate()
  {
    PTXW_CUDA_OK(counts_.allocate_zeroed(expected_.size()));
    PTXW_CUDA_OK(dropped_.allocate_zeroed(1));
  }

  // One launch of run_tree<Method, Keep> on `grid` blocks (0: the resident grid) of `threads`, its
  // counts from 0.
  template <unsigned Keep, class Method>
  void launch(ptxw::tasks::pool_host<node, Method>& pool, int grid, int threads)
  {
    PTXW_CUDA_OK(counts_.fill_bytes(0));
    auto kernel = run_tree<Method, Keep>;
    if (grid == 0)
    {
      pool.launch(kernel, threads, 0, 0, counts_.get(), dropped_.get(), max_depth_);
    }
    else
    {
      pool.launch(ptxw::tasks::blocks{grid}, kernel, threads, 0, 0, counts_.get(), dropped_.get(), max_depth_);
    }
    PTXW_LAUNCH_OK();
  }

  // The last launch's counts against the tree's.
  void read(tree_tally& t) const
  {
    std::vector<unsigned> got, drops;
    PTXW_CUDA_OK(counts_.download(got));
    PTXW_CUDA_OK(dropped_.download(drops));
    t = tree_tally{drops[0]};
    for (std::size_t id = 0; id < got.size(); ++id)
    {
      t.lost += got[id] < expected_[id];
      t.twice += got[id] > expected_[id];
    }
  }

private:
  std::vector<unsigned> expected_;
  unsigned long long total_ = 0;
  unsigned max_depth_;
  DeviceBuffer<unsigned> counts_, dropped_;
};
} // namespace tasks_test
