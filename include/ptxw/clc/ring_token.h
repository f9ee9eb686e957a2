// ptxw/clc/ring_token.h: what a consumer warp of a response ring (ptxw/clc/ring.h) reads -- the
// move-only token that holds one stage's response and the right to release it, and the block
// index that exists only inside its decode() or behind its block() (R2, R4).
#pragma once

#include <ptxw/clc/ring_storage.h>
#include <ptxw/core/checked.h>

PTXW_NAMESPACE_BEGIN
namespace clc {

// The index of a block canceled for the caller: it exists only inside a token's decode() callback
// (R2), or behind a maybe_block that holds one.
template <class Receivers>
class ring_block : public detail::block_index<Receivers>
{
  template <class R, class D>
  friend class ring_token;
  template <class R>
  friend class maybe_block;

  struct by_decode
  {};
  __device__ ring_block(by_decode, uint3 first) noexcept
      : detail::block_index<Receivers>(first)
  {}

public:
  template <class T,
            class = ::ptxw::detail::enable_if_t<!::ptxw::detail::is_same_v<::ptxw::detail::remove_cvref_t<T>, ring_block>>>
  PTXW_REFUSED(PTXW_RULE(R2) "a ptxw::clc::ring_block comes only from a ring token's decode()")
  ring_block(T&&);
};

// A block index or none, by value: `if (auto b = token.block()) use(b.x());`. Reading the index of
// none is R2: checked mode reports it and gives 0.
template <class Receivers>
class maybe_block : checked::carried_sink
{
  uint3 first_;
  bool has_;

  template <class R, class D>
  friend class ring_token;

  __device__ maybe_block(uint3 first, bool has, const checked::sink* sink) noexcept
      : checked::carried_sink(sink)
      , first_(first)
      , has_(has)
  {}

  __device__ uint3 get() const
  {
#if PTXW_CHECKED
    if (!has_)
    {
      checked::report(carried(), rule::no_decode_of_failure, 0, 0, 0,
                      " (the block index of a ring response that failed: look at the maybe_block first)");
      return {0u, 0u, 0u};
    }
#endif
    return first_;
  }

public:
  __device__ explicit operator bool() const noexcept
  {
    return has_;
  }
  __device__ uint3 first_ctaid() const
  {
    return get();
  }
  __device__ uint3 ctaid() const
  {
    return detail::own_ctaid<Receivers>(get());
  }
  __device__ unsigned x() const
  {
    return ctaid().x;
  }
  __device__ unsigned y() const
  {
    return ctaid().y;
  }
  __device__ unsigned z() const
  {
    return ctaid().z;
  }
};

// One consumer warp's read of one stage: the response by value, and the one right to release the
// stage (ring_consumer::release). Move-only: a copy would be a second release.
template <class Receivers, class Decoder>
class ring_token : checked::carried_sink
{
  uint4 raw_;
  ::cuda::std::uint32_t stage_;
#if PTXW_CHECKED
  ::cuda::std::uint32_t step_;
  ::cuda::std::uint32_t role_;
  bool live_;
  bool read_; // false: the wait ran out (R5, R6) and read no response; its release arrives nowhere
#endif

  template <class H>
  friend class ring_consumer;

  __device__ ring_token(uint4 raw, ::cuda::std::uint32_t stage, ::cuda::std::uint32_t step, ::cuda::std::uint32_t role,
                        bool read, const checked::sink* sink) noexcept
      : checked::carried_sink(sink)
      , raw_(raw)
      , stage_(stage)
#if PTXW_CHECKED
      , step_(step)
      , role_(role)
      , live_(true)
      , read_(read)
#endif
  {
    (void) step, (void) role, (void) read;
  }

public:
  PTXW_REFUSED(PTXW_RULE(R4) "a ring token is the one right to release its stage and cannot be copied: "
               "pass it on with std::move, release it with consumer.release(std::move(token))")
  ring_token(const ring_token&);
  __device__ ring_token(ring_token&& o) noexcept
      : checked::carried_sink(o)
      , raw_(o.raw_)
      , stage_(o.stage_)
#if PTXW_CHECKED
      , step_(o.step_)
      , role_(o.role_)
      , live_(o.live_)
      , read_(o.read_)
#endif
  {
#if PTXW_CHECKED
    o.live_ = false;
#endif
  }
  PTXW_REFUSED(PTXW_RULE(R4) "a ring token is not assigned: each wait() makes its own")
  ring_token& operator=(const ring_token&);
  PTXW_REFUSED(PTXW_RULE(R4) "a ring token is not assigned: each wait() makes its own")
  ring_token& operator=(ring_token&&);

  // The stage this token releases.
  __device__ ::cuda::std::uint32_t stage() const noexcept
  {
    return stage_;
  }

  // clusterlaunchcontrol.query_cancel.is_canceled (or the software backends' same encoding).
  [[nodiscard]] __device__ bool is_canceled() const
  {
    return Decoder::canceled(raw_);
  }

  // Calls on_canceled(ptxw::clc::ring_block) if the response canceled a block for this CTA and
  // returns whether it did. false is the ring's end: every role sees it once.
  template <class OnCanceled>
  [[nodiscard]] __device__ bool decode(OnCanceled&& on_canceled) const
  {
    if (is_canceled())
    {
      on_canceled(ring_block<Receivers>(typename ring_block<Receivers>::by_decode{}, Decoder::first(raw_)));
      return true;
    }
    return false;
  }

  // The block as an optional-like value (R2: its index is read only where it holds one).
  [[nodiscard]] __device__ maybe_block<Receivers> block() const
  {
    const bool has = is_canceled();
    return maybe_block<Receivers>(has ? Decoder::first(raw_) : uint3{0u, 0u, 0u}, has, carried());
  }
};

} // namespace clc
PTXW_NAMESPACE_END
