// benchmarks/octree/cdp.h: baseline B3, the build a reader of the CUDA programming guide writes with
// dynamic parallelism (CDP2): a kernel per node splits it eight ways and launches a kernel per child
// of more than T particles. B3+ finishes nodes of at most S = 4096 particles in one block with the
// shared-memory finish (finish.h), as B1+ and the dynamic builder do. The kernels are in cdp.cu,
// compiled on their own with relocatable device code (a device-side launch needs -rdc and
// cudadevrt); this header is host code only, so the programs that include it keep whole-program
// compilation.
#pragma once

#include <cstdint>
#include <string>

#include "../harness.h"
#include "dynamic.h"
#include "output.h"

namespace ptxw_bench::octree
{

struct cdp_job; // a node split by grids: its octant counts and cursors
struct cdp_errors; // device launches that failed: how many, the first error

class cdp_build
{
  bool finish_;
  std::uint32_t chunk_;
  device_array<cdp_job> jobs_;
  device_array<std::uint32_t> jobs_used_;
  device_array<cdp_errors> errors_;

public:
  // chunk: C, as the dynamic builder's (tests make it small, so that small inputs have big nodes).
  explicit cdp_build(bool finish, std::uint32_t chunk = default_chunk);

  const char* name() const
  {
    return finish_ ? "B3+" : "B3";
  }

  // A build of n > T particles into buf/out; raises the device runtime's pending-launch limit
  // first where this build may need more than it is.
  void run(const buffers& buf, const leaf_out& out, std::uint32_t n, std::uint32_t t);

  // Device-side launches of the last build that failed (empty: none); a failed launch loses its
  // node's particles, which the leaf check sees too, but this says why.
  std::string failures() const;
};

} // namespace ptxw_bench::octree
