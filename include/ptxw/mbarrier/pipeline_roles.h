// ptxw/mbarrier/pipeline_roles.h: who fills a ptxw::pipeline's stages, who reads them, and across
// how many CTAs -- the facts the arrival counts and the fences follow from.
//
// A stage's "full" barrier completes when every producer arrival and every byte of the copies
// into it arrived; its "empty" barrier when every consumer of every CTA whose producer writes into
// this CTA's stage released it. Users name the roles; the counts are derived here, never typed by
// hand (the wrong counts of NVIDIA/cutlass #2404 and deepseek-ai/DeepGEMM #51 cannot be written).
#pragma once

#include <ptxw/core/checked.h>
#include <ptxw/core/target.h>

PTXW_NAMESPACE_BEGIN

// How consumers read a stage. The proxy that reads decides which fences the protocol needs
// (PTX ISA, "Proxies" in the memory consistency model):
//   reads_generic: ld.shared and friends. A stage the async proxy refills (bulk copies) is then
//                  released after fence_after_slot_read and refilled after fence_before_slot_write
//                  (rule R4, as for a cluster launch control response);
//   reads_async:   the async proxy reads (wgmma operands, the source of a TMA store): no proxy
//                  crossing on release, and a stage filled by generic stores is fenced by its
//                  producer (fence.proxy.async.shared::cta) before the stage is handed over.
struct reads_generic
{};
struct reads_async
{};

// Producers.
// One elected thread arms the full barrier with the bytes that will land (arrive.expect_tx) and
// issues bulk copies (cp.async.bulk, cp.async.bulk.tensor, their multicast forms): one arrival.
struct bulk_producer
{
  static constexpr unsigned arrivals = 1;
  static constexpr bool async_writes = true;
};

// Threads threads each write part of the stage with generic stores and each hand it over: Threads
// arrivals.
template <unsigned Threads>
struct store_producer
{
  static_assert(Threads >= 1 && Threads <= 1024,
                PTXW_RULE(R18) "a store_producer has 1 to 1024 threads (the template argument Threads)");
  static constexpr unsigned arrivals = Threads;
  static constexpr bool async_writes = false;
};

// Consumers: Warps whole warps; each warp is one unit that waits together and releases once (with
// reads_generic every lane arrives, with reads_async one lane for the warp: pipeline_base.h's
// release_lanes).
template <unsigned Warps, class Reads = reads_generic>
struct consumer_warps
{
  static_assert(Warps >= 1 && Warps <= 32,
                PTXW_RULE(R18) "consumer_warps has 1 to 32 warps (the template argument Warps): a stage "
                "nobody releases is never refilled");
  static_assert(detail::is_same_v<Reads, reads_generic> || detail::is_same_v<Reads, reads_async>,
                PTXW_RULE(R10) "a consumer reads with ptxw::reads_generic or ptxw::reads_async");
  static constexpr unsigned units   = Warps;
  static constexpr unsigned threads = 32 * Warps;
  using reads                       = Reads;
};

// A warpgroup is four warps (wgmma's unit).
template <unsigned Warpgroups, class Reads = reads_generic>
using consumer_warpgroups = consumer_warps<4 * Warpgroups, Reads>;

// The CTAs one stage's copies reach. A cluster of X x Y CTAs (rank = x + y * X, as
// %cluster_ctarank numbers them) whose producers multicast along rows and columns -- a GEMM's A
// tile to the CTAs of its row, B to those of its column -- so the CTA (x, y) receives from, and
// must hear the releases of, the X + Y - 1 CTAs of its row and column (itself included).
// cluster_multicast<N> multicasts to every CTA of a 1-D cluster of N.
template <unsigned X, unsigned Y = 1>
struct cluster_multicast
{
  static_assert(X >= 1 && Y >= 1 && X * Y <= 16,
                PTXW_RULE(R18) "a cluster has 1 to 16 CTAs (X * Y of cluster_multicast<X, Y>)");
  static constexpr unsigned x = X;
  static constexpr unsigned y = Y;
  static constexpr unsigned ctas = X * Y;
  static constexpr unsigned peers = X + Y - 1;

  // The rank of this CTA's peer i, for i in [0, peers): the row first, then the rest of the column.
  __device__ static ::cuda::std::uint32_t peer(::cuda::std::uint32_t rank, ::cuda::std::uint32_t i) noexcept
  {
    const ::cuda::std::uint32_t cx = rank % X;
    const ::cuda::std::uint32_t cy = rank / X;
    if (i < X)
    {
      return i + cy * X;
    }
    const ::cuda::std::uint32_t j = i - X;
    return cx + (j < cy ? j : j + 1) * X;
  }
  // The ctaMask of a multicast copy to this CTA's row (a GEMM's A tile) and to its column (B).
  __device__ static ::cuda::std::uint16_t row_mask(::cuda::std::uint32_t rank) noexcept
  {
    return static_cast<::cuda::std::uint16_t>(((1u << X) - 1u) << (rank / X * X));
  }
  __device__ static ::cuda::std::uint16_t column_mask(::cuda::std::uint32_t rank) noexcept
  {
    ::cuda::std::uint32_t m = 0;
    for (unsigned r = 0; r < Y; ++r)
    {
      m |= 1u << (rank % X + r * X);
    }
    return static_cast<::cuda::std::uint16_t>(m);
  }
};

// One CTA: no cluster, no multicast.
using one_cta = cluster_multicast<1, 1>;

namespace detail {
template <class T>
inline constexpr bool is_producer_role = false;
template <>
inline constexpr bool is_producer_role<bulk_producer> = true;
template <unsigned T>
inline constexpr bool is_producer_role<store_producer<T>> = true;

template <class T>
inline constexpr bool is_consumer_role = false;
template <unsigned W, class R>
inline constexpr bool is_consumer_role<consumer_warps<W, R>> = true;

template <class T>
inline constexpr bool is_cluster_shape = false;
template <unsigned X, unsigned Y>
inline constexpr bool is_cluster_shape<cluster_multicast<X, Y>> = true;
} // namespace detail

PTXW_NAMESPACE_END
