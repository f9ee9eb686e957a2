// ptxw/clc/ring_storage.h: the shared-memory end of a cluster launch control response ring
// (ptxw/clc/ring.h) -- clc::ring, which users declare __shared__, the stages and barriers it holds,
// the range of its Depth and Consumers, and the declarations the roles' headers share.
#pragma once

#include <ptxw/clc/handle.h>
#include <ptxw/clc/ring_checks.h>
#include <ptxw/core/checked.h>
#include <ptxw/mbarrier/pipeline_state.h>

PTXW_NAMESPACE_BEGIN
namespace clc {
namespace detail {
// The depth a ring is built with: Depth where it is in range, else 1, so that a depth out of range
// makes one error, the ring's R18, and nothing else.
template <unsigned Depth>
inline constexpr unsigned ring_stages = ::ptxw::detail::stage_count_in_range<Depth> ? Depth : 1u;

template <unsigned Consumers>
inline constexpr bool consumer_count_in_range = Consumers >= 1 && Consumers <= 32;

// The empty barrier's arrival count: every lane of every consumer warp that reads the stage
// (ring_consumer::release says why every lane). In the cluster form the leader CTA's empty barrier
// is the one waited for, and the consumers of every CTA of the cluster release to it (the answer
// overwrites every CTA's copy of the stage).
template <unsigned Consumers, class Receivers>
__device__ ::cuda::std::uint32_t releases_per_stage()
{
  return Consumers * 32u * (is_cluster<Receivers> ? destinations<Receivers>() : 1u);
}

template <unsigned Depth, class Receivers>
struct ring_storage
{
  slot_storage<Receivers> stage[Depth]; // the response and its "full" barrier, per stage
  barrier_for<Receivers> empty[Depth]; // completes when every consumer warp released the stage
#if PTXW_CHECKED
  ring_checks<Depth> checks;
#endif
};
} // namespace detail

template <unsigned Depth, unsigned Consumers, class Receivers, class Backend>
class ring_handle;
template <class Handle>
class ring_scheduler;
template <class Handle>
class ring_consumer;
template <class Receivers, class Decoder>
class ring_token;
template <unsigned Depth, unsigned Consumers, class Receivers = cta_t>
class ring;
template <unsigned Depth, unsigned Consumers, class Receivers, class Backend>
__device__ ring_handle<Depth, Consumers, Receivers, Backend> open(ring<Depth, Consumers, Receivers>&,
                                                                  const context<Backend>&);

// The shared-memory end of a response ring: Depth stages, each read by Consumers warps. Declare it
// __shared__ and pass it to open(); its contents are reachable only through the roles.
template <unsigned Depth, unsigned Consumers, class Receivers>
class ring
{
  static_assert(::ptxw::detail::stage_count_in_range<Depth>,
                PTXW_RULE(R18) "a cluster launch control ring has 1 to 32 stages (the template argument Depth)");
  static_assert(detail::consumer_count_in_range<Consumers>,
                PTXW_RULE(R18) "a cluster launch control ring is read by 1 to 32 consumer warps (the template "
                "argument Consumers): a stage nobody releases is never requested into again");
  static_assert(::ptxw::detail::is_same_v<Receivers, cta_t> || ::ptxw::detail::is_same_v<Receivers, cluster_t>,
                PTXW_RULE(R10) "a cluster launch control ring's responses go to ptxw::clc::cta_t or cluster_t");

  detail::ring_storage<detail::ring_stages<Depth>, Receivers> storage_;

  template <unsigned D, unsigned C, class R, class B>
  friend class ring_handle;
};

} // namespace clc
PTXW_NAMESPACE_END
