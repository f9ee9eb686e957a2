// Host helpers of the cluster launch control tests: cluster launches, and reading checked-mode
// diagnostics into readable form.
#pragma once

#include <ptxw/checked_host.h>
#include <ptxw/clc_host.h>

#include <cuda_runtime.h>

#include <string>
#include <vector>

namespace ptxw_test {

// kernel<<<grid, block>>>(args...) in clusters of `cluster` blocks (cudaLaunchKernelEx).
template <class... KernelArgs, class... Args>
cudaError_t launch_clusters(void (*kernel)(KernelArgs...), dim3 grid, dim3 cluster, dim3 block, Args... args)
{
  cudaLaunchConfig_t config{};
  config.gridDim  = grid;
  config.blockDim = block;
  cudaLaunchAttribute attribute{};
  attribute.id               = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = cluster.x;
  attribute.val.clusterDim.y = cluster.y;
  attribute.val.clusterDim.z = cluster.z;
  config.attrs               = &attribute;
  config.numAttrs            = 1;
  return cudaLaunchKernelEx(&config, kernel, static_cast<KernelArgs>(args)...);
}

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
