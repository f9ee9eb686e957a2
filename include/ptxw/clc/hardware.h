// ptxw/clc/hardware.h: the hardware backend -- clusterlaunchcontrol.try_cancel on sm_100 and newer.
//
// A request is one try_cancel (SASS: UGETNEXTWORKID.SELFCAST; the multicast form for cluster_t,
// UGETNEXTWORKID.BROADCAST), issued asynchronously before the work it overlaps: the GPU writes the
// 16-byte response into the slot through the async proxy and completes 16 transaction bytes on the
// slot's barrier, which the requesting CTA (every CTA, for cluster_t) armed with expect_tx (R5).
#pragma once

#include <ptxw/clc/backend_interface.h>
#include <ptxw/isa/clc.h>

#if PTXW_CCCL_FAMILY_HEADERS
#  include <cuda/__ptx/instructions/clusterlaunchcontrol.h>
#endif

PTXW_NAMESPACE_BEGIN
namespace clc::detail {
template <>
struct backend<hardware_t>
{
  struct state
  {}; // the GPU schedules: nothing to prepare (an automatic_t context carries counter_t's, unused here)
  static state make_state(const launch_plan&)
  {
    return {};
  }

  // R9: try_cancel from sm_100 on; the multicast form only on arch- or family-specific targets.
  template <class Receivers>
  static constexpr bool supported = runs_here<hardware_t, Receivers>
                                 && (!::ptxw::detail::is_same_v<Receivers, cluster_t> || !target::device_pass
                                     || target::family_specific);

  // One arrival completes a phase, with the 16 transaction bytes it expects (R5).
  static constexpr ::cuda::std::uint32_t arrivals_per_phase = 1;

  template <class Receivers>
  __host__ __device__ static constexpr bool check_target()
  {
    constexpr bool sm100 = runs_here<hardware_t, Receivers>;
    static_assert(sm100, PTXW_RULE(R9) "clusterlaunchcontrol.try_cancel needs sm_100 or newer; below it use "
                         "ptxw::clc::context<ptxw::clc::automatic_t> (the default: counter_t there) or <emulated_t>");
    constexpr bool multicast_ok = !::ptxw::detail::is_same_v<Receivers, cluster_t> || !target::device_pass
                               || target::family_specific;
    static_assert(!sm100 || multicast_ok,
                  PTXW_RULE(R9) "clusterlaunchcontrol.try_cancel.multicast::cluster::all needs an arch- or "
                  "family-specific target (sm_100a, sm_100f, sm_103a, sm_110a, sm_120a, sm_121a, ...): ptxas rejects "
                  "it on sm_100, sm_103, sm_110, sm_120 and sm_121; there, use ptxw::clc::context<ptxw::clc::counter_t>. "
                  "(nvcc 13's -arch=sm_100a also compiles plain compute_100 PTX: use -gencode "
                  "arch=compute_100a,code=sm_100a, or CMake CUDA_ARCHITECTURES 100a)");
    return supported<Receivers>;
  }

  // The launch is the grid; every launched CTA runs (the GPU never starts a canceled one), its own
  // block first.
  template <class State>
  static __device__ uint3 grid(const State&)
  {
    return {gridDim.x, gridDim.y, gridDim.z};
  }
  template <class Receivers, class State>
  static __device__ bool start(slot_storage<Receivers>&, const State&, const checked::sink*)
  {
    return true;
  }
  static __device__ bool owns_block()
  {
    return true;
  }

  // try_cancel, or its multicast form for a cluster (request_async: fence, arm). One block a request.
  template <claims = claims::batched, class Receivers, class State>
  __device__ void request(slot_storage<Receivers>& s, const State&, bool submit, bool fail)
  {
    request_async(s, submit, fail, [&] {
      if constexpr (is_cluster<Receivers>)
      {
        ::ptxw::detail::isa::try_cancel_multicast(::ptxw::detail::isa::smem_addr(&s.response), s.bar.smem_addr());
      }
      else
      {
        ptx::clusterlaunchcontrol_try_cancel(&s.response, s.bar.native_handle());
      }
    });
  }

  template <class Receivers, class State, class Wait>
  __device__ bool receive(slot_storage<Receivers>& s, const State&, phase& ph, uint4& out, Wait&& wait)
  {
    return receive_async(s, ph, out, wait);
  }

  // clusterlaunchcontrol.query_cancel.is_canceled.pred.b128
  static __device__ bool canceled(uint4 r)
  {
    return ptx::clusterlaunchcontrol_query_cancel_is_canceled(r);
  }

  // clusterlaunchcontrol.query_cancel.get_first_ctaid::{x,y,z}.b32.b128
  static __device__ uint3 first(uint4 r)
  {
    return {ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x<::cuda::std::uint32_t>(r),
            ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_y<::cuda::std::uint32_t>(r),
            ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_z<::cuda::std::uint32_t>(r)};
  }
};

} // namespace clc::detail
PTXW_NAMESPACE_END
