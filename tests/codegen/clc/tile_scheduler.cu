// The persistent tile scheduler (ptxw/clc/tile_scheduler.h), compiled: no local memory under either
// policy, however many problems the space has (the cursor and the binary search live in
// registers). Static policy: no barrier, no atomic and no shared memory -- each unit is the
// cursor's compare and a few integer instructions (two multiply-highs for the strip and the
// position in it, selects for the narrower last strip), and a unit of another problem a binary
// search of global loads. Dynamic policy: the ring's protocol (tests/codegen/clc/ring.cu) with the
// same decoding after each read; on sm_100a one UGETNEXTWORKID per unit from the scheduler warp's
// elected lane, no waterfall loop.
// REQUIRES: mbarrier-tx, family-representative
// RUN: %ptxw-compile %s -o %t
// RUN: %sass-check %s --input-file=%t.sass

#include <ptxw/clc.h>

namespace clc = ptxw::clc;

// Each role records the tiles it ran: one store per tile from lane 0 of each consumer warp.
template <class Policy>
__device__ void tile_kernel(unsigned* out, const clc::tile_schedule<Policy>& sched)
{
  __shared__ clc::tile_ring<2, 3> ring;
  auto tiles = clc::open(ring, sched);
  if (!tiles.started())
  {
    return;
  }
  const unsigned warp = threadIdx.x / 32;
  if (warp == 0)
  {
    tiles.scheduler().run(tiles.elect());
    return;
  }
  tiles.consumer(warp - 1).for_each([&](const clc::tile& t) {
    if (threadIdx.x % 32 == 0)
    {
      out[t.unit * 3 + warp - 1] = t.problem << 24 | t.m << 12 | t.n;
    }
  });
}

extern "C" __global__ void static_tiles(unsigned* out, clc::tile_schedule<clc::static_tiles> sched)
{
  tile_kernel(out, sched);
}
extern "C" __global__ void counter_tiles(unsigned* out, clc::tile_schedule<clc::dynamic_tiles<clc::counter_t>> sched)
{
  tile_kernel(out, sched);
}
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000
extern "C" __global__ void hw_tiles(unsigned* out, clc::tile_schedule<clc::dynamic_tiles<clc::hardware_t>> sched)
{
  tile_kernel(out, sched);
}
#endif

// Static, every target: no local memory, no barrier, no shared memory, no atomic. A unit of the
// cursor's problem is straight-line code: the strip's multiply-high, the position's (its divider
// selected for the narrower last strip), the store -- no load and no branch between them. A unit
// of another problem is the binary search's loop of global loads, then the record's 16-byte loads.
// SASS-LABEL: Function : static_tiles{{$}}
// SASS-NOT:   {{LDL|STL|BAR|SYNCS|ATOM|RED|LDS|STS}}
// SASS:       IMAD.HI.U32
// SASS-NOT:   {{LDG|BRA|LDL|STL}}
// SASS:       IMAD.HI.U32
// SASS-NOT:   {{LDG|BRA|LDL|STL}}
// SASS:       STG.E
// SASS-NOT:   {{LDL|STL|BAR|SYNCS|ATOM|RED|LDS|STS}}
// SASS:       LDG.E.128
// SASS-NOT:   {{LDL|STL|BAR|SYNCS|ATOM|RED|LDS|STS}}
//
// Dynamic on counter_t: the ring's claims and the same decoding, no local memory.
// SASS-LABEL: Function : counter_tiles{{$}}
// SASS-NOT:   {{LDL|STL}}
//
// Dynamic on the hardware (sm_100a): each consumer warp's one LDS.128 of a response, then the
// decoding; the scheduler warp elects its lane once and issues one UGETNEXTWORKID per unit from
// it (the only one in the kernel, no BRA.U.ANY waterfall).
// SASS-SM100A-LABEL: Function : hw_tiles{{$}}
// SASS-SM100A-NOT:   {{LDL|STL|BRA.U.ANY|UGETNEXTWORKID}}
// SASS-SM100A:       LDS.128
// SASS-SM100A-NOT:   {{LDL|STL|UGETNEXTWORKID}}
// SASS-SM100A:       IMAD.HI.U32
// SASS-SM100A-NOT:   {{LDL|STL|UGETNEXTWORKID}}
// SASS-SM100A:       ELECT P[[W:[0-9]]], URZ, PT ;
// SASS-SM100A-NOT:   {{LDL|STL|UGETNEXTWORKID}}
// SASS-SM100A:       @!P[[W]] BRA
// SASS-SM100A-NOT:   {{LDL|STL|BRA.U.ANY}}
// SASS-SM100A-COUNT-1: UGETNEXTWORKID.SELFCAST [UR{{[0-9]+}}], [UR{{[0-9]+}}] ;
// SASS-SM100A-NOT:   {{LDL|STL|BRA.U.ANY|UGETNEXTWORKID}}
