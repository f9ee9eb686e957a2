// The tile scheduler's (ptxw/clc/tile_scheduler.h, ptxw/clc/host/tile_scheduler.h) misuse that fails to
// compile, each one `ptxw:` error naming its rule and the user's line: a tile shape, swizzle or
// cluster shape given as template arguments out of range (R18: a tile of 0 elements, a swizzle that
// is not a power of two, a cluster shape that is not one or of more than 16 CTAs), a ring of 0
// stages (R18), a dynamic policy of no backend (R10), a copied dynamic handle (R6), a ring of CTAs
// opened for a dynamic policy in clusters (R10). The same values
// at run time are host exceptions (tests/runtime/tile_scheduler_test.cu, TileSchedulerHost.*).
// REQUIRES: mbarrier-tx, target-sm_90a
// (Type-level misuse, the same on every target: checked on one.)
// RUN: %nvcc -ptx -o /dev/null %s
// RUN: not %nvcc -ptx -o /dev/null -DCASE_TILE_0 %s 2>&1 | FileCheck %s --check-prefix=TILE_0
// RUN: not %nvcc -ptx -o /dev/null -DCASE_SWIZZLE_3 %s 2>&1 | FileCheck %s --check-prefix=SWIZZLE_3
// RUN: not %nvcc -ptx -o /dev/null -DCASE_CLUSTER_3 %s 2>&1 | FileCheck %s --check-prefix=CLUSTER_3
// RUN: not %nvcc -ptx -o /dev/null -DCASE_CLUSTER_32 %s 2>&1 | FileCheck %s --check-prefix=CLUSTER_32
// RUN: not %nvcc -ptx -o /dev/null -DCASE_RING_0 %s 2>&1 | FileCheck %s --check-prefix=RING_0
// RUN: not %nvcc -ptx -o /dev/null -DCASE_NO_BACKEND %s 2>&1 | FileCheck %s --check-prefix=NO_BACKEND
// RUN: not %nvcc -ptx -o /dev/null -DCASE_COPY_HANDLE %s 2>&1 | FileCheck %s --check-prefix=COPY_HANDLE
// RUN: not %nvcc -ptx -o /dev/null -DCASE_RING_OF_CTAS %s 2>&1 | FileCheck %s --check-prefix=RING_OF_CTAS
//
// Without a CASE the file compiles: the same steps spelled correctly.

#include <ptxw/clc.h>
#include <ptxw/clc/host/tile_scheduler.h>

namespace clc = ptxw::clc;

// The roles of each kernel below, the same steps whatever its ring and policy: warp 0 schedules,
// warp 1 consumes.
template <class Tiles>
__device__ void run_roles(Tiles& tiles, unsigned* out)
{
  if (!tiles.started())
  {
    return;
  }
  if (threadIdx.x < 32)
  {
    tiles.scheduler().run(tiles.elect());
    return;
  }
  tiles.consumer(0).for_each([&](const clc::tile& t) { out[t.unit] = t.m; });
}

__global__ void tiles_rules(unsigned* out, clc::tile_schedule<clc::dynamic_tiles<>> sched)
{
  __shared__ clc::tile_ring<2, 1> ring;
  auto tiles = clc::open(ring, sched);
#if defined(CASE_COPY_HANDLE)
  // COPY_HANDLE: tile_scheduler_rules.cu([[#@LINE+2]]): error: {{.*}} was declared unavailable ("ptxw: R6 parity: a tile scheduler's handle owns its thread's part of the ring and cannot be copied
  // COPY_HANDLE: 1 error detected in the compilation of
  auto copy = tiles;
#endif
  run_roles(tiles, out);
}

#if defined(CASE_RING_0)
__global__ void ring_0(clc::tile_schedule<clc::static_tiles> sched)
{
  // RING_0: error: static assertion failed with "ptxw: R18 in range: a cluster launch control ring has 1 to 32 stages
  // RING_0: at line [[#@LINE+2]] of
  // RING_0: 1 error detected in the compilation of
  __shared__ clc::tile_ring<0, 1> ring;
  auto tiles = clc::open(ring, sched);
  (void) tiles;
}
#endif

#if defined(CASE_NO_BACKEND)
// NO_BACKEND: error: static assertion failed with "ptxw: R10 qualifiers: the backend of dynamic_tiles is
// NO_BACKEND: at line [[#@LINE+2]] of
// NO_BACKEND: 1 error detected in the compilation of
__global__ void no_backend(clc::tile_schedule<clc::dynamic_tiles<int>> sched) {}
#endif

// The cluster form: the tile_ring and the policy both in clusters.
__global__ void clustered_tiles(unsigned* out, clc::tile_schedule<clc::dynamic_tiles<clc::counter_t, clc::cluster_t>> sched)
{
#if defined(CASE_RING_OF_CTAS)
  // RING_OF_CTAS: error: static assertion failed with "ptxw: R10 qualifiers: the tile_ring's receivers are the policy's
  // RING_OF_CTAS: at line [[#@LINE+6]] of
  // RING_OF_CTAS: 1 error detected in the compilation of
  __shared__ clc::tile_ring<2, 1> ring;
#else
  __shared__ clc::tile_ring<2, 1, clc::cluster_t> ring;
#endif
  auto tiles = clc::open(ring, sched);
  run_roles(tiles, out);
}

void host_side()
{
  const std::vector<clc::problem_shape> problems = {{1000, 1000}};
  clc::tile_plan ok(problems, clc::fixed_tile_shape<128, 128>{}, clc::raster::along_n, clc::fixed_swizzle<4>{},
                    clc::fixed_cluster_shape<2, 1>{});
#if defined(CASE_TILE_0)
  // TILE_0: error: static assertion failed with "ptxw: R18 in range: a tile shape has at least one element along M and N"
  // TILE_0: at line [[#@LINE+2]] of
  // TILE_0: 1 error detected in the compilation of
  clc::tile_plan p(problems, clc::fixed_tile_shape<0, 128>{});
#endif
#if defined(CASE_SWIZZLE_3)
  // SWIZZLE_3: error: static assertion failed with "ptxw: R18 in range: a swizzle size is a power of two
  // SWIZZLE_3: at line [[#@LINE+2]] of
  // SWIZZLE_3: 1 error detected in the compilation of
  clc::tile_plan p(problems, {128, 128}, clc::raster::along_m, clc::fixed_swizzle<3>{});
#endif
#if defined(CASE_CLUSTER_3)
  // CLUSTER_3: error: static assertion failed with "ptxw: R18 in range: a tile scheduler's cluster shape is a power of two
  // CLUSTER_3: at line [[#@LINE+2]] of
  // CLUSTER_3: 1 error detected in the compilation of
  clc::tile_plan p(problems, {128, 128}, clc::raster::along_m, {}, clc::fixed_cluster_shape<3, 1>{});
#endif
#if defined(CASE_CLUSTER_32)
  // CLUSTER_32: error: static assertion failed with "ptxw: R18 in range: a tile scheduler's cluster shape is a power of two
  // CLUSTER_32: at line [[#@LINE+2]] of
  // CLUSTER_32: 1 error detected in the compilation of
  clc::tile_plan p(problems, {128, 128}, clc::raster::along_m, {}, clc::fixed_cluster_shape<8, 4>{});
#endif
}
