// ptxw/mbarrier/pipeline_producer.h: a ptxw::pipeline's producer -- its handle, which acquires free
// stages in ring order, and the stage token it fills and commits (ptxw/mbarrier/pipeline.h).
#pragma once

#include <ptxw/core/checked.h>
#include <ptxw/core/target.h>
#include <ptxw/fence.h>
#include <ptxw/mbarrier/counts.h>
#include <ptxw/mbarrier/pipeline_token.h>

#if PTXW_CCCL_FAMILY_HEADERS
#  include <cuda/__ptx/instructions/cp_async_bulk.h>
#  include <cuda/__ptx/instructions/generated/cp_async_bulk_multicast.h>
#endif

PTXW_NAMESPACE_BEGIN
namespace detail {
template <class Base>
class pipeline_producer;

// A stage the producer acquired: filled through it, then committed. Move-only (R27).
template <class Base>
class pipeline_producer_stage : public pipeline_token
{
  friend class pipeline_producer<Base>;
  typename Base::barrier_type* full_;
  bool armed_ = false;
#if PTXW_CHECKED
  bool untracked_               = false;
  bool after_fault_             = false; // acquired after a report: no arming, copy or arrival
  ::cuda::std::uint32_t bytes_  = 0; // armed
  ::cuda::std::uint32_t copied_ = 0; // copies issued through this stage that land in this CTA
#endif

  __device__ pipeline_producer_stage(typename Base::barrier_type* full, ::cuda::std::uint32_t index,
                                     ::cuda::std::uint32_t round) noexcept
      : pipeline_token(index, round)
      , full_(full)
  {}

public:
  PTXW_REFUSED(PTXW_RULE(R27) "a stage is not copied: it is committed once, producer.commit(std::move(stage))")
  pipeline_producer_stage(const pipeline_producer_stage&);
  __device__ pipeline_producer_stage(pipeline_producer_stage&& o) noexcept
      : pipeline_token(static_cast<pipeline_token&&>(o))
      , full_(o.full_)
      , armed_(o.armed_)
#if PTXW_CHECKED
      , untracked_(o.untracked_)
      , after_fault_(o.after_fault_)
      , bytes_(o.bytes_)
      , copied_(o.copied_)
#endif
  {}

#if PTXW_CHECKED
  __device__ ~pipeline_producer_stage()
  {
    if (pending())
    {
      checked::report(checked::default_sink<>, rule::stage_ownership, full_->smem_addr(), 0, index(),
                      " (an acquired stage never committed: its consumers wait forever; detail: the stage)");
    }
  }
#endif

  // Bulk producers: the bytes that will land in this CTA's stage in this fill, from every copy
  // (a multicast pipeline: the peers' copies into this CTA too). It is the producer's arrival:
  // mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [full], bytes;
  // A stage that receives no copy is committed without arming.
  __device__ void arm(detail::tx_bytes_arg bytes)
  {
    static_assert(Base::bulk || detail::dependent_false<Base>,
                  PTXW_RULE(R11) "a store_producer's stages carry no transaction bytes: arm() is for bulk copies");
    if (after_fault())
    {
      return;
    }
    armed_ = true;
#if PTXW_CHECKED
    // Checked: expect the bytes now and arrive at commit, once the copies are counted, so that a
    // copy of more bytes than armed cannot complete the fill early (it is reported and expected).
    bytes_ = bytes.arg.value;
    full_->expect_tx(ptx::sem_relaxed, ptx::scope_cta, bytes.arg);
#else
    full_->arrive_expect_tx(ptx::sem_release, ptx::scope_cta, bytes.arg);
#endif
  }

  // cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size, [full];
  template <class T>
  __device__ void copy(T* dst, const T* src, detail::tx_bytes_arg bytes)
  {
    static_assert(Base::bulk || detail::dependent_false<T>, PTXW_RULE(R10) "copy() is a bulk_producer's");
    if (after_fault())
    {
      return;
    }
    note_copy(bytes.arg.value);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, dst, src, bytes.arg.value, full_->native_handle());
  }

  // The same copy into this stage of every CTA of `cta_mask` (bit r: cluster rank r), each
  // completing the bytes on its own full barrier of this stage:
  // cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [dst], [src], size, [full], mask;
  template <class T>
  __device__ void copy(T* dst, const T* src, detail::tx_bytes_arg bytes, ::cuda::std::uint16_t cta_mask)
  {
    static_assert(Base::clustered || detail::dependent_false<T>,
                  PTXW_RULE(R12) "a multicast copy needs a pipeline of ptxw::cluster_multicast<X, Y>");
    if (after_fault())
    {
      return;
    }
#if PTXW_CHECKED
    if (cta_mask & (1u << ptx::get_sreg_cluster_ctarank()))
    {
      note_copy(bytes.arg.value);
    }
#endif
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, dst, src, bytes.arg.value, full_->native_handle(), cta_mask);
  }

  // For copies issued elsewhere (CuTe's TMA atoms, cp.async.bulk.tensor): the barrier word they
  // complete. Checked mode then cannot compare the armed bytes with the copies.
  __device__ ::cuda::std::uint64_t* native_handle() noexcept
  {
#if PTXW_CHECKED
    untracked_ = true;
#endif
    return full_->native_handle();
  }

private:
  __device__ bool after_fault() const noexcept
  {
#if PTXW_CHECKED
    return after_fault_;
#else
    return false;
#endif
  }

  __device__ void note_copy(::cuda::std::uint32_t bytes)
  {
#if PTXW_CHECKED
    copied_ += bytes;
#else
    (void) bytes;
#endif
  }
};

template <class Base>
class pipeline_producer : public pipeline_role<Base, true>
{
  using pipeline_role<Base, true>::pipeline_role;
  using pipeline_role<Base, true>::st_;

public:
  PTXW_REFUSED(PTXW_RULE(R6) "a producer handle is not copied (two copies are two diverging ideas of where "
               "the ring is): pass it by reference")
  pipeline_producer(const pipeline_producer&);

  // Waits until the next stage is free: every consumer unit of every peer CTA released its last
  // fill (the phase before a fresh barrier's first counts as complete for the first round). The
  // role then moves on: a second acquire before the first commit is the next stage (two fills in
  // flight), never the same one.
  // mbarrier.try_wait.parity.acquire.{cta,cluster}.shared::cta.b64 ok, [empty], parity;
  [[nodiscard]] __device__ pipeline_producer_stage<Base> acquire()
  {
    const auto next = this->wait_next();
    st_->refills(next.index, st_->empty[next.index].smem_addr(), next.round);
    if constexpr (Base::slot_fences)
    {
      fence_before_slot_write(); // R4: after the consumers' fence_after_slot_read
    }
    pipeline_producer_stage<Base> stage(&st_->full[next.index], next.index, next.round);
#if PTXW_CHECKED
    // After a report every wait returns at once and the CTA is about to end. A stage acquired now
    // touches neither its barrier nor its memory: a copy issued now could still be writing shared
    // memory when the CTA exits, and arrivals on fills that no copy completes would pass the
    // full barrier's count; either ends the kernel with a launch failure instead of the report.
    stage.after_fault_ = st_->broken();
#endif
    return stage;
  }

  PTXW_REFUSED(PTXW_RULE(R27) "a stage is committed once, by its token: producer.commit(std::move(stage))")
  void commit(const pipeline_producer_stage<Base>&);

  // Hands the stage to the consumers. Bulk: the arrival was arm()'s (a stage never armed is
  // handed over with a plain arrival: no copy, no bytes). Store: each thread fences its stores
  // for async-proxy readers (R29) and arrives.
  __device__ void commit(pipeline_producer_stage<Base>&& stage)
  {
    if constexpr (Base::store_fence)
    {
      fence_before_async_read(ptx::space_shared); // R29: this thread's stores, before the arrival
    }
#if PTXW_CHECKED
    if (!stage.hand_over())
    {
      checked::report(checked::default_sink<>, rule::stage_ownership, stage.full_->smem_addr(), stage.fill(),
                      stage.index(), " (a stage committed twice; detail: the stage)");
      return;
    }
    if (stage.after_fault_)
    {
      return;
    }
    if (stage.armed_ && !stage.untracked_ && (Base::clustered ? stage.copied_ > stage.bytes_ : stage.copied_ != stage.bytes_))
    {
      st_->report(rule::stage_accounting, stage.full_->smem_addr(), stage.fill(), stage.copied_,
                  " (copies into a stage carry other bytes than it was armed with; detail: bytes copied)");
      if (stage.copied_ > stage.bytes_)
      {
        stage.full_->expect_tx(ptx::sem_relaxed, ptx::scope_cta, tx_bytes{stage.copied_ - stage.bytes_});
      }
    }
    else if (!stage.armed_ && stage.copied_ != 0)
    {
      st_->report(rule::armed_barrier, stage.full_->smem_addr(), stage.fill(), stage.copied_,
                  " (copies into a stage committed without arm(): consumers would read it before they land; "
                  "detail: bytes copied)");
      stage.full_->expect_tx(ptx::sem_relaxed, ptx::scope_cta, tx_bytes{stage.copied_});
    }
    st_->armed(stage.index(), stage.bytes_);
    if (st_->counted_fill(stage.index(), stage.full_->smem_addr(), stage.fill(), Base::roles()))
    {
      stage.full_->arrive(ptx::sem_release, ptx::scope_cta);
    }
#else
    if (!Base::bulk || !stage.armed_)
    {
      stage.full_->arrive(ptx::sem_release, ptx::scope_cta);
    }
#endif
  }
};
} // namespace detail
PTXW_NAMESPACE_END
