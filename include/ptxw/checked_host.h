// ptxw/checked_host.h: the host side of checked mode -- where diagnostics go, and reading them back.
//
//   ptxw::checked::diagnostics diag;            // device buffer for 256 reports
//   ctx.sink = diag.device_sink();              // in a ptxw::clc::context
//   kernel<<<...>>>(..., ctx); cudaDeviceSynchronize();
//   for (auto& d : diag.read()) std::puts(ptxw::checked::describe(d).c_str());
//
// Errors of the CUDA runtime are thrown as std::runtime_error("ptxw: ...").
#pragma once

#include <ptxw/checked.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

PTXW_NAMESPACE_BEGIN
namespace checked {
namespace host_detail {
inline void ok(cudaError_t err, const char* what)
{
  if (err != cudaSuccess)
  {
    throw std::runtime_error(std::string("ptxw: ") + what + ": " + cudaGetErrorString(err));
  }
}
} // namespace host_detail

// What each rule id means, for reports (docs/rules.md has the full text).
inline const char* rule_name(unsigned rule)
{
  switch (rule)
  {
    case 1:
      return "R1 request after an observed failure";
    case 2:
      return "R2 decode of a failed response";
    case 3:
      return "R3 more than one submitter";
    case 4:
      return "R4 request while readers still read the slot";
    case 5:
      return "R5 barrier never armed for this phase";
    case 6:
      return "R6 wait on the wrong phase, or one that never completes";
    case 11:
      return "R11 count out of the PTX range";
    default:
      return "unknown rule";
  }
}

inline std::string describe(const diagnostic& d)
{
  return "ptxw: " + std::string(rule_name(d.rule)) + ": block (" + std::to_string(d.block[0]) + ","
       + std::to_string(d.block[1]) + "," + std::to_string(d.block[2]) + ") thread (" + std::to_string(d.thread[0])
       + "," + std::to_string(d.thread[1]) + "," + std::to_string(d.thread[2]) + ") slot/barrier 0x"
       + [&] {
           char hex[16];
           std::snprintf(hex, sizeof hex, "%x", d.address);
           return std::string(hex);
         }()
       + " phase " + std::to_string(d.phase) + " (parity " + std::to_string(d.phase & 1u) + ") observed "
       + std::to_string(d.detail);
}

// Owns a device buffer of diagnostics and the sink that points at it.
class diagnostics
{
  diagnostic* records_ = nullptr;
  std::uint32_t* count_ = nullptr;
  sink* sink_ = nullptr;
  std::uint32_t capacity_;

public:
  // timeout_ns: how long a checked wait may take before it is reported. trap: trap after recording
  // (the kernel then fails with cudaErrorIllegalInstruction and the context is lost).
  explicit diagnostics(std::uint32_t capacity = 256, std::uint64_t timeout_ns = 1000000000ull, bool trap = false)
      : capacity_(capacity)
  {
    host_detail::ok(cudaMalloc(&records_, sizeof(diagnostic) * capacity), "allocating diagnostics");
    host_detail::ok(cudaMalloc(&count_, sizeof(std::uint32_t)), "allocating diagnostics");
    host_detail::ok(cudaMalloc(&sink_, sizeof(sink)), "allocating diagnostics");
    const sink s{records_, count_, capacity, trap ? 1u : 0u, timeout_ns};
    host_detail::ok(cudaMemcpy(sink_, &s, sizeof s, cudaMemcpyHostToDevice), "initialising diagnostics");
    clear();
  }
  diagnostics(const diagnostics&)            = delete;
  diagnostics& operator=(const diagnostics&) = delete;
  ~diagnostics()
  {
    cudaFree(sink_);
    cudaFree(count_);
    cudaFree(records_);
  }

  const sink* device_sink() const noexcept
  {
    return sink_;
  }

  void clear(cudaStream_t stream = 0)
  {
    host_detail::ok(cudaMemsetAsync(count_, 0, sizeof(std::uint32_t), stream), "clearing diagnostics");
    host_detail::ok(cudaStreamSynchronize(stream), "clearing diagnostics");
  }

  // Reports made since the last clear(), including those beyond the buffer's capacity.
  std::uint32_t count() const
  {
    std::uint32_t n = 0;
    host_detail::ok(cudaMemcpy(&n, count_, sizeof n, cudaMemcpyDeviceToHost), "reading diagnostics");
    return n;
  }

  // The recorded reports (at most capacity). Synchronous: call after the kernel finished.
  std::vector<diagnostic> read() const
  {
    const std::uint32_t n = count() < capacity_ ? count() : capacity_;
    std::vector<diagnostic> out(n);
    if (n != 0)
    {
      host_detail::ok(cudaMemcpy(out.data(), records_, sizeof(diagnostic) * n, cudaMemcpyDeviceToHost),
                      "reading diagnostics");
    }
    return out;
  }
};

} // namespace checked
PTXW_NAMESPACE_END