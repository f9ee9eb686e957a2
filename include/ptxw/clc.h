// ptxw/clc.h: cluster launch control (clusterlaunchcontrol.try_cancel) with its protocol in the types.
//
//   __global__ void kernel(float* data, int n, ptxw::clc::context<> ctx)
//   {
//     __shared__ ptxw::clc::slot<ptxw::clc::cta_t> slot;   // 16-byte response + its mbarrier
//     auto clc = ptxw::clc::open(slot, ctx);               // collective; the emulation claims this block
//     if (!clc.started()) return;                          // emulation: this block was canceled
//     unsigned bx = blockIdx.x;
//     while (true) {
//       __syncthreads();                                   // last response read by all (R4); init visible (R7)
//       if (threadIdx.x < 32)
//         if (ptxw::elected e = ptxw::elect_one()) clc.request(e);   // one submitter (R3), armed (R5)
//       work(bx);
//       if (!clc.wait().decode([&](auto b) { bx = b.x(); })) break;  // block index only on success (R2)
//     }
//   }
//
// The rules (docs/rules.md) and where they are enforced here:
//   R1 after an observed failure no request: the failure branch of decode() gets an exhausted
//      handle whose request() does not compile; elsewhere checked mode reports it;
//   R2 a block index exists only inside decode()'s success callback; the raw escape hatches are
//      checked in checked mode;
//   R3 request() takes a ptxw::elected (one lane submits, one instruction, no per-lane loop);
//      checked mode reports a second request in one phase;
//   R4 a response is obtained only from wait(), which waits for the slot's phase, reads it once (one
//      ld.shared.v4 in PTX; ptxas keeps the words decode uses) and releases it to the async proxy
//      before returning; request() orders the next write after those reads; checked mode reports a
//      request while readers have not finished;
//   R5 request() arms the requesting CTA's barrier with expect_tx(16) -- for the cluster form every
//      CTA calls it, and only rank 0 submits; checked mode names a CTA that never armed;
//   R6 waits use the handle's own ptxw::phase; checked mode reports a thread behind or ahead of the
//      slot's requests and turns a wait that never completes into a report;
//   R8 the cluster form's block index adds this CTA's position in its cluster; open() publishes the
//      barrier to the cluster;
//   R9 the hardware backend compiles only from sm_100 on, its multicast form only on sm_XXa/sm_XXf
//      targets (what ptxas 13.0 accepts); below sm_100 the emulation serves the same API.
#pragma once

#include <ptxw/checked.h>
#include <ptxw/detail/clc_emulation.h>
#include <ptxw/detail/isa/clc.h>
#include <ptxw/elect.h>
#include <ptxw/fence.h>
#include <ptxw/mbarrier.h>
#include <ptxw/target.h>

#if PTXW_CCCL_FAMILY_HEADERS
#  include <cuda/__ptx/instructions/barrier_cluster.h>
#  include <cuda/__ptx/instructions/clusterlaunchcontrol.h>
#  include <cuda/__ptx/instructions/get_sreg.h>
#endif

PTXW_NAMESPACE_BEGIN
namespace clc {
// Who receives a response: the requesting CTA (try_cancel; SASS UGETNEXTWORKID.SELFCAST), or
// every CTA of its cluster (try_cancel.multicast::cluster::all; UGETNEXTWORKID.BROADCAST).
struct cta_t
{};
struct cluster_t
{};

// Who answers requests: the GPU (sm_100 and newer), the emulation (sm_90 and newer), or the GPU
// where the target has cluster launch control and the emulation below sm_100.
struct hardware_t
{};
struct emulated_t
{};
struct automatic_t
{};

// The typed kernel parameter that carries everything a request needs beyond the slot: the
// emulation's global state (from ptxw::clc::emulator::prepare; unused by the hardware) and where
// checked mode reports (ptxw::checked::diagnostics::device_sink(); null: print and trap).
template <class Backend = automatic_t>
struct context
{
  detail::emulation_state emulation;
  const checked::sink* sink;
};

namespace detail {

template <class Backend>
inline constexpr bool on_hardware =
  ::ptxw::detail::is_same_v<Backend, hardware_t>
  || (::ptxw::detail::is_same_v<Backend, automatic_t> && target::device_pass && target::sm >= 100);

template <class Cast, class Backend>
__host__ __device__ constexpr bool check_backend()
{
  if constexpr (!::ptxw::detail::is_one_of<Cast, cta_t, cluster_t>)
  {
    static_assert(::ptxw::detail::dependent_false<Cast>, "ptxw: R10 qualifiers: a response goes to ptxw::clc::cta_t "
                                                         "(the requesting CTA) or ptxw::clc::cluster_t (every CTA of "
                                                         "the cluster)");
    return false;
  }
  else if constexpr (!::ptxw::detail::is_one_of<Backend, hardware_t, emulated_t, automatic_t>)
  {
    static_assert(::ptxw::detail::dependent_false<Backend>, "ptxw: R10 qualifiers: the backend is ptxw::clc::hardware_t, "
                                                            "emulated_t or automatic_t");
    return false;
  }
  else if constexpr (on_hardware<Backend>)
  {
    constexpr bool sm100 = ::ptxw::detail::supports<100, 860, Cast>;
    static_assert(sm100, "ptxw: R9 target: clusterlaunchcontrol.try_cancel needs sm_100 or newer; below it use "
                         "ptxw::clc::context<ptxw::clc::automatic_t> (the default) or <emulated_t>, the emulation");
    constexpr bool multicast_ok = !::ptxw::detail::is_same_v<Cast, cluster_t> || !target::device_pass
                               || target::family_specific;
    static_assert(!sm100 || multicast_ok,
                  "ptxw: R9 target: clusterlaunchcontrol.try_cancel.multicast::cluster::all needs an arch- or "
                  "family-specific target (sm_100a, sm_100f, sm_103a, sm_110a, sm_120a, sm_121a, ...): ptxas rejects "
                  "it on sm_100, sm_103, sm_110, sm_120 and sm_121; there, use ptxw::clc::context<ptxw::clc::emulated_t>. "
                  "(nvcc 13's -arch=sm_100a also compiles plain compute_100 PTX: use -gencode "
                  "arch=compute_100a,code=sm_100a, or CMake CUDA_ARCHITECTURES 100a)");
    return sm100 && multicast_ok;
  }
  else
  {
    constexpr bool ok = ::ptxw::detail::supports<90, 800, Cast>;
    static_assert(ok, "ptxw: R9 target: the cluster launch control emulation needs sm_90 or newer");
    return ok;
  }
}

// Checked-mode bookkeeping of one CTA's slot (ptxw/checked.h). Counts, not flags, so that a
// check can tell which phase a thread or a request belongs to.
struct books
{
  ::cuda::std::uint32_t claimed; // phases a request() has claimed, plus one: R3 sees a second claim
  ::cuda::std::uint32_t requests; // request() calls that armed this CTA's barrier: R5, R6
  ::cuda::std::uint32_t released; // wait() calls that read and released a response: R4
  ::cuda::std::uint32_t readers; // wait() calls per phase (open()'s argument)
  ::cuda::std::uint32_t failed; // a failure was decoded in this CTA: R1
};

template <class Cast>
struct barrier_scope
{
  using type = ptx::scope_cta_t;
};
template <>
struct barrier_scope<cluster_t>
{
  using type = ptx::scope_cluster_t;
};

} // namespace detail

// The shared-memory end of cluster launch control: the 16-byte response the async proxy writes
// and the mbarrier that completes when it has. Declare it __shared__; open() initialises it.
template <class Cast>
struct slot
{
  alignas(16) uint4 response;
  mbarrier<typename detail::barrier_scope<Cast>::type> bar; // cluster-scope for cluster_t: other CTAs complete it
  ::cuda::std::uint32_t started; // emulation: this CTA's cluster ran for itself
#if PTXW_CHECKED
  detail::books books;
#endif
};

template <class Cast, class Backend>
class handle;

// Defined at the end of this file.
template <class Cast, class Backend>
__device__ handle<Cast, Backend> open(slot<Cast>& s, const context<Backend>& ctx,
                                      unsigned readers = blockDim.x * blockDim.y * blockDim.z);

// A handle after its CTA observed a failed response (R1): what is left is waiting, not requesting.
template <class Handle>
class exhausted
{
  Handle& handle_;

public:
  __device__ explicit exhausted(Handle& h) noexcept
      : handle_(h)
  {}

  template <class Elected>
  __device__ void request(const Elected&)
  {
    static_assert(::ptxw::detail::dependent_false<Elected>, "ptxw: R1 failed request: this CTA observed a failed "
                                                            "cancellation response; another try_cancel is undefined "
                                                            "behaviour");
  }

  // A failed response names no block (R2): these exist only to say so.
  template <class Dep = void>
  __device__ uint3 ctaid() const
  {
    static_assert(::ptxw::detail::dependent_false<Dep>, "ptxw: R2 no decode of failure: the response failed and "
                                                        "names no block; decoding it is undefined behaviour");
    return {0u, 0u, 0u};
  }
  template <class Dep = void>
  __device__ uint3 first_ctaid() const
  {
    return ctaid<Dep>();
  }
  template <class Dep = void>
  __device__ unsigned x() const
  {
    return ctaid<Dep>().x;
  }
  template <class Dep = void>
  __device__ unsigned y() const
  {
    return ctaid<Dep>().y;
  }
  template <class Dep = void>
  __device__ unsigned z() const
  {
    return ctaid<Dep>().z;
  }
};

// The index of a block (for cluster_t: of this CTA's block in the cluster) that was canceled for
// the caller to run. It exists only inside the success callback of response::decode (R2).
template <class Cast>
class canceled_block
{
  uint3 first_;

  template <class C, class H>
  friend class response;

  __device__ explicit canceled_block(uint3 first) noexcept
      : first_(first)
  {}

public:
  // The canceled cluster's first CTA, as the response names it.
  __device__ uint3 first_ctaid() const noexcept
  {
    return first_;
  }

  // This CTA's block. For cluster_t: the first CTA plus this CTA's position in its cluster (R8);
  // for cta_t the canceled block itself (a CTA-cast request in a cluster launch is R3's business).
  __device__ uint3 ctaid() const noexcept
  {
    return {x(), y(), z()};
  }
  __device__ unsigned x() const noexcept
  {
    return first_.x + (is_cluster ? detail::cluster_ctaid<Cast>().x : 0u);
  }
  __device__ unsigned y() const noexcept
  {
    return first_.y + (is_cluster ? detail::cluster_ctaid<Cast>().y : 0u);
  }
  __device__ unsigned z() const noexcept
  {
    return first_.z + (is_cluster ? detail::cluster_ctaid<Cast>().z : 0u);
  }

private:
  static constexpr bool is_cluster = ::ptxw::detail::is_same_v<Cast, cluster_t>;
};

// One observed response, by value (already read and released by wait()).
template <class Cast, class Handle>
class response
{
  uint4 raw_;
  Handle* handle_;

  template <class C, class B>
  friend class handle;

  __device__ response(uint4 raw, Handle* h) noexcept
      : raw_(raw)
      , handle_(h)
  {}

  __device__ uint3 decode_first() const
  {
    if constexpr (detail::on_hardware<typename Handle::backend_type>)
    {
      return {ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x<::cuda::std::uint32_t>(raw_),
              ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_y<::cuda::std::uint32_t>(raw_),
              ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_z<::cuda::std::uint32_t>(raw_)};
    }
    else
    {
      return {raw_.x, raw_.y & 0xffffu, raw_.y >> 16};
    }
  }

public:
  // clusterlaunchcontrol.query_cancel.is_canceled.pred.b128
  __device__ bool is_canceled() const
  {
    if constexpr (detail::on_hardware<typename Handle::backend_type>)
    {
      return ptx::clusterlaunchcontrol_query_cancel_is_canceled(raw_);
    }
    else
    {
      return (raw_.z & 1u) != 0;
    }
  }

  // Calls on_canceled(ptxw::clc::canceled_block) if a block was canceled for the caller and returns
  // whether it was. A failure is remembered: this CTA must not request again (R1).
  template <class OnCanceled>
  __device__ bool decode(OnCanceled&& on_canceled) const
  {
    if (is_canceled())
    {
      on_canceled(canceled_block<Cast>(decode_first()));
      return true;
    }
    handle_->note_failure();
    return false;
  }

  // As above; on failure calls on_failure(ptxw::clc::exhausted<handle>&), whose request() does
  // not compile (R1).
  template <class OnCanceled, class OnFailure>
  __device__ bool decode(OnCanceled&& on_canceled, OnFailure&& on_failure) const
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
      handle_->report(2, 0);
      return {0u, 0u, 0u};
    }
#endif
    return decode_first();
  }
};

// One thread's end of cluster launch control: the slot, this thread's phase of its barrier and the
// context. Made by open(), not copyable (it holds a ptxw::phase).
template <class Cast, class Backend>
class handle
{
public:
  using backend_type = Backend;
  using cast_type    = Cast;

private:
  using bar_scope = typename decltype(slot<Cast>::bar)::scope_type;

  slot<Cast>* slot_;
  context<Backend> ctx_;
  phase ph_;
  bool started_;

  template <class C, class H>
  friend class response;
  template <class C, class B>
  friend __device__ handle<C, B> open(slot<C>&, const context<B>&, unsigned);

  // Checked mode: record that this CTA saw a failure (R1). Otherwise nothing.
  __device__ void note_failure()
  {
#if PTXW_CHECKED
    atomicExch(&slot_->books.failed, 1u);
#endif
  }

  // Checked mode: a diagnostic about this slot, at this thread's phase.
  __device__ void report(unsigned rule, ::cuda::std::uint32_t detail)
  {
#if PTXW_CHECKED
    checked::report(ctx_.sink, rule, ::ptxw::detail::isa::smem_addr(slot_), ph_.count(), detail);
#else
    (void) rule, (void) detail;
#endif
  }

  __device__ handle(slot<Cast>* s, const context<Backend>& ctx, bool started) noexcept
      : slot_(s)
      , ctx_(ctx)
      , started_(started)
  {}

  static __device__ bool is_cluster_cast()
  {
    return ::ptxw::detail::is_same_v<Cast, cluster_t>;
  }

  // Bit mask of the CTAs that receive a response: this one, or all of the cluster.
  static __device__ ::cuda::std::uint16_t destinations()
  {
    if (is_cluster_cast())
    {
      return static_cast<::cuda::std::uint16_t>((1u << detail::cluster_size<Cast>()) - 1u);
    }
    return static_cast<::cuda::std::uint16_t>(1u << detail::cluster_rank<Cast>());
  }

  __device__ void submit(bool fail)
  {
    if constexpr (detail::on_hardware<Backend>)
    {
      if (fail)
      {
        detail::deliver(ctx_.emulation, detail::no_cluster, &slot_->response, slot_->bar.native_handle(), destinations());
      }
      else if constexpr (::ptxw::detail::is_same_v<Cast, cluster_t>)
      {
        ::ptxw::detail::isa::try_cancel_multicast(::ptxw::detail::isa::smem_addr(&slot_->response),
                                                  slot_->bar.smem_addr());
      }
      else
      {
        ptx::clusterlaunchcontrol_try_cancel(&slot_->response, slot_->bar.native_handle());
      }
    }
    else
    {
      detail::deliver(ctx_.emulation, fail ? detail::no_cluster : detail::steal(ctx_.emulation), &slot_->response,
                      slot_->bar.native_handle(), destinations());
    }
  }

#if PTXW_CHECKED
  // Requests that armed this CTA's barrier so far.
  __device__ ::cuda::std::uint32_t requests() const
  {
    return *static_cast<volatile const ::cuda::std::uint32_t*>(&slot_->books.requests);
  }

  // R4 for the request that fills phase k of one CTA's slot: every reader of phase k - 1 released
  // its read. Reports and then waits out a request made too early; false if the readers never come.
  __device__ bool readers_done(detail::books* b, ::cuda::std::uint32_t k)
  {
    const ::cuda::std::uint32_t expected = k * b->readers;
    const ::cuda::std::uint32_t released = atomicAdd(&b->released, 0u);
    if (released == expected)
    {
      return true;
    }
    report(4, released);
    const ::cuda::std::uint64_t start = checked::now_ns();
    while (atomicAdd(&b->released, 0u) < expected)
    {
      if (checked::now_ns() - start > checked::timeout_ns(ctx_.sink))
      {
        return false;
      }
    }
    return true;
  }
#endif

public:
  // Whether this CTA runs: always on hardware (a canceled CTA never starts); with the emulation,
  // false when another CTA claimed this one's cluster before it started -- return at once.
  __device__ bool started() const noexcept
  {
    if constexpr (detail::on_hardware<Backend>)
    {
      return true;
    }
    else
    {
      return started_;
    }
  }

  // Requests the next block. One elected lane per CTA submits -- a thread that also waits for
  // every response -- after a barrier that follows the previous wait() of every reader
  // (__syncthreads; for cluster_t a cluster barrier): it arms this CTA's barrier for the 16-byte
  // response (R5), and the CTA-cast requester, or cluster rank 0, orders the previous reads before
  // the write (R4) and submits the one request (R3). The lanes that lost the election return at
  // once, so `clc.request(ptxw::elect_one())` from a whole warp is one request too.
  //
  // Checked mode: a second request for the same phase is reported (R3) and dropped; after an
  // observed failure (R1), or when readers never release the slot (R4), the request is answered
  // with a failure instead of a block, so every reader still gets a response and leaves its loop.
  template <class Elected>
  __device__ void request(const Elected& e)
  {
    static_assert(::ptxw::detail::is_same_v<Elected, elected>, "ptxw: R3 one submitter: request() takes the "
                                                               "ptxw::elected that ptxw::elect_one() returns");
    if constexpr (::ptxw::detail::is_same_v<Elected, elected>)
    {
      if (e)
      {
        submit_and_arm();
      }
    }
  }

private:
  __device__ void submit_and_arm()
  {
    bool fail = false;
#if PTXW_CHECKED
    const ::cuda::std::uint32_t k = ph_.count(); // the phase this request fills
    detail::books* own            = &slot_->books;
    if (atomicMax(&own->claimed, k + 1) >= k + 1)
    {
      report(3, k);
      return;
    }
    if (atomicAdd(&own->failed, 0u) != 0)
    {
      report(1, k);
      fail = true;
    }
    else
    {
      // Each CTA checks its own readers (for cluster_t before arming: rank 0 does not read other
      // CTAs' books, which would be distributed shared memory of CTAs that may have exited).
      fail = !readers_done(own, k);
    }
#endif
    if (!is_cluster_cast() || detail::cluster_rank<Cast>() == 0)
    {
      ::ptxw::fence_before_slot_write();
      submit(fail);
    }
    slot_->bar.arrive_expect_tx(ptx::sem_relaxed, bar_scope{}, tx_bytes{16});
#if PTXW_CHECKED
    atomicAdd(&own->requests, 1u);
#endif
  }

public:

  // Waits for the slot's current phase, reads the response once and releases the slot to the async
  // proxy (fence_after_slot_read) before returning it. Every reader calls it.
  __device__ response<Cast, handle> wait()
  {
#if PTXW_CHECKED
    const ::cuda::std::uint32_t k = ph_.count();
    const ::cuda::std::uint32_t r = requests();
    if (r > k + 1 || r < k)
    {
      report(6, r); // this thread's phase is not the slot's: behind (stale) or ahead of its requests
      return response<Cast, handle>(uint4{0u, 0u, 0u, 0u}, this);
    }
    if (!slot_->bar.try_wait(ptx::sem_acquire, bar_scope{}, ph_))
    {
      // The clock is read every 64 tries: reading %globaltimer on every try slows the spin.
      const ::cuda::std::uint64_t start = checked::now_ns();
      for (unsigned tries = 1; !slot_->bar.try_wait(ptx::sem_acquire, bar_scope{}, ph_); ++tries)
      {
        if (tries % 64 == 0 && checked::now_ns() - start > checked::timeout_ns(ctx_.sink))
        {
          // Never armed for this phase (R5), or armed and never completed (R6).
          const ::cuda::std::uint32_t armed = requests();
          report(armed <= k ? 5 : 6, armed);
          return response<Cast, handle>(uint4{0u, 0u, 0u, 0u}, this);
        }
      }
    }
#else
    slot_->bar.wait(ptx::sem_acquire, bar_scope{}, ph_);
#endif
    const uint4 raw = slot_->response;
    ::ptxw::fence_after_slot_read();
#if PTXW_CHECKED
    // One shared-memory atomic per warp, not per thread: it is the bulk of checked mode's cost.
    const unsigned lanes = __activemask();
    if (ptx::get_sreg_laneid() == static_cast<unsigned>(__ffs(lanes) - 1))
    {
      atomicAdd(&slot_->books.released, static_cast<unsigned>(__popc(lanes)));
    }
#endif
    return response<Cast, handle>(raw, this);
  }

};

// Collective: every thread of the CTA (for cluster_t: of every CTA of the cluster) calls it once,
// before any request. Thread 0 initialises the barrier (for cluster_t also publishing it to the
// cluster, R7). With the emulation it claims this CTA's cluster and synchronises the CTA (or
// cluster) to share the outcome. With the hardware it does not synchronise: the barrier that
// precedes every request publishes the init. `readers`: threads that call wait() per response.
template <class Cast, class Backend>
__device__ handle<Cast, Backend> open(slot<Cast>& s, const context<Backend>& ctx, unsigned readers)
{
  constexpr bool ok = detail::check_backend<Cast, Backend>();
  const bool leader = threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
  bool started      = true;
  if constexpr (ok)
  {
    if (leader)
    {
      s.bar.init(arrivals{1});
      if constexpr (::ptxw::detail::is_same_v<Cast, cluster_t>)
      {
        ::ptxw::fence_after_mbarrier_init();
      }
#if PTXW_CHECKED
      s.books = detail::books{0u, 0u, 0u, readers, 0u};
      if (::ptxw::detail::is_same_v<Cast, cta_t> && detail::cluster_size<Cast>() > 1)
      {
        checked::report(ctx.sink, 3, ::ptxw::detail::isa::smem_addr(&s), 0, detail::cluster_size<Cast>());
      }
#endif
    }
    if constexpr (!detail::on_hardware<Backend>)
    {
      const bool one_cta = detail::cluster_size<Cast>() == 1;
      if (!one_cta)
      {
        // Every CTA of the cluster has started (and initialised its slot) before rank 0 writes
        // into their shared memory: distributed shared memory of a CTA that has not started yet
        // must not be touched.
        ptx::barrier_cluster_arrive();
        ptx::barrier_cluster_wait();
      }
      if (leader && detail::cluster_rank<Cast>() == 0)
      {
        if (ctx.emulation.clusters != detail::grid_clusters<Cast>())
        {
          printf("ptxw: ptxw::clc::emulator prepared for %u clusters, but this launch has %u\n", ctx.emulation.clusters,
                 detail::grid_clusters<Cast>());
          __trap();
        }
        const ::cuda::std::uint32_t mine = detail::claim(ctx.emulation, detail::own_cluster<Cast>()) ? 1u : 0u;
        for (unsigned r = 0; r < detail::cluster_size<Cast>(); ++r)
        {
          *static_cast<volatile ::cuda::std::uint32_t*>(__cluster_map_shared_rank(&s.started, r)) = mine;
        }
      }
      if (one_cta)
      {
        __syncthreads();
      }
      else
      {
        ptx::barrier_cluster_arrive();
        ptx::barrier_cluster_wait();
      }
      started = s.started != 0;
    }
  }
  (void) readers;
  return handle<Cast, Backend>(&s, ctx, started);
}

} // namespace clc
PTXW_NAMESPACE_END