// ptxw/clc/tile_scheduler.h: a persistent tile scheduler -- the loop a warp-specialised persistent
// GEMM runs in every role -- over the tiles of one problem or of a list of problems (grouped GEMM,
// ptxw/clc/tile_space.h), with one interface and two policies:
//
//   static_tiles        CTA (cluster) c of G takes units c, c + G, c + 2G, ... of a persistent launch
//                       of as many CTAs as the GPU holds at once: no communication, each role
//                       computes the sequence itself (CUTLASS's PersistentTileSchedulerSm90);
//   dynamic_tiles<B>    one block per unit (dynamic_tiles<B, cluster_t>: one cluster), handed out
//                       by cluster launch control: the hardware on sm_100 and newer (one try_cancel
//                       per tile), counter_t or the faithful emulation on Hopper
//                       (ptxw/clc/backend_table.h) -- through clc::ring, so that one scheduler warp
//                       requests ahead and every role reads the same tiles in the same order
//                       (CUTLASS's PersistentTileSchedulerSm100 with PipelineCLCFetchAsync);
//                       with a static head (tile_scheduler::set_dynamic_tail) the resident blocks
//                       first take the static policy's units and only the last waves are requested.
//
//   template <class Policy>
//   __global__ void gemm(params p, ptxw::clc::tile_schedule<Policy> sched)   // 1 + 3 warps
//   {
//     __shared__ ptxw::clc::tile_ring<2, 3> ring;      // depth 2, 3 consumer warps (static: unused)
//     auto tiles = ptxw::clc::open(ring, sched);       // collective
//     if (!tiles.started()) return;                    // a canceled CTA (emulation) skips the prologue
//     prologue();                                      // barriers, descriptors: only in CTAs that run
//     const unsigned warp = threadIdx.x / 32;
//     if (warp == 0) { tiles.scheduler().run(tiles.elect()); return; }   // static: returns at once
//     tiles.consumer(warp - 1).for_each([&](ptxw::clc::tile t) { work(t.problem, t.m, t.n); });
//   }
//
// Every role (consumer warp) of a CTA gets the same tiles in the same order, the end once; every
// unit of the space goes to exactly one CTA (cluster). The host side -- the space's prefix sums and
// dividers, the validation of the problem list, the launch -- is ptxw/clc/host/tile_scheduler.h.
//
// The dynamic policy inherits the ring's rules and checked-mode reports (docs/clc-ring.md). A space
// with a cluster shape is scheduled by the ring's cluster form: dynamic_tiles<Backend, cluster_t>
// and a tile_ring<Depth, Consumers, cluster_t>, one answer a cluster, each CTA the tile of its rank
// (R10 where the ring and the policy disagree, at compile time; where the space's cluster shape and
// the policy do, at prepare()). Both policies' run-time rule is the launch (R14): a one-dimensional
// grid in clusters of the space's cluster shape, which checked mode verifies once per launch.
#pragma once

#include <ptxw/clc/dynamic_tiles.h>
#include <ptxw/clc/static_tiles.h>
