// The two roles of the pipeline tests' rings, written once: warp 0 produces, the other warps
// consume, each role loops over `tiles` steps; what a step does is the test's (load_tile: the
// usual fill of a bulk producer's stage).
//   fill(stage, t)             the producer's step on its acquired stage, before the commit
//   use(consumer, stage, t)    a consumer warp's step on its stage, before the release
#pragma once

#include <ptxw/mbarrier.h>

#include <cstddef>
#include <utility>

// One role's steps.
template <class Producer, class Fill>
__device__ void producer_loop(Producer& prod, unsigned tiles, Fill& fill)
{
  for (unsigned t = 0; t < tiles; ++t)
  {
    auto s = prod.acquire();
    fill(s, t);
    prod.commit(std::move(s));
  }
}

template <class Pipe, class Use>
__device__ void consumer_loop(const Pipe& p, unsigned tiles, Use& use)
{
  auto cons = p.consumer();
  for (unsigned t = 0; t < tiles; ++t)
  {
    auto s = cons.wait();
    use(cons, s, t);
    cons.release(std::move(s));
  }
}

// A bulk producer's fill of a whole stage: armed for the tile's bytes, then one bulk copy of the
// tile from `from`.
template <class Stage, class T, std::size_t N>
__device__ void load_tile(Stage& s, T (&tile)[N], const T* from)
{
  s.arm(ptxw::tx_bytes{sizeof(tile)});
  s.copy(tile, from, ptxw::tx_bytes{sizeof(tile)});
}

// A bulk producer: warp 0's elected lane.
template <class Pipe, class Fill, class Use>
__device__ void bulk_roles(const Pipe& p, unsigned tiles, Fill&& fill, Use&& use)
{
  if (threadIdx.x >= 32)
  {
    consumer_loop(p, tiles, use);
  }
  else if (auto e = ptxw::elect_one_of_warp())
  {
    auto prod = p.producer(e);
    producer_loop(prod, tiles, fill);
  }
}

// A store producer: every thread of warp 0.
template <class Pipe, class Fill, class Use>
__device__ void store_roles(const Pipe& p, unsigned tiles, Fill&& fill, Use&& use)
{
  if (threadIdx.x >= 32)
  {
    consumer_loop(p, tiles, use);
    return;
  }
  auto prod = p.producer();
  producer_loop(prod, tiles, fill);
}
