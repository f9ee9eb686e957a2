// Host helpers of the cluster launch control tests: reading checked-mode diagnostics into readable
// form.
#pragma once

#include <ptxw/host/checked.h>
#include <ptxw/host/clc.h>

#include <cuda_runtime.h>

#include <string>
#include <vector>

namespace ptxw_test {

// The rules of the recorded diagnostics, in order, and all of them described for a test message.
struct Reports
{
  std::vector<unsigned> rules;
  std::string text;
  unsigned total = 0;

  bool has(unsigned rule) const
  {
    for (unsigned r : rules)
    {
      if (r == rule)
      {
        return true;
      }
    }
    return false;
  }
};

inline Reports read_reports(const ptxw::checked::diagnostics& diag)
{
  Reports out;
  out.total = diag.count();
  for (const auto& d : diag.read())
  {
    out.rules.push_back(d.rule);
    out.text += ptxw::checked::describe(d) + "\n";
  }
  return out;
}

} // namespace ptxw_test
