// ptxw/tasks/forked.h: the children of a task, reserved by owner_end::fork (tasks/worker.h) -- pushed
// to the pool or kept by the block, published when the task retires.
#pragma once

#include <ptxw/claim/engine.h>
#include <ptxw/inter_block/checks.h>
#include <ptxw/isa/global.h>
#include <ptxw/tasks/checks.h>
#include <ptxw/tasks/join.h>
#include <ptxw/tasks/task.h>

PTXW_NAMESPACE_BEGIN
namespace detail::tasks {
// Bytes of a T in shared memory: a __shared__ object cannot run T's constructor.
template <class T>
struct storage
{
  alignas(T) unsigned char bytes[sizeof(T)];

  __device__ void store(const T& v)
  {
    memcpy(bytes, &v, sizeof(T));
  }
  __device__ T load() const
  {
    T v;
    memcpy(&v, bytes, sizeof(T));
    return v;
  }
};
} // namespace detail::tasks

namespace tasks {
template <class T, class Method, unsigned Keep>
class owner_end;

// A task's children, reserved by fork(): up to n pushes (by any threads of the block, at once),
// published no later than retire. Move-only; it ends in retire with its task.
template <class T, class Method>
class [[nodiscard]] forked : checked::carried_sink
{
  using backend = detail::tasks::backend<T, Method>;
  pool<T, Method> pool_;
  typename backend::room room_;
  ::cuda::std::uint32_t* counts_; // the slot's pushes, pushed, fulls
  detail::tasks::storage<T>* kept_;
  ::cuda::std::uint32_t* kept_count_;
  ::cuda::std::uint32_t keep_capacity_, n_;
  bool open_ = true;

  template <class U, class M, unsigned K>
  friend class owner_end;
  __device__ forked(const pool<T, Method>& p, const typename backend::room& r, ::cuda::std::uint32_t* counts,
                    detail::tasks::storage<T>* kept, ::cuda::std::uint32_t* kept_count,
                    ::cuda::std::uint32_t keep_capacity, ::cuda::std::uint32_t n)
      : carried_sink(p.sink_)
      , pool_(p)
      , room_(r)
      , counts_(counts)
      , kept_(kept)
      , kept_count_(kept_count)
      , keep_capacity_(keep_capacity)
      , n_(n)
  {}

public:
  __device__ forked(forked&& o) noexcept
      : carried_sink(o)
      , pool_(o.pool_)
      , room_(o.room_)
      , counts_(o.counts_)
      , kept_(o.kept_)
      , kept_count_(o.kept_count_)
      , keep_capacity_(o.keep_capacity_)
      , n_(o.n_)
      , open_(o.open_)
  {
    o.open_ = false;
  }
  PTXW_REFUSED(PTXW_RULE(R21) "a fork's reservation is not copied (two copies would count its children twice): "
               "move it into owner_end::retire")
  forked(const forked&);
  __device__ ~forked()
  {
#if PTXW_CHECKED
    if (open_ && detail::claim::leads())
    {
      checked::report(carried(), rule::exact_termination, 0, n_, 0,
                      " (a fork ended without retire: its children are unaccounted; phase: the reservation)");
    }
#endif
  }

  // Any thread(s) of the block: push one child. Full (the queue has no room, or this is a push
  // beyond the reservation: R21) is never an overwrite: the child was not pushed. Only a pushed
  // child uses one of the n reservations: a full push leaves its reservation for the next.
  __device__ push_result push(const T& child)
  {
    if (detail::tasks::within_reservation(atomicAdd(&counts_[1], 1u), n_, carried()))
    {
      if (backend::push(pool_, room_, atomicAdd(&counts_[0], 1u), child))
      {
        return push_result::pushed;
      }
    }
    atomicSub(&counts_[1], 1u);
    atomicAdd(&counts_[2], 1u);
    return push_result::full;
  }

  // Every thread together: each thread whose `has` is true pushes its child, as push() does, after
  // a barrier, so that every child sees everything the block wrote before this call, on every method
  // (R25; push() alone carries only its thread's writes to a child that starts at once). The
  // barrier is there only where a push publishes (publication_v<Method> == at_push); elsewhere the
  // publication's barrier already orders the block's writes before the children (checked builds
  // still count the callers, R15). A thread without a child gets pushed: it had nothing to push.
  __device__ push_result push_synced(bool has, const T& child)
  {
    if constexpr (checked::on || publication_v<Method> == publication::at_push)
    {
      if (!detail::queue_barrier(carried(), counts_, " (a task pool's push_synced() not every thread of the block "
                                                     "made; barrier/slot: the worker slot, detail: how many did)"))
      {
        return has ? push_result::full : push_result::pushed;
      }
    }
    return has ? push(child) : push_result::pushed;
  }

  // Any thread(s): keep the child in this block, which runs it before taking other work (the
  // fallback when a push is full; the slot keeps up to its Keep). Full when the slot has no room.
  __device__ push_result keep(const T& child)
  {
    const ::cuda::std::uint32_t i = atomicAdd(kept_count_, 1u);
    if (i >= keep_capacity_)
    {
      return push_result::full;
    }
    kept_[i].store(child);
    return push_result::pushed;
  }

  // The reservation fork() made: n.
  __device__ ::cuda::std::uint32_t reserved() const noexcept
  {
    return n_;
  }

  // The reservations no pushed child uses: n less the children pushed so far (exact after a
  // barrier that follows the pushes, or in a thread for its own pushes).
  __device__ ::cuda::std::uint32_t remaining() const noexcept
  {
    return n_ - *static_cast<const volatile ::cuda::std::uint32_t*>(&counts_[1]);
  }

  // One thread, before any of them is pushed: j is to be arrived at by n tasks these children are
  // or will fork (tasks/join.h; n below 2^31). Checked builds count the n arrivals as owed to the
  // pool, which reports those never made when it ends (R26).
  __device__ void open(join_point& j, ::cuda::std::uint32_t n) const
  {
    detail::tasks::open(j, n, pool_.state_);
  }
};
} // namespace tasks
PTXW_NAMESPACE_END
