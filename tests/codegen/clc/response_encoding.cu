// The response every backend writes and one decoder reads, pinned at compile time: first ctaid.x in
// word 0, y | z << 16 in word 1, is_canceled in bit 0 of word 2 (ptxw/clc/geometry.h), and a grid
// numbered x fastest. The codegen checks of the emulation read only x; these catch y and z swapped,
// is_canceled read from another word, or a linear index with the wrong stride.
// RUN: %nvcc -c -o /dev/null %s

#include <ptxw/clc/geometry.h>

namespace d = ptxw::clc::detail;

constexpr uint4 canceled = d::canceled_response({5u, 6u, 7u});
static_assert(canceled.x == 5u && canceled.y == (6u | 7u << 16) && canceled.z == 1u && canceled.w == 0u);
static_assert(d::response_canceled(canceled) && !d::response_canceled(d::failure_response()));
static_assert(!d::response_canceled({0u, 0u, 0u, 1u}));
static_assert(d::response_first(canceled).x == 5u && d::response_first(canceled).y == 6u &&
              d::response_first(canceled).z == 7u);

constexpr uint3 extent = {4u, 3u, 2u};
static_assert(d::linear({1u, 2u, 1u}, extent) == 1u + 4u * (2u + 3u * 1u));
static_assert(d::unlinear(21u, extent).x == 1u && d::unlinear(21u, extent).y == 2u && d::unlinear(21u, extent).z == 1u);
