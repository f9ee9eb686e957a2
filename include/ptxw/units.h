// ptxw/units.h: strong types for the integers an mbarrier takes (rule R11).
//
// mbarrier.init and mbarrier.arrive count arrivals; expect_tx and complete_tx count bytes of
// asynchronous transactions. Both are .b32 in PTX and swapping them compiles in cuda::ptx and
// hangs at run time. ptxw gives each its own type with an explicit constructor, and every wrapper
// rejects anything else -- including a bare integer -- with a `ptxw: R11` diagnostic.
#pragma once

#include <ptxw/target.h>

PTXW_NAMESPACE_BEGIN
// Arrivals that complete a phase (init) or that one arrive contributes. PTX range: [1, 2^20 - 1].
struct arrivals
{
  ::cuda::std::uint32_t value;
  __host__ __device__ explicit constexpr arrivals(::cuda::std::uint32_t n) noexcept
      : value(n)
  {}
};

// Bytes of asynchronous transactions expected (expect_tx) or completed (complete_tx).
// PTX range per phase: [0, 2^20 - 1].
struct tx_bytes
{
  ::cuda::std::uint32_t value;
  __host__ __device__ explicit constexpr tx_bytes(::cuda::std::uint32_t n) noexcept
      : value(n)
  {}
};

// Upper bound, in nanoseconds, for how long one mbarrier.try_wait may suspend the thread.
struct suspend_hint
{
  ::cuda::std::uint32_t ns;
  __host__ __device__ explicit constexpr suspend_hint(::cuda::std::uint32_t nanoseconds) noexcept
      : ns(nanoseconds)
  {}
};

// Rank of a CTA in its cluster (%cluster_ctarank), the target of a remote mbarrier operation.
struct cta_rank
{
  ::cuda::std::uint32_t value;
  __host__ __device__ explicit constexpr cta_rank(::cuda::std::uint32_t r) noexcept
      : value(r)
  {}
};

namespace detail {
template <class T, class Unit>
inline constexpr bool is_unit = detail::is_same_v<remove_cvref_t<T>, Unit>;
} // namespace detail

PTXW_NAMESPACE_END