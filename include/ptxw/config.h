// ptxw/config.h: the build mode, and the namespace that carries it.
//
// PTXW_CHECKED=1 turns on checked mode (ptxw/checked.h): default on unless NDEBUG is defined, like
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
