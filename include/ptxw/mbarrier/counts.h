// ptxw/mbarrier/counts.h: strong types for the integers an mbarrier takes (rule R11).
//
// mbarrier.init and mbarrier.arrive count arrivals; expect_tx and complete_tx count bytes of
// asynchronous transactions. Both are .b32 in PTX and swapping them compiles in cuda::ptx and
// hangs at run time. ptxw gives each its own type with an explicit constructor, and every wrapper
// rejects anything else -- including a bare integer -- with a `ptxw: R11` diagnostic.
//
// The ranges of the counts are checked in checked mode (ptxw/core/checked.h), at run time: C++17 in nvcc's
// device code cannot see the value of a constant argument (docs/rules.md, R11). One constant is
// caught at compile time: `ptxw::arrivals{0}` written with the literal 0.
#pragma once

#include <ptxw/core/checked.h>
#include <ptxw/core/target.h>

// `struct Name`: the parameter type of an operation that takes exactly a `Type`, held in `arg`. Any
// other argument converts through the refused constructor template instead, so a bare integer or
// the wrong unit is refused at the caller's line with `message` (the integer cannot become a
// `Type` on the way: a conversion sequence has at most one user-defined conversion).
#define PTXW_ONLY(Name, Type, message)                                                           \
  struct Name                                                                                  \
  {                                                                                            \
    Type arg;                                                                                  \
    __device__ Name(Type a) noexcept                                                           \
        : arg(a)                                                                               \
    {}                                                                                         \
    template <class T>                                                                         \
    PTXW_REFUSED(message) Name(T&&);                                                           \
  }

PTXW_NAMESPACE_BEGIN
namespace detail {
// A unit's integer, through a user-defined conversion: the literal 0 then prefers the pointer
// constructor of `arrivals` (a standard conversion) over this one.
struct unit_value
{
  ::cuda::std::uint32_t n;
  __host__ __device__ constexpr unit_value(::cuda::std::uint32_t v) noexcept
      : n(v)
  {}
};
struct literal_zero;
} // namespace detail

// Arrivals that complete a phase (init) or that one arrive contributes. PTX range: [1, 2^20 - 1].
struct arrivals
{
  ::cuda::std::uint32_t value;
  __host__ __device__ explicit constexpr arrivals(detail::unit_value n) noexcept
      : value(n.n)
  {}
  // The literal 0 is a null pointer constant: only it reaches this constructor.
  PTXW_REFUSED(PTXW_RULE(R11) "ptxw::arrivals{0}: a phase completes after at least one arrival (PTX "
               "range [1, 2^20 - 1])")
  explicit arrivals(detail::literal_zero*);
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
PTXW_ONLY(arrivals_arg, arrivals,
          PTXW_RULE(R11) "this count is ptxw::arrivals{n} (arrivals per phase); transaction bytes are "
          "ptxw::tx_bytes and go to expect_tx/complete_tx; qualifiers come first, as a (sem, scope) pair");
PTXW_ONLY(tx_bytes_arg, tx_bytes,
          PTXW_RULE(R11) "this count is ptxw::tx_bytes{n} (bytes of async transactions); arrival counts are "
          "ptxw::arrivals and go to init/arrive; qualifiers come first, as a (sem, scope) pair");
PTXW_ONLY(suspend_hint_arg, suspend_hint,
          PTXW_RULE(R11) "the argument after the phase is a ptxw::suspend_hint{ns}; qualifiers come first, as "
          "a (sem, scope) pair before the phase");
PTXW_ONLY(cta_rank_arg, cta_rank, PTXW_RULE(R11) "remote() takes a ptxw::cta_rank{r}");

// Checked mode: counts must lie in the PTX range [min, 2^20 - 1] (R11). A count outside it is reported
// and the caller skips the instruction: the hardware's behaviour is undefined (an expect_tx of
// 2^20 bytes can leave a later cluster kernel of the process faulting). Without checked
// mode this is `true`, and compiles away.
__device__ inline bool count_in_range(::cuda::std::uint32_t addr, ::cuda::std::uint32_t n, ::cuda::std::uint32_t min)
{
#if PTXW_CHECKED
  if (n < min || n >= (1u << 20))
  {
    checked::report(checked::default_sink<>, rule::units, addr, 0, n, " (a count out of the PTX range; detail: the count)");
    return false;
  }
#else
  (void) addr, (void) n, (void) min;
#endif
  return true;
}
} // namespace detail

PTXW_NAMESPACE_END
