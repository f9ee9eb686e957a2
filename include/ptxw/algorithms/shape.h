// ptxw/algorithms/shape.h: the index space of the device-scope for_each -- its extents, its size, and
// op called at a linear index of it.
#pragma once

#include <ptxw/core/rules.h>

PTXW_NAMESPACE_BEGIN
namespace device {
// The extents of a Rank-dimensional index space, x first (fastest).
template <int Rank>
struct shape
{
  static_assert(Rank >= 1 && Rank <= 3, PTXW_RULE(R10) "a shape has 1, 2 or 3 dimensions");
  unsigned long long extent[Rank];
};

namespace detail {
template <int Rank>
constexpr bool volume(const shape<Rank>& s, unsigned long long& n)
{
  n = 1;
  for (unsigned long long e : s.extent)
  {
    if (e != 0 && n > ~0ull / e)
    {
      return false;
    }
    n *= e;
  }
  return true;
}

// op at linear index i of s.
template <class Index, int Rank, class Op>
__device__ void invoke(Op& op, const shape<Rank>& s, unsigned long long i)
{
  if constexpr (Rank == 1)
  {
    op(static_cast<Index>(i));
  }
  else if constexpr (Rank == 2)
  {
    op(i % s.extent[0], i / s.extent[0]);
  }
  else
  {
    const unsigned long long row = i / s.extent[0];
    op(i % s.extent[0], row % s.extent[1], row / s.extent[1]);
  }
}

} // namespace detail
} // namespace device
PTXW_NAMESPACE_END
