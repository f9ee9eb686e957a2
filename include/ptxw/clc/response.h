// ptxw/clc/response.h: what a wait() of cluster launch control gives its caller -- one response,
// the block index inside it (only on success, R2), and what is left after a failure (R1).
//
// clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 and .get_first_ctaid::{x,y,z}.b32.b128
// decode it on hardware (ptxw/clc/hardware.h); the software backends write the same encoding and
// decode it themselves (ptxw/clc/backend_interface.h).
#pragma once

#include <ptxw/clc/backend_interface.h>
#include <ptxw/clc/checks.h>
#include <ptxw/core/checked.h>

PTXW_NAMESPACE_BEGIN
namespace clc {
template <class Receivers, class Backend>
class handle;

// A handle after its CTA observed a failed response (R1): what is left is waiting, not requesting.
template <class Handle>
class exhausted
{
public:
  __device__ explicit exhausted(Handle&) noexcept {}

  template <class Submitter>
  PTXW_REFUSED(PTXW_RULE(R1) "this CTA observed a failed cancellation response; another try_cancel is "
               "undefined behaviour")
  void request(const Submitter&);

  // A failed response names no block (R2): these exist only to say so.
#define PTXW_R2_NO_BLOCK                                                                                    \
  PTXW_REFUSED(PTXW_RULE(R2) "the response failed and names no block; decoding it is undefined " \
               "behaviour")
  PTXW_R2_NO_BLOCK uint3 ctaid() const;
  PTXW_R2_NO_BLOCK uint3 first_ctaid() const;
  PTXW_R2_NO_BLOCK unsigned x() const;
  PTXW_R2_NO_BLOCK unsigned y() const;
  PTXW_R2_NO_BLOCK unsigned z() const;
#undef PTXW_R2_NO_BLOCK
};

// The index of a block (for cluster_t: of this CTA's block in the cluster) that was canceled for
// the caller to run. It exists only inside the success callback of response::decode (R2).
template <class Receivers>
class canceled_block : public detail::block_index<Receivers>
{
  template <class R, class H>
  friend class response;

  struct by_decode
  {};
  __device__ canceled_block(by_decode, uint3 first) noexcept
      : detail::block_index<Receivers>(first)
  {}

public:
  // Only decode() makes one, from a successful response: anything else would be a made-up index.
  template <class T,
            class = ::ptxw::detail::enable_if_t<!::ptxw::detail::is_same_v<::ptxw::detail::remove_cvref_t<T>, canceled_block>>>
  PTXW_REFUSED(PTXW_RULE(R2) "a ptxw::clc::canceled_block comes only from response.decode(), "
               "inside its success callback")
  canceled_block(T&&);
};

// One observed response, by value (already read and released by wait()).
template <class Receivers, class Handle>
class response
{
  using decoder = typename Handle::backend_impl;

  uint4 raw_;
  Handle* handle_;

  template <class C, class B>
  friend class handle;

  __device__ response(uint4 raw, Handle* h) noexcept
      : raw_(raw)
      , handle_(h)
  {}

public:
  // clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 (or the emulations' same encoding)
  [[nodiscard]] __device__ bool is_canceled() const
  {
    return decoder::canceled(raw_);
  }

  // Calls on_canceled(ptxw::clc::canceled_block) if a block was canceled for the caller and returns
  // whether it was. A failure is remembered: this CTA must not request again (R1).
  template <class OnCanceled>
  [[nodiscard]] __device__ bool decode(OnCanceled&& on_canceled) const
  {
    if (is_canceled())
    {
      on_canceled(canceled_block<Receivers>(typename canceled_block<Receivers>::by_decode{}, decoder::first(raw_)));
      return true;
    }
    detail::note_failure(*handle_->slot_);
    return false;
  }

  // As above; on failure calls on_failure(ptxw::clc::exhausted<handle>&), whose request() does
  // not compile (R1).
  template <class OnCanceled, class OnFailure>
  [[nodiscard]] __device__ bool decode(OnCanceled&& on_canceled, OnFailure&& on_failure) const
  {
    if (decode(on_canceled))
    {
      return true;
    }
    exhausted<Handle> done(*handle_);
    on_failure(done);
    return false;
  }

  // Escape hatches. raw(): the 16 bytes as written. first_ctaid_unchecked(): the first ctaid
  // without looking at is_canceled -- undefined on a failed response (R2), which checked mode reports.
  __device__ uint4 raw() const noexcept
  {
    return raw_;
  }
  __device__ uint3 first_ctaid_unchecked() const
  {
#if PTXW_CHECKED
    if (!is_canceled())
    {
      checked::report(handle_->ctx_.sink, rule::no_decode_of_failure, detail::slot_address(*handle_->slot_), handle_->ph_.count(), 0);
      return {0u, 0u, 0u};
    }
#endif
    return decoder::first(raw_);
  }
};

} // namespace clc
PTXW_NAMESPACE_END
