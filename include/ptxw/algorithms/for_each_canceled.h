// ptxw/algorithms/for_each_canceled.h: op(index) for every index of a 1D, 2D or 3D shape, scheduled by
// ptxw's work stealing -- the device-scope call of for_each_canceled_block, in CUB's conventions.
//
//   std::size_t bytes = 0;
//   ptxw::device::for_each_canceled(nullptr, bytes, n, op);             // size query
//   ptxw::device::for_each_canceled(temp, bytes, n, op, stream);        // op(i), i in [0, n)
//   ptxw::device::for_each_canceled(temp, bytes, ptxw::device::shape<2>{{nx, ny}}, op2);   // op2(x, y)
//   ptxw::device::for_each_canceled(n, op, ptxw::device::env{stream});  // both phases, cudaMallocAsync
//
// Like cub::DeviceFor::ForEachN, op is called once per index, from any thread, in no particular
// order, and must not synchronise with other threads (it runs in divergent code). Unlike it, the
// indices are not dealt out statically: CTAs steal tiles of the index space by cluster launch
// control (hardware on sm_100 and newer, counter_t on sm_90), and inside a tile each thread walks
// its own indices (algorithms/for_each_tiles.h). docs/device.md has the figures against CUB on real
// work, where this wins and where it loses, and how the default was chosen.
//
// The scheduler's memory (the counter; the emulation's claims and responses) comes from the
// temporary storage. Errors, before anything is written or launched:
//   cudaErrorInvalidValue    a temporary storage smaller than the size query reported; a shape
//                            whose indices overflow 64 bits, or with more tiles than a grid holds
//                            (2^31 - 1); a negative n
//   cudaErrorInvalidDevice   a stream of another device than the current one
//   cudaErrorInvalidDeviceFunction  the build has no cubin for the device (its policy is unknown)
// An empty shape is a valid no-op that launches nothing. Otherwise the launch's error.
#pragma once

#include <ptxw/algorithms/env.h>
#include <ptxw/algorithms/for_each_tiles.h>
#include <ptxw/algorithms/temp_storage.h>

#include <cuda/std/type_traits>

PTXW_NAMESPACE_BEGIN
namespace device {
namespace detail {
// The scheduler's memory: counters (2 x u64), the emulation's claims (u32 per unit) and responses
// (uint4 per unit).
template <class Selector>
constexpr temp_layout<3> for_each_layout(unsigned long long n)
{
  // At a tile per row: the most tiles any device can be given.
  const unsigned long long units = claiming_units<Selector>(n, [](const for_each_policy& p, unsigned long long m) {
    return (rows(p, m) + p.cluster - 1) / p.cluster;
  });
  return {{2 * sizeof(unsigned long long), units * sizeof(::cuda::std::uint32_t), units * sizeof(uint4)}};
}

template <class Selector, int I>
constexpr bool check_for_each_policy()
{
  constexpr for_each_policy p = policy_at<Selector>(I);
  static_assert(p.block_threads >= 32 && p.block_threads <= 1024 && p.block_threads % 32 == 0,
                PTXW_RULE(R18) "a for_each_policy's block_threads is a multiple of 32 in [32, 1024]");
  static_assert(p.rounds >= 1 && p.cluster >= 1 && p.cluster <= 8,
                PTXW_RULE(R18) "a for_each_policy has rounds >= 1 and a cluster of 1 to 8 CTAs");
  static_assert(p.waves >= 1 && p.occupancy >= 0,
                PTXW_RULE(R18) "a for_each_policy has waves >= 1 and an occupancy >= 0 (0: as ptxas chooses)");
  static_assert(p.shared_rounds >= 0 && p.shared_rounds <= p.rounds,
                PTXW_RULE(R18) "a for_each_policy shares 0 to rounds of a tile's rounds");
  static_assert(build_archs[I] / 10 >= clc::detail::first_sm<p.backend>(),
                PTXW_RULE(R9) "the selector picks a backend the architecture does not have: "
                "for_each_canceled needs sm_90, its hardware backend sm_100 or newer");
  return true;
}

template <class Selector, class Index, int Rank, class Op>
cudaError_t for_each_run(void* (&parts)[3], const shape<Rank>& s, unsigned long long n, Op& op, cudaStream_t stream)
{
  return dispatch_on_device<Selector>(stream, [&](auto arch, int device) -> cudaError_t {
    constexpr int I = decltype(arch)::value;
    static_assert(check_for_each_policy<Selector, I>());
    return for_each_tiles<Selector, I, Index>(parts, s, n, op, stream, device);
  });
}
// Both forms' steps, in the order of the header's errors.
template <class Selector, class Index, int Rank, class Op>
cudaError_t for_each_two_phase(void* d_temp_storage, std::size_t& temp_storage_bytes, const shape<Rank>& s, Op& op,
                               cudaStream_t stream)
{
  unsigned long long n = 0;
  if (!volume(s, n))
  {
    return cudaErrorInvalidValue;
  }
  for (int i = 0; i < build_arch_count; ++i)
  {
    if (const for_each_policy p = policy_at<Selector>(i); rows(p, n) / p.rounds >= 0x7fffffffull)
    {
      return cudaErrorInvalidValue;
    }
  }
  void* parts[3];
  if (const cudaError_t err = two_phase(for_each_layout<Selector>(n), d_temp_storage, temp_storage_bytes, parts);
      err != cudaSuccess || d_temp_storage == nullptr || n == 0)
  {
    return err;
  }
  return for_each_run<Selector, Index>(parts, s, n, op, stream);
}
} // namespace detail

// op(x[, y[, z]]) for every index of s; the two-phase call.
template <class Selector = for_each_selector, int Rank, class Op>
cudaError_t for_each_canceled(void* d_temp_storage, std::size_t& temp_storage_bytes, shape<Rank> s, Op op,
                              cudaStream_t stream = 0)
{
  return detail::for_each_two_phase<Selector, unsigned long long>(d_temp_storage, temp_storage_bytes, s, op, stream);
}

// op(i) for i in [0, num_items), i of NumItems' type, as cub::DeviceFor::ForEachN.
template <class Selector = for_each_selector, class NumItems, class Op,
          ::cuda::std::enable_if_t<::cuda::std::is_integral_v<NumItems>, int> = 0>
cudaError_t for_each_canceled(void* d_temp_storage, std::size_t& temp_storage_bytes, NumItems num_items, Op op,
                              cudaStream_t stream = 0)
{
  shape<1> s{};
  if (!detail::item_count(num_items, s.extent[0]))
  {
    return cudaErrorInvalidValue;
  }
  return detail::for_each_two_phase<Selector, NumItems>(d_temp_storage, temp_storage_bytes, s, op, stream);
}

// Both phases, with temporary storage from e.resource.
template <class Selector = for_each_selector, class Extent, class Op, class Resource = stream_ordered_resource>
cudaError_t for_each_canceled(Extent extent, Op op, env<Resource> e = {})
{
  return detail::with_temp_storage(e, [&](void* d_temp_storage, std::size_t& bytes) {
    return for_each_canceled<Selector>(d_temp_storage, bytes, extent, op, e.stream);
  });
}
} // namespace device
PTXW_NAMESPACE_END
