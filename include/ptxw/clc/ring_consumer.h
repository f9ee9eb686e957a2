// ptxw/clc/ring_consumer.h: the consumer role of a response ring (ptxw/clc/ring.h) -- a warp that
// waits for each stage's response, reads it once into a token and releases the stage (R4), and
// for_each, its whole life.
#pragma once

#include <ptxw/clc/handle.h>
#include <ptxw/clc/ring_checks.h>
#include <ptxw/clc/ring_storage.h>
#include <ptxw/clc/ring_token.h>
#include <ptxw/core/checked.h>
#include <ptxw/core/elect.h>
#include <ptxw/mbarrier/pipeline_state.h>

PTXW_NAMESPACE_BEGIN
namespace clc {

// A consumer warp's role: reads every response of the ring in order, releasing each stage after it.
template <class Handle>
class ring_consumer
{
  using backend_impl = typename Handle::backend_impl;
  using token        = typename Handle::token;
  using receivers    = typename Handle::receivers_type;

  Handle* h_;
  pipeline_state<Handle::stages> st_; // the next stage; parity: of its full barrier's phase
#if PTXW_CHECKED
  ::cuda::std::uint32_t role_;
  bool valid_;
#endif

  template <unsigned D, unsigned C, class R, class B>
  friend class ring_handle;

  __device__ ring_consumer(Handle& h, unsigned role)
      : h_(&h)
      , st_(pipeline_state<Handle::stages>::for_consumer())
#if PTXW_CHECKED
      , role_(role)
      , valid_(detail::ring_consumer_open<Handle::consumers>(h.stage_address(0), role, h.ctx_.sink))
#endif
  {
    (void) role;
  }

  __device__ ::cuda::std::uint32_t step() const
  {
    return st_.steps();
  }

  __device__ ::cuda::std::uint32_t role() const
  {
#if PTXW_CHECKED
    return role_;
#else
    return 0;
#endif
  }

public:
  PTXW_REFUSED(PTXW_RULE(R6) "a ring consumer owns its place in the ring and cannot be copied; pass it by "
               "reference")
  ring_consumer(const ring_consumer&);
  ring_consumer& operator=(const ring_consumer&) = delete;

  // Every lane of the warp: waits for the next stage's response, reads it once and releases the
  // slot to the async proxy (R4), and returns it as a token, which release() takes back.
  [[nodiscard]] __device__ token wait()
  {
    uint4 raw                         = detail::failure_response();
    const ::cuda::std::uint32_t stage = st_.index();
    const ::cuda::std::uint32_t at    = step();
    bool read                         = true;
    if constexpr (Handle::target_ok)
    {
      Handle& h = *h_;
      phase unused; // the ring's phases are st_'s
      if (!h.backend_.receive(h.s_->stage[stage], h.ctx_.state, unused, raw, [&](auto& bar, phase&) {
            return h.wait_parity(bar, st_.parity());
          }))
      {
#if PTXW_CHECKED
        const unsigned lanes = __activemask();
        if (ptx::get_sreg_laneid() == static_cast<unsigned>(__ffs(lanes) - 1))
        {
          detail::ring_wait_timed_out(h.s_->checks, h.stage_address(stage), stage, at, role(), h.ctx_.sink);
        }
#endif
        raw  = detail::failure_response();
        read = false;
      }
    }
    st_.advance();
    return token(raw, stage, at, role(), read, h_->ctx_.sink);
  }

  // Every lane of the warp, with the token its wait() returned: every lane arrives on the stage's
  // empty barrier, this CTA's (release semantics) or in the cluster form the leader CTA's
  // (release.cluster), a count of 32 per warp. Each lane's own release puts its read before the
  // next answer's write, as CUTLASS's PipelineCLCFetchAsync releases per thread; one lane's arrival
  // after __syncwarp orders them too under the PTX memory model, but compute-sanitizer's racecheck
  // orders only the arriving thread's accesses and reports the others' (ptxw::pipeline's
  // release_lanes, docs/pipelines.md).
  // Checked mode records the release once for the warp before the arrivals, and a token whose wait
  // ran out (R5, R6: it read nothing) releases nothing: its arrival would complete the stage's
  // release of the round before.
  __device__ void release(token&& t)
  {
    if constexpr (Handle::target_ok)
    {
      Handle& h = *h_;
#if PTXW_CHECKED
      __syncwarp(); // the lanes that hold the token meet: the first records the warp's release
      const unsigned lanes = __activemask();
      const unsigned first = static_cast<unsigned>(__ffs(lanes) - 1);
      bool arrive          = false;
      if (ptx::get_sreg_laneid() == first)
      {
        arrive = valid_
              && detail::ring_release(h.s_->checks, h.stage_address(t.stage_), t.stage_, t.step_, role_, t.role_,
                                      t.live_, t.read_, h.ctx_.sink);
      }
      t.live_ = false;
      if (!__shfl_sync(lanes, arrive, first))
      {
        return;
      }
#endif
      if constexpr (detail::is_cluster<receivers>)
      {
        h.s_->empty[t.stage_].remote(cta_rank{0}).arrive();
      }
      else
      {
        h.s_->empty[t.stage_].arrive();
      }
    }
  }
  template <class T>
  PTXW_REFUSED(PTXW_RULE(R4) "release() takes the token back by rvalue, consumer.release(std::move(token)): "
               "a token released by lvalue could be released again")
  void release(T&);

  // The consumer warp's whole life: f(dim3) with the CTA's own block first (where it owns it),
  // then with every block of the ring in order, until the failure. Each stage is released right
  // after it was read, before f runs.
  template <class F>
  __device__ void for_each(F&& f)
  {
    if (h_->owns_block())
    {
      f(dim3(blockIdx.x, blockIdx.y, blockIdx.z));
    }
    while (true)
    {
      token t = wait();
      uint3 b{};
      const bool read = t.decode([&](const ring_block<receivers>& blk) { b = blk.ctaid(); });
      release(static_cast<token&&>(t));
      // Every lane read the same response, so `read` is the warp's; said so with a vote, the loop
      // is uniform control flow to ptxas, which then keeps f's loop-invariant kernel parameters in
      // uniform registers across the loop instead of reloading them in f's own inner loops. A
      // checked build votes among the lanes present: a partial warp's short release count is
      // reported by the ring's bounded waits, not left to a vote of absent lanes.
#if PTXW_CHECKED
      const bool more = __all_sync(__activemask(), read);
#else
      const bool more = __all_sync(~0u, read);
#endif
      if (!more)
      {
        break;
      }
      f(dim3(b.x, b.y, b.z));
    }
  }
};

} // namespace clc
PTXW_NAMESPACE_END
