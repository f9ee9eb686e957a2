// examples/octree/device.h: the builders' host side on ptxw's own (ptxw/core/device_array.h): device arrays
// that grow and are kept between builds, two-phase calls on kept storage, and a CUDA error as an exception
// that names the call.
#pragma once

#include <ptxw/core/device_array.h>

#define PTXW_OCTREE_CHECK(expr) ::ptxw::detail::cuda_check((expr), #expr)

namespace octree
{
using ptxw::detail::device_array;
using ptxw::detail::two_phase;
} // namespace octree
