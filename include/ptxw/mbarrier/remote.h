// ptxw/mbarrier/remote.h: an mbarrier of another CTA of the cluster, as
// ptxw::cluster_barrier::remote(rank) returns it (ptxw/mbarrier/barrier.h).
//
// Every operation is one PTX instruction on the shared::cluster address (see the PTX line above
// each); qualifiers as in ptxw/mbarrier/barrier.h, their forms in ptxw/isa/qualifiers.h (R9, R10); counts
// are ptxw::arrivals and ptxw::tx_bytes (R11).
#pragma once

#include <ptxw/isa/mbarrier_remote.h>
#include <ptxw/isa/qualifiers.h>
#include <ptxw/mbarrier/counts.h>

PTXW_NAMESPACE_BEGIN
template <class Scope>
class mbarrier;

// An mbarrier in the shared memory of another CTA of the cluster, addressed through the
// shared::cluster window. Obtained from cluster_barrier::remote(rank); only arrive and
// complete_tx exist remotely (waits are local to the barrier's own CTA).
class remote_mbarrier
{
  ::cuda::std::uint32_t addr_; // shared::cluster address

  template <class Scope>
  friend class mbarrier;

  __device__ explicit remote_mbarrier(::cuda::std::uint32_t cluster_addr) noexcept
      : addr_(cluster_addr)
  {}

  // R10 and R9 for a form on the shared::cluster window (ptxw/isa/qualifiers.h).
  template <class Instruction, class Sem, class OpScope>
  __device__ static constexpr bool check()
  {
    return detail::qualifiers::check<Instruction, Sem, OpScope, ptx::space_cluster_t>();
  }

public:
  // The forms without qualifiers are templates only to keep their target checks lazy (R9).

  // mbarrier.arrive.release.cluster.shared::cluster.b64 _, [addr];
  template <class Deferred = void>
  __device__ void arrive()
  {
    arrive(detail::dependent_t<ptx::sem_release_t, Deferred>{}, ptx::scope_cluster);
  }

  // mbarrier.arrive.release.cluster.shared::cluster.b64 _, [addr], count;
  template <class Deferred = void>
  __device__ void arrive(detail::arrivals_arg count)
  {
    arrive(detail::dependent_t<ptx::sem_release_t, Deferred>{}, ptx::scope_cluster, count.arg);
  }

  // mbarrier.arrive.{release,relaxed}.cluster.shared::cluster.b64 _, [addr];
  template <class Sem, class OpScope>
  __device__ void arrive(Sem sem, OpScope)
  {
    if constexpr (check<detail::qualifiers::mbarrier_arrive_remote, Sem, OpScope>())
    {
      detail::isa::mbarrier_arrive_remote(sem, addr_);
    }
  }

  // mbarrier.arrive.{release,relaxed}.cluster.shared::cluster.b64 _, [addr], count;
  template <class Sem, class OpScope, class Count>
  __device__ void arrive(Sem sem, OpScope, Count count)
  {
    if constexpr (check<detail::qualifiers::mbarrier_arrive_remote, Sem, OpScope>())
    {
      const ::cuda::std::uint32_t n = detail::arrivals_arg{count}.arg.value;
      if (detail::count_in_range(addr_, n, 1))
      {
        detail::isa::mbarrier_arrive_remote(sem, addr_, n);
      }
    }
  }

  // mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [addr], txCount;
  template <class Deferred = void>
  __device__ void complete_tx(detail::tx_bytes_arg bytes)
  {
    using relaxed = detail::dependent_t<ptx::sem_relaxed_t, Deferred>;
    if constexpr (check<detail::qualifiers::mbarrier_complete_tx, relaxed, ptx::scope_cluster_t>())
    {
      if (detail::count_in_range(addr_, bytes.arg.value, 0))
      {
        detail::isa::mbarrier_complete_tx_remote(addr_, bytes.arg.value);
      }
    }
  }

  // The shared::cluster address, for diagnostics and hand-written PTX.
  __device__ ::cuda::std::uint32_t cluster_address() const noexcept
  {
    return addr_;
  }
};

PTXW_NAMESPACE_END
