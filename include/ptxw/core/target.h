// ptxw/core/target.h: what the current compilation targets, and the gates built on it.
//
// Every wrapper states its own availability with a static_assert on `ptxw::detail::supports<...>`
// (rule R9: an instruction compiles only for targets whose ptxas accepts it). The gates read the
// macros nvcc defines per device pass; in the host pass every gate is open, because device code is
// checked where it is compiled for a target. Gates are dependent on a template parameter so that
// they fire only when a wrapper is instantiated, never merely because a header was included.
#pragma once

#include <ptxw/core/rules.h>

// cuda::ptx one instruction family at a time, where this CCCL has a header per family: against
// them a small kernel compiles in half the time it takes with the whole of <cuda/ptx>.
#if __has_include(<cuda/__ptx/instructions/mbarrier_init.h>)
#  define PTXW_CCCL_FAMILY_HEADERS 1
#  include <cuda/__ptx/ptx_dot_variants.h>
#else
#  define PTXW_CCCL_FAMILY_HEADERS 0
#  include <cuda/ptx>
#endif
#include <cuda/std/cstdint>

PTXW_NAMESPACE_BEGIN
namespace ptx = ::cuda::ptx;

namespace target {

#if defined(__CUDA_ARCH__)
inline constexpr bool device_pass = true;
// 90 for sm_90/sm_90a, 100 for sm_100*, 103, 110, 120, 121, ...
inline constexpr int sm = __CUDA_ARCH__ / 10;
#else
inline constexpr bool device_pass = false;
inline constexpr int sm = 0;
#endif

// sm_XXa: the arch-specific feature set of exactly that GPU.
#if defined(__CUDA_ARCH_SPECIFIC__)
inline constexpr bool arch_specific = true;
#else
inline constexpr bool arch_specific = false;
#endif

// sm_XXf (and sm_XXa, which implies it): the feature set shared by a GPU family.
#if defined(__CUDA_ARCH_FAMILY_SPECIFIC__)
inline constexpr bool family_specific = true;
#else
inline constexpr bool family_specific = false;
#endif

// PTX ISA version the toolchain emits, as CCCL computes it (e.g. 870 for ISA 8.7).
inline constexpr int ptx_isa = static_cast<int>(__cccl_ptx_isa);

} // namespace target

namespace detail {

template <class...>
inline constexpr bool dependent_true = true;

template <class...>
inline constexpr bool dependent_false = false;

// Gates fire at instantiation, never because a header was included: a wrapper that is not a
// template otherwise takes `class Deferred = void` and names its types through dependent_t<T,
// Deferred> (T, but dependent), so that its static_asserts wait until it is used.
template <class T, class... Deferred>
struct dependent_type
{
  using type = T;
};
template <class T, class... Deferred>
using dependent_t = typename dependent_type<T, Deferred...>::type;

// True in the host pass. In a device pass: the target is sm_<MinSm> or newer and the toolchain
// speaks PTX ISA <MinIsa> or newer. `Deferred` only delays evaluation to instantiation.
template <int MinSm, int MinIsa, class... Deferred>
inline constexpr bool supports =
  dependent_true<Deferred...> && (!target::device_pass || (target::sm >= MinSm && target::ptx_isa >= MinIsa));

// The few type traits ptxw needs, spelled here: <cuda/std/type_traits> alone costs a small kernel
// more compile time than the rest of ptxw and its cuda::ptx headers together.
template <class T, class U>
inline constexpr bool is_same_v = false;
template <class T>
inline constexpr bool is_same_v<T, T> = true;

template <class T, class... Ts>
inline constexpr bool is_one_of = (is_same_v<T, Ts> || ...);

template <bool B, class T, class F>
struct conditional
{
  using type = T;
};
template <class T, class F>
struct conditional<false, T, F>
{
  using type = F;
};

template <class T>
struct remove_cvref
{
  using type = T;
};
template <class T>
struct remove_cvref<T&> : remove_cvref<T>
{};
template <class T>
struct remove_cvref<T&&> : remove_cvref<T>
{};
template <class T>
struct remove_cvref<const T> : remove_cvref<T>
{};
template <class T>
struct remove_cvref<volatile T> : remove_cvref<T>
{};
template <class T>
struct remove_cvref<const volatile T> : remove_cvref<T>
{};
template <class T>
using remove_cvref_t = typename remove_cvref<T>::type;

template <bool B, class T = void>
struct enable_if
{};
template <class T>
struct enable_if<true, T>
{
  using type = T;
};
template <bool B, class T = void>
using enable_if_t = typename enable_if<B, T>::type;

} // namespace detail
PTXW_NAMESPACE_END