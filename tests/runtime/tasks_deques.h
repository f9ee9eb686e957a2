// The two kinds of per-block deque (ptxw::tasks::stealing_deques), for the typed suites that run
// each test on both: chase_lev (tasks/deque.h) and one_word (tasks/one_word_deque.h).
#pragma once

#include <ptxw/tasks/methods.h>

#include <gtest/gtest.h>

#include <string>
#include <type_traits>

namespace tasks_test {
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
