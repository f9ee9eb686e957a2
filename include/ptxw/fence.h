// ptxw/fence.h: fences between the generic and the async proxy, and for mbarrier init.
//
// Calls between ptxw's own functions are qualified: cuda::ptx has functions of the same names and
// argument-dependent lookup on its tags would pick those, skipping ptxw's checks.
//
// The first block binds each PTX form with cuda::ptx tags; only the combinations the PTX ISA
// defines compile (R10), only on targets that have them (R9): the rows of ptxw/isa/qualifiers.h. The second block names each fence
// after the protocol step it serves; use those in kernels.
//
// What ptxas 13.0 emits (tests/codegen/fence): fence.proxy.async.global is FENCE.VIEW.ASYNC.G;
// the shared::cta and sync_restrict release forms are MEMBAR.ALL.CTA + FENCE.VIEW.ASYNC.S; the
// generic and shared::cluster forms MEMBAR.ALL.GPU + FENCE.VIEW.ASYNC.S. The sync_restrict acquire
// form and fence.mbarrier_init emit no SASS at all: only the PTX shows them.
#pragma once

#include <ptxw/core/target.h>
#include <ptxw/isa/qualifiers.h>

#if PTXW_CCCL_FAMILY_HEADERS
#  include <cuda/__ptx/instructions/fence.h>
#endif

PTXW_NAMESPACE_BEGIN
// ---- PTX forms ---------------------------------------------------------------------------------

// fence.proxy.async;  // PTX ISA 80, SM_90. All state spaces.
template <class Deferred = void>
__device__ void fence_proxy_async()
{
  using none = detail::dependent_t<detail::qualifiers::none_t, Deferred>;
  if constexpr (detail::qualifiers::check<detail::qualifiers::fence_proxy_async, none, none, none>())
  {
    ptx::fence_proxy_async();
  }
}

// fence.proxy.async.space;  // PTX ISA 80, SM_90. .space = { .global, .shared::cta, .shared::cluster }
template <class Space>
__device__ void fence_proxy_async(Space space)
{
  using none = detail::dependent_t<detail::qualifiers::none_t, Space>;
  if constexpr (detail::qualifiers::check<detail::qualifiers::fence_proxy_async, none, none, Space>())
  {
    ptx::fence_proxy_async(space);
  }
}

// fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;  // PTX ISA 86, SM_90
// fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;      // PTX ISA 86, SM_90
template <class Sem, class Space, class Scope>
__device__ void fence_proxy_async_generic(Sem sem, Space space, Scope scope)
{
  if constexpr (detail::qualifiers::check<detail::qualifiers::fence_proxy_async_generic, Sem, Scope, Space>())
  {
    ptx::fence_proxy_async_generic_sync_restrict(sem, space, scope);
  }
}

// fence.mbarrier_init.release.cluster;  // PTX ISA 80, SM_90
template <class Sem, class Scope>
__device__ void fence_mbarrier_init(Sem sem, Scope scope)
{
  using none = detail::dependent_t<detail::qualifiers::none_t, Sem>;
  if constexpr (detail::qualifiers::check<detail::qualifiers::fence_mbarrier_init, Sem, Scope, none>())
  {
    ptx::fence_mbarrier_init(sem, scope);
  }
}

// ---- Protocol steps ----------------------------------------------------------------------------

// R7. After a thread initialised cluster barriers, before the cluster-wide sync that lets other
// CTAs (or async operations they issue) touch them. One fence covers all barriers it initialised.
template <class Deferred = void>
__device__ void fence_after_mbarrier_init()
{
  ::ptxw::fence_mbarrier_init(detail::dependent_t<ptx::sem_release_t, Deferred>{}, ptx::scope_cluster);
}

// After generic-proxy writes (st.shared, st.global) that an async-proxy operation issued later
// reads: the source of cp.async.bulk shared->global, a TMA store, a tensor-core operand.
template <class Space>
__device__ void fence_before_async_read(Space space)
{
  ::ptxw::fence_proxy_async(space);
}

// R4. A thread is done reading a shared-memory slot the async proxy writes (a CLC response, a
// TMA destination): release its reads before the sync that lets the slot be written again.
template <class Deferred = void>
__device__ void fence_after_slot_read()
{
  ::ptxw::fence_proxy_async_generic(detail::dependent_t<ptx::sem_release_t, Deferred>{}, ptx::space_shared, ptx::scope_cluster);
}

// R4. The thread about to issue the async write into a slot (after the sync that followed every
// reader's fence_after_slot_read): acquire those reads so the write is ordered after them.
template <class Deferred = void>
__device__ void fence_before_slot_write()
{
  ::ptxw::fence_proxy_async_generic(detail::dependent_t<ptx::sem_acquire_t, Deferred>{}, ptx::space_cluster, ptx::scope_cluster);
}

PTXW_NAMESPACE_END