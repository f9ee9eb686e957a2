// examples/octree/cdp.h: baseline cdp, the build a reader of the CUDA programming guide writes with
// dynamic parallelism (CDP2): a kernel per node splits it eight ways and launches a kernel per child
// of more than T particles. cdp+finish finishes nodes of at most S = 4096 particles in one block with the
// shared-memory finish (finish.h), as level loop+finish and the dynamic builder do. The kernels are in cdp.cu,
// compiled on their own with relocatable device code (a device-side launch needs -rdc and
// cudadevrt); this header is host code only, so the programs that include it keep whole-program
// compilation.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "dynamic.h"
#include "output.h"

namespace octree
{

struct cdp_job; // a node split by grids: its octant counts and cursors
struct cdp_errors; // device launches that failed: how many, the first error

class cdp_build
{
  // The builds' device arrays, in cdp.cu: ptxw's device_array is in the namespace of the checked mode a
  // translation unit is built in, and cdp.cu's need not be its includers'.
  struct arrays;
  bool finish_;
  std::uint32_t chunk_;
  std::unique_ptr<arrays> arrays_;

public:
  // chunk: C, as the dynamic builder's (tests make it small, so that small inputs have big nodes).
  explicit cdp_build(bool finish, std::uint32_t chunk = default_chunk);
  ~cdp_build();

  const char* name() const
  {
    return finish_ ? "cdp+finish" : "cdp";
  }

  // A build of n > T particles into buf/out; raises the device runtime's pending-launch limit
  // first where this build may need more than it is.
  void run(const buffers& buf, const leaf_out& out, std::uint32_t n, std::uint32_t t);

  // Device-side launches of the last build that failed (empty: none); a failed launch loses its
  // node's particles, which the leaf check sees too, but this says why.
  std::string failures() const;
};

} // namespace octree
