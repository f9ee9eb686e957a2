// What the refs of the remote (shared::cluster) forms share: the address of rank's copy of a
// shared::cta barrier, by mapa.shared::cluster as inline PTX (cuda::ptx has only the generic mapa).
#pragma once

#include "qualifiers.h"

__device__ inline uint32_t ref_mapa(uint64_t* bar, unsigned rank)
{
  uint32_t remote;
  asm("mapa.shared::cluster.u32 %0, %1, %2;"
      : "=r"(remote)
      : "r"(static_cast<uint32_t>(__cvta_generic_to_shared(bar))), "r"(rank));
  return remote;
}
