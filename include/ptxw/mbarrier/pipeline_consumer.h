// ptxw/mbarrier/pipeline_consumer.h: a ptxw::pipeline's consumer -- a consumer warp's handle, which
// waits for filled stages in ring order, the stage token it reads and releases, and a TMA store out
// of a stage (ptxw/mbarrier/pipeline.h).
#pragma once

#include <ptxw/core/checked.h>
#include <ptxw/core/elect.h>
#include <ptxw/core/target.h>
#include <ptxw/fence.h>
#include <ptxw/isa/bar.h>
#include <ptxw/mbarrier/counts.h>
#include <ptxw/mbarrier/pipeline_token.h>

#if PTXW_CCCL_FAMILY_HEADERS
#  include <cuda/__ptx/instructions/cp_async_bulk.h>
#  include <cuda/__ptx/instructions/cp_async_bulk_commit_group.h>
#  include <cuda/__ptx/instructions/cp_async_bulk_wait_group.h>
#endif

PTXW_NAMESPACE_BEGIN
namespace detail {
template <class Base>
class pipeline_consumer;

// A stage a consumer unit waited for: read through it, then released. Move-only (R27).
template <class Base>
class pipeline_consumer_stage : public pipeline_token
{
  friend class pipeline_consumer<Base>;
  using pipeline_token::pipeline_token;

public:
  PTXW_REFUSED(PTXW_RULE(R27) "a stage is not copied: it is released once, consumer.release(std::move(stage))")
  pipeline_consumer_stage(const pipeline_consumer_stage&);
  __device__ pipeline_consumer_stage(pipeline_consumer_stage&& o) noexcept
      : pipeline_token(static_cast<pipeline_token&&>(o))
  {}

#if PTXW_CHECKED
  __device__ ~pipeline_consumer_stage()
  {
    if (pending())
    {
      checked::report(checked::default_sink<>, rule::stage_ownership, 0, 0, index(),
                      " (a stage waited for and never released: its producer waits forever; detail: the stage)");
    }
  }
#endif
};

template <class Base>
class pipeline_consumer : public pipeline_role<Base, false>
{
  using pipeline_role<Base, false>::pipeline_role;
  using pipeline_role<Base, false>::st_;

public:
  PTXW_REFUSED(PTXW_RULE(R6) "a consumer handle is not copied (two copies are two diverging ideas of where "
               "the ring is): pass it by reference")
  pipeline_consumer(const pipeline_consumer&);

  // Waits until the next stage's fill landed: every producer arrival and every armed byte. The
  // role then moves on: a consumer may hold several stages (K and V of attention) and releases
  // each through its own token.
  // mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 ok, [full], parity;
  [[nodiscard]] __device__ pipeline_consumer_stage<Base> wait()
  {
    const auto next = this->wait_next();
    if (Base::ledger_lane())
    {
      st_->took(next.index);
    }
    return pipeline_consumer_stage<Base>(next.index, next.round);
  }

  PTXW_REFUSED(PTXW_RULE(R27) "a stage is released once, by its token: consumer.release(std::move(stage))")
  void release(const pipeline_consumer_stage<Base>&);

  // This warp is done with the stage: its lanes' reads are ordered before the refill by arrivals
  // on the empty barrier of this stage in each peer CTA -- every lane's own for generic reads, one
  // lane's for the warp for async-proxy reads (Base::release_lanes says why). A reads_async warp's
  // reads must have completed (wgmma.wait_group) before it releases: they are what the arrival
  // stands for, and no fence here could wait for them (Base::peer_release_sem).
  //   one CTA:  mbarrier.arrive.release.cta.shared::cta.b64 _, [empty];
  //   cluster:  mbarrier.arrive.release.cluster.shared::cluster.b64 _, [mapa(empty, peer)];
  //             mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [mapa(empty, peer)]; (reads_async)
  __device__ void release(pipeline_consumer_stage<Base>&& stage)
  {
    const ::cuda::std::uint32_t s    = stage.index();
    const ::cuda::std::uint32_t fill = stage.fill();
#if PTXW_CHECKED
    if (!stage.hand_over())
    {
      if (Base::ledger_lane())
      {
        checked::report(checked::default_sink<>, rule::stage_ownership, st_->empty[s].smem_addr(), fill, s,
                        " (a stage released twice; detail: the stage)");
      }
      return;
    }
#endif
    if constexpr (Base::slot_fences)
    {
      fence_after_slot_read(); // R4: this lane's generic reads before the async refill
    }
    if constexpr (Base::release_lanes == 32)
    {
      if (Base::ledger_lane())
      {
        st_->released(s);
      }
      const ::cuda::std::uint32_t rank = Base::clustered ? ptx::get_sreg_cluster_ctarank() : 0u;
      for (unsigned i = 0; i < Base::cluster::peers; ++i)
      {
        const ::cuda::std::uint32_t peer = Base::clustered ? Base::cluster::peer(rank, i) : 0u;
        if (counted_for_warp(s, peer, fill))
        {
          arrive_at(s, peer);
        }
      }
    }
    else
    {
      __syncwarp();
      if (Base::ledger_lane())
      {
        st_->released(s);
      }
      if constexpr (Base::clustered)
      {
        const ::cuda::std::uint32_t lane = ptx::get_sreg_laneid();
        if (lane < Base::cluster::peers)
        {
          const ::cuda::std::uint32_t peer = Base::cluster::peer(ptx::get_sreg_cluster_ctarank(), lane);
          if (st_->counted_release(s, peer, true, st_->empty[s].smem_addr(), fill, Base::roles()))
          {
            arrive_at(s, peer);
          }
        }
      }
      else if (elected e = elect_one_of_warp())
      {
        if (st_->counted_release(s, 0, false, st_->empty[s].smem_addr(), fill, Base::roles()))
        {
          arrive_at(s, 0);
        }
      }
    }
  }

  // A TMA store out of the stage, by every consumer thread (the consumer warps are Consumer::threads
  // consecutive threads): each thread's generic writes into the stage are fenced for the async
  // proxy (R29), the consumer warps meet at named barrier Id, and one thread copies `bytes` from
  // `src` (in the stage) to `dst` and waits until the copy has read the stage, so the release
  // that follows cannot let a refill overwrite what the store still reads.
  //   fence.proxy.async.shared::cta; bar.sync Id, threads;
  //   cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size; cp.async.bulk.commit_group;
  //   cp.async.bulk.wait_group.read 0;
  template <unsigned Id = 1, class T>
  __device__ void store(const pipeline_consumer_stage<Base>& stage, T* dst, const T* src, detail::tx_bytes_arg bytes)
  {
    static_assert(Id >= 1 && Id < 16, PTXW_RULE(R18) "a named barrier id is 1 to 15 (0 is __syncthreads')");
    (void) stage;
    fence_before_async_read(ptx::space_shared);
    detail::isa::bar_sync(Id, Base::consumer::threads);
    const unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    if (tid % Base::consumer::threads == 0)
    {
      ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, dst, src, bytes.arg.value);
      ptx::cp_async_bulk_commit_group();
      ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>{});
    }
  }

private:
  // Checked mode: the ledger counts a warp's release once (its lane 0), and every lane learns
  // whether to make its arrival (not after an over-arrival, R28). Unchecked: always.
  __device__ bool counted_for_warp(::cuda::std::uint32_t s, ::cuda::std::uint32_t peer, ::cuda::std::uint32_t fill)
  {
    if constexpr (checked::on)
    {
      bool counted = true;
      if (Base::ledger_lane())
      {
        counted = st_->counted_release(s, peer, Base::clustered, st_->empty[s].smem_addr(), fill, Base::roles());
      }
      return __shfl_sync(0xffffffffu, counted, 0) != 0;
    }
    else
    {
      return true;
    }
  }

  // One arrival on the empty barrier of stage s in the CTA of cluster rank `peer` (this CTA alone
  // for one CTA).
  __device__ void arrive_at(::cuda::std::uint32_t s, ::cuda::std::uint32_t peer)
  {
    if constexpr (Base::clustered)
    {
      st_->empty[s].remote(cta_rank{peer}).arrive(typename Base::peer_release_sem{}, ptx::scope_cluster);
    }
    else
    {
      (void) peer;
      st_->empty[s].arrive(ptx::sem_release, ptx::scope_cta);
    }
  }
};
} // namespace detail
PTXW_NAMESPACE_END
