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
#include <ptxw/detail/host.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

PTXW_NAMESPACE_BEGIN
namespace checked {

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
    case 13:
      return "R13 the grid has more dimensions than for_each_canceled_block's Rank";
    case 14:
      return "R14 the launch is not the prepared grid or a prefix of it";
    case 15:
      return "R15 not every thread of the block called (observed: how many did), or a block called last_block twice "
             "(phase 2)";
    case 16:
      return "R16 a last-block ticket used by a second launch while another uses it (observed: its %gridid)";
    case 17:
      return "R17 a ticket or queue whose memory was not initialised (observed: the tag found)";
    case 18:
      return "R18 more blocks than the ticket's count type counts (observed: the high word of the count)";
    case 19:
      return "R19 the item of a fetch that returned no item";
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
  std::uint32_t capacity_;
  detail::device_array<diagnostic> records_;
  detail::device_array<std::uint32_t> count_;
  detail::device_array<sink> sink_;

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

  const sink* device_sink() const noexcept
  {
    return sink_.get();
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