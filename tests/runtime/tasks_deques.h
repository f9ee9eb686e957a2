// The method lists of the typed task-pool suites: every method, and the two kinds of per-block
// deque (ptxw::tasks::stealing_deques) for the suites that run each test on both: chase_lev
// (tasks/deque.h) and one_word (tasks/one_word_deque.h).
#pragma once

#include <ptxw/tasks/methods.h>

#include <gtest/gtest.h>

#include <string>
#include <type_traits>

namespace tasks_test {
using Methods = ::testing::Types<ptxw::tasks::stealing, ptxw::tasks::stealing_deques<ptxw::tasks::one_word>,
                                 ptxw::tasks::lockfree_queue<ptxw::tasks::ticket_ring>,
                                 ptxw::tasks::lockfree_queue<ptxw::tasks::nil_slots>, ptxw::tasks::locked_queue,
                                 ptxw::tasks::static_list, ptxw::tasks::static_list_graph>;
using Deques = ::testing::Types<ptxw::tasks::stealing, ptxw::tasks::stealing_deques<ptxw::tasks::one_word>>;

// The suites' names: Suite/chase_lev.Test, Suite/one_word.Test.
struct deque_names
{
  template <class Method>
  static std::string GetName(int)
  {
    return std::is_same_v<Method, ptxw::tasks::stealing> ? "chase_lev" : "one_word";
  }
};
} // namespace tasks_test
