// benchmarks/task_trees/reference.h: the CPU's count of a UTS tree (uts.h), what every GPU search
// must match: depth-first, each thread its own stack, over the subtrees of the tree's first
// breadth-first levels (enough of them for every thread to have many), handed out one at a time.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

#include "trees.h"

namespace uts {

inline void visit(counts& c, const node& n, std::uint32_t kids)
{
  ++c.nodes;
  c.leaves += kids == 0;
  c.depth = std::max<unsigned long long>(c.depth, n.height);
}

inline counts count_on_cpu(const shape& s, unsigned threads = std::max(1u, std::thread::hardware_concurrency()))
{
  counts top{};
  std::vector<node> frontier{root(s)};
  // Breadth-first until each thread has 64 subtrees to take (or the tree ends).
  while (!frontier.empty() && frontier.size() < 64 * std::size_t(threads))
  {
    std::vector<node> next;
    for (const node& n : frontier)
    {
      const std::uint32_t kids = children(s, n);
      visit(top, n, kids);
      for (std::uint32_t i = 0; i < kids; ++i)
      {
        next.push_back(child(n, i));
      }
    }
    frontier.swap(next);
  }
  std::atomic<std::size_t> taken{0};
  std::vector<counts> part(threads, counts{});
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
  {
    pool.emplace_back([&, t] {
      std::vector<node> stack;
      for (std::size_t i; (i = taken.fetch_add(1)) < frontier.size();)
      {
        stack.push_back(frontier[i]);
        while (!stack.empty())
        {
          const node n = stack.back();
          stack.pop_back();
          const std::uint32_t kids = children(s, n);
          visit(part[t], n, kids);
          for (std::uint32_t k = 0; k < kids; ++k)
          {
            stack.push_back(child(n, k));
          }
        }
      }
    });
  }
  for (std::thread& t : pool)
  {
    t.join();
  }
  for (const counts& c : part)
  {
    top.nodes += c.nodes;
    top.leaves += c.leaves;
    top.depth = std::max(top.depth, c.depth);
  }
  return top;
}

} // namespace uts
