// Host helpers of the cluster launch control tests: reading checked-mode diagnostics into readable
// form, and the fixture of the checked-mode tests on both Hopper backends.
#pragma once

#include <ptxw/clc/host/scheduler.h>
#include <ptxw/core/checked_host.h>

#include <cuda_runtime.h>

#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu.h"

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

// The sink of a test launch, whose checked waits may take 1 s before they are reported;
// PTXW_TEST_WAIT_NS sets another bound (run_on_gpu.sh: under compute-sanitizer kernels run many
// times slower).
inline unsigned long long long_wait_ns()
{
  const char* wait_ns = std::getenv("PTXW_TEST_WAIT_NS");
  return wait_ns ? std::strtoull(wait_ns, nullptr, 10) : 1000000000ull;
}
inline ptxw::checked::diagnostics long_wait_diagnostics()
{
  return ptxw::checked::diagnostics(64, long_wait_ns());
}

// A scheduler for the launches of a checked-mode test and the sink its reports go to; a wait may
// take 50 ms before it is reported.
template <class Backend>
class ClcCheckedFixture : public Gpu
{
protected:
  void SetUp() override
  {
    Gpu::SetUp();
    if (!IsSkipped() && !HasFatalFailure())
    {
      scheduler_.emplace(1024);
      diag_.emplace(256, 50000000ull);
    }
  }

  ptxw::clc::context<Backend> prepare(dim3 grid, dim3 cluster = dim3(1, 1, 1))
  {
    return scheduler_->template prepare<Backend>(grid, cluster, 0, diag_->device_sink());
  }

  // Expects reports of `rule`, and of no rule but those in `allowed` (consequences of the violation).
  Reports expect_reports(unsigned rule, std::initializer_list<unsigned> allowed = {})
  {
    const auto reports = read_reports(*diag_);
    EXPECT_TRUE(reports.has(rule)) << "no R" << rule << " report; reports:\n" << reports.text;
    for (unsigned r : reports.rules)
    {
      bool ok = r == rule;
      for (unsigned a : allowed)
      {
        ok |= r == a;
      }
      EXPECT_TRUE(ok) << "unexpected R" << r << " report:\n" << reports.text;
    }
    return reports;
  }

  std::optional<ptxw::clc::scheduler> scheduler_;
  std::optional<ptxw::checked::diagnostics> diag_;
};

// The Hopper backends the checked tests run on, named in the tests' names.
using HopperBackends = ::testing::Types<ptxw::clc::emulated_t, ptxw::clc::counter_t>;
struct HopperBackendName
{
  template <class T>
  static std::string GetName(int)
  {
    return std::is_same_v<T, ptxw::clc::emulated_t> ? "Emulated" : "Counter";
  }
};

} // namespace ptxw_test
