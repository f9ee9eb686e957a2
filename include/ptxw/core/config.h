// ptxw/core/config.h: the build mode, the namespace that carries it, and how a misuse is refused.
//
// PTXW_CHECKED=1 turns on checked mode (ptxw/core/checked.h): default on unless NDEBUG is defined, like
// assert. Checked and unchecked code differ in every wait and request, so the mode is part of every
// ptxw name through an inline namespace: a program that links translation units of both modes
// gets both definitions, never one of them at random (an ODR violation without it).
#pragma once

#ifndef PTXW_CHECKED
#  if defined(NDEBUG)
#    define PTXW_CHECKED 0
#  else
#    define PTXW_CHECKED 1
#  endif
#endif

#if PTXW_CHECKED
#  define PTXW_NAMESPACE_BEGIN \
    namespace ptxw             \
    {                          \
    inline namespace checked_mode \
    {
#else
#  define PTXW_NAMESPACE_BEGIN \
    namespace ptxw             \
    {                          \
    inline namespace unchecked_mode \
    {
#endif
#define PTXW_NAMESPACE_END \
  }                        \
  }

// An overload that exists only to be refused: a call that resolves to it is an error at the
// caller's own line (before any note), carrying `message`, the rule and the fix. A static_assert
// would be reported at ptxw's line, with the caller's line only at the end of the instantiation
// notes. Outside overload resolution (e.g. in a default argument) nvcc does not diagnose it: use it
// only on what a call names directly.
#define PTXW_REFUSED(message) __attribute__((unavailable(message)))

// R17's refusal of a default-made object that only its host makes, pointing at the memory the host
// owns and initialised (a work_queue, a last_block_ticket): its default constructor. A template, so
// that only a use fails, with `message` (the rule's prefix added) and the user's line in the
// instantiation notes; a declaration nobody calls, or a member nobody default-initialises, compiles.
#define PTXW_ONLY_FROM_HOST(Type, message)                                              \
  template <class Deferred = void>                                                      \
  __host__ __device__ Type()                                                            \
  {                                                                                     \
    static_assert(::ptxw::detail::dependent_false<Deferred>, PTXW_RULE(R17) message);   \
  }
