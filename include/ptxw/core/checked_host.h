// ptxw/core/checked_host.h: the host side of checked mode -- where diagnostics go, and reading them back.
//
//   ptxw::checked::diagnostics diag;            // device buffer for 256 reports
//   ctx.sink = diag.device_sink();              // in a ptxw::clc::context
//   diag.make_default();                        // and for the mbarrier types, which take no context
//   kernel<<<...>>>(..., ctx); cudaDeviceSynchronize();
//   for (auto& d : diag.read()) std::puts(ptxw::checked::describe(d).c_str());
//
// Errors of the CUDA runtime are thrown as std::runtime_error("ptxw: ..."). The constructor, clear(),
// count() and read() synchronise (a stream, or the device through cudaMemcpy).
#pragma once

#include <ptxw/core/checked.h>
#include <ptxw/core/device_array.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

PTXW_NAMESPACE_BEGIN
namespace checked {

// "R4 one observation: a request while readers still read the slot" (ptxw/core/rules.h; docs/rules.md
// has the full text).
inline std::string rule_name(std::uint32_t number)
{
  switch (number)
  {
#define PTXW_RULE_CASE(n, id, name, violation)                                                                       \
  case n:                                                                                                            \
    return "R" #n " " name ": " violation;
    PTXW_RULES(PTXW_RULE_CASE)
#undef PTXW_RULE_CASE
  }
  return "R" + std::to_string(number) + " (not a ptxw rule)";
}

inline std::string describe(const diagnostic& d)
{
  return "ptxw: " + rule_name(d.rule) + ": block (" + std::to_string(d.block[0]) + ","
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
  std::uint32_t capacity_;
  detail::device_array<diagnostic> records_;
  detail::device_array<std::uint32_t> count_;
  detail::device_array<sink> sink_;
  bool is_default_ = false;

public:
  // timeout_ns: how long a checked wait may take before it is reported (default: the device
  // default, PTXW_CHECKED_TIMEOUT_NS). trap: trap after recording (the kernel then fails with
  // cudaErrorIllegalInstruction and the context is lost).
  explicit diagnostics(std::uint32_t capacity = 256, std::uint64_t timeout_ns = PTXW_CHECKED_TIMEOUT_NS,
                       bool trap = false)
      : capacity_(capacity)
      , records_(capacity, "allocating diagnostics")
      , count_(1, "allocating diagnostics")
      , sink_(1, "allocating diagnostics")
  {
    const sink s{records_.get(), count_.get(), capacity, trap ? 1u : 0u, timeout_ns};
    detail::cuda_check(cudaMemcpy(sink_.get(), &s, sizeof s, cudaMemcpyHostToDevice), "initialising diagnostics");
    clear();
  }

  ~diagnostics()
  {
    if (is_default_)
    {
      const sink* none = nullptr;
      (void) cudaMemcpyToSymbol(default_sink<>, &none, sizeof none);
    }
  }
  diagnostics(const diagnostics&)            = delete;
  diagnostics& operator=(const diagnostics&) = delete;

  const sink* device_sink() const noexcept
  {
    return sink_.get();
  }

  // Makes this the sink of the operations that take none (the mbarrier types: R6, R11), until it is
  // destroyed: their reports are recorded here instead of printed with a trap. Without relocatable
  // device code (-rdc), this holds for the kernels of the translation unit that calls it.
  void make_default()
  {
    const sink* mine = sink_.get();
    detail::cuda_check(cudaMemcpyToSymbol(default_sink<>, &mine, sizeof mine), "making the default sink");
    is_default_ = true;
  }

  void clear(cudaStream_t stream = 0)
  {
    detail::cuda_check(cudaMemsetAsync(count_.get(), 0, sizeof(std::uint32_t), stream), "clearing diagnostics");
    detail::cuda_check(cudaStreamSynchronize(stream), "clearing diagnostics");
  }

  // Reports made since the last clear(), including those beyond the buffer's capacity.
  std::uint32_t count() const
  {
    std::uint32_t n = 0;
    detail::cuda_check(cudaMemcpy(&n, count_.get(), sizeof n, cudaMemcpyDeviceToHost), "reading diagnostics");
    return n;
  }

  // The recorded reports (at most capacity). Synchronous: call after the kernel finished.
  std::vector<diagnostic> read() const
  {
    const std::uint32_t n = count() < capacity_ ? count() : capacity_;
    std::vector<diagnostic> out(n);
    if (n != 0)
    {
      detail::cuda_check(cudaMemcpy(out.data(), records_.get(), sizeof(diagnostic) * n, cudaMemcpyDeviceToHost),
                         "reading diagnostics");
    }
    return out;
  }
};

} // namespace checked
PTXW_NAMESPACE_END