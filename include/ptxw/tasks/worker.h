// ptxw/tasks/worker.h: a block's end of a task pool -- the shared-memory slot, the owner end
// join() makes (next, fork, retire; the reservation fork() makes, push and keep, is tasks/forked.h),
// and for the stealing methods the thief end (steal only). Every operation is block-wide: one elected thread
// (the block's thread 0) operates on the pool and hands the result to the block through one of the
// slot's two alternating buffers, behind one barrier, as the work queue's hand-over does.
#pragma once

#include <ptxw/claim/engine.h>
#include <ptxw/inter_block/checks.h>
#include <ptxw/isa/global.h>
#include <ptxw/tasks/checks.h>
#include <ptxw/tasks/forked.h>
#include <ptxw/tasks/join.h>
#include <ptxw/tasks/task.h>

PTXW_NAMESPACE_BEGIN
namespace tasks {
// The shared-memory end of a pool: declare it __shared__, pass it to pool::join. What it holds is
// private. Keep: children a block can keep for itself when a push finds the queue full.
template <class T, class Method, unsigned Keep>
class worker_slot
{
  static_assert(Keep >= 1, PTXW_RULE(R23) "a worker slot keeps at least one child (Keep >= 1)");
  using room  = typename detail::tasks::backend<T, Method>::room;
  using local = typename detail::tasks::backend<T, Method>::local;
  struct record
  {
    detail::tasks::storage<T> value;
    unsigned long long id;
    room where; // the task's pushes: where they go (stealing)
    ::cuda::std::uint32_t kept; // kept children left in the slot after this take
    ::cuda::std::uint32_t present; // 0: no task (finished, or a steal that failed)
  };
  detail::claim::handover<record> records_;
  detail::tasks::storage<T> kept_[Keep];
  ::cuda::std::uint32_t kept_count_;
  ::cuda::std::uint32_t pushes_[4]; // this task's: positions drawn, children pushed, pushes full, published
  // The leader's state, here rather than in owner_end: registers are allocated to every thread, and
  // this lives through the whole task loop, the user's work included.
  local local_; // the method's registers of the leader (open, take, reserve, publish, close)
  counters counts_; // the leader's, summed into the pool's when its worker ends

  template <class U, class M, unsigned K>
  friend class owner_end;
};


template <class T, class Method, unsigned Keep>
class thief_end;

// The block's end of the pool, from pool::join: takes tasks (next), reserves children (fork),
// ends tasks (retire). One per block (R22); every operation is called by every thread together.
template <class T, class Method, unsigned Keep>
class owner_end
{
  using backend = detail::tasks::backend<T, Method>;
  using slot_t  = worker_slot<T, Method, Keep>;
  using record  = typename slot_t::record;
  // The row's publication (R25) is what the protocol does: a method counts its children at fork
  // exactly when its pushes publish at once.
  static_assert(backend::counts_at_fork == (publication_v<Method> == publication::at_push),
                PTXW_RULE(R25) "a method's pushes publish at once (counts_at_fork) exactly when its row's memory "
                               "is one_queue (publication_v)");

  pool<T, Method> pool_;
  slot_t* slot_;
  typename backend::room room_{}; // the current task's
  const join_point* joined_ = nullptr; // the join the current task arrived at last (the leader's, R26)
  ::cuda::std::uint32_t buffer_ = 0, kept_at_take_ = 0;
  bool done_ = false;

  friend class pool<T, Method>;
  friend class thief_end<T, Method, Keep>;
  __device__ owner_end(const pool<T, Method>& p, slot_t& s)
      : pool_(p)
      , slot_(&s)
  {
    if (detail::claim::leads())
    {
      backend::open(pool_, slot_->local_);
      slot_->counts_     = counters{};
      slot_->kept_count_ = 0;
    }
  }

  // The leader: the next task into r -- a kept child first, else the method's, waiting while
  // tasks are live; r.present = 0 once the pool is finished.
  __device__ void lead_next(record& r)
  {
    if (slot_->kept_count_ != 0)
    {
      r.value = slot_->kept_[--slot_->kept_count_];
      lead_took(r, ~0ull);
      return;
    }
    detail::tasks::entry<T> e;
    unsigned long long since = 0;
    for (unsigned backoff = 32;; backoff = backoff < 4096u ? 2 * backoff : backoff)
    {
      const detail::tasks::taken k = backend::take(pool_, slot_->local_, e, slot_->counts_);
      if (k == detail::tasks::taken::got)
      {
        break;
      }
      const unsigned long long live =
        k == detail::tasks::taken::none ? detail::isa::ld_acquire(&pool_.state_->live) : 0;
      if (live == 0 || !detail::tasks::may_wait(since, live, pool_.sink_))
      {
        r.present = 0;
        return;
      }
      __nanosleep(backoff);
    }
    r.value.store(e.value);
    lead_took(r, detail::tasks::id_of(e));
  }

  // The leader, where a task was taken into r.value: the rest of the record.
  __device__ void lead_took(record& r, unsigned long long id)
  {
    slot_->pushes_[0] = slot_->pushes_[1] = slot_->pushes_[2] = slot_->pushes_[3] = 0;
    r.present = 1;
    r.id      = id;
    r.where   = backend::reserve(pool_, slot_->local_);
    r.kept    = slot_->kept_count_;
    ++slot_->counts_.tasks_run;
  }

  // Every thread: the record the leader wrote, as a ticket.
  __device__ task<T> hand_over(const record& r)
  {
    task<T> t(pool_.sink_);
    buffer_ ^= 1u;
    joined_ = nullptr;
    if (r.present != 0)
    {
      t.value_      = r.value.load();
      t.id_         = r.id;
      t.present_    = true;
      room_         = r.where;
      kept_at_take_ = r.kept;
    }
    return t;
  }

  // The leader, once the pool is finished: its counts into the pool's.
  __device__ void lead_finish()
  {
    counters& sum     = pool_.state_->sum;
    const counters& c = slot_->counts_;
    atomicAdd(&sum.tasks_run, c.tasks_run);
    atomicAdd(&sum.steals_tried, c.steals_tried);
    atomicAdd(&sum.steals_won, c.steals_won);
    atomicAdd(&sum.failed_cas, c.failed_cas);
    atomicAdd(&sum.kept, c.kept);
    atomicAdd(&sum.full, c.full);
    backend::close(pool_, slot_->local_);
  }

  // Every thread: one steal from the victim's deque, as next() hands a task over (thief_end::steal).
  __device__ task<T> steal_from(::cuda::std::uint32_t victim)
  {
    record& r = slot_->records_.buffer[buffer_];
    if (detail::claim::leads())
    {
      detail::tasks::entry<T> e;
      r.present = 0;
      if (backend::steal(pool_, slot_->local_, victim, e, slot_->counts_))
      {
        r.value.store(e.value);
        lead_took(r, detail::tasks::id_of(e));
      }
    }
    __syncthreads();
    return hand_over(r);
  }

public:
  owner_end(const owner_end&)            = delete; // one owner per block (R22)
  owner_end& operator=(const owner_end&) = delete;

  // Every thread together: the next task, the same in every thread; an empty ticket once the pool
  // is finished (no task is queued or running, R21), and from then on.
  __device__ task<T> next()
  {
    if (done_)
    {
      return task<T>(pool_.sink_);
    }
    if constexpr (checked::on) // R15, before a task is taken: a block without all its threads stops
    {
      if (!detail::queue_barrier(pool_.sink_, slot_, " (a task pool's next() not every thread of the block made; "
                                                     "barrier/slot: the worker slot, detail: how many did)"))
      {
        done_ = true;
        return task<T>(pool_.sink_);
      }
    }
    record& r = slot_->records_.buffer[buffer_];
    if (detail::claim::leads())
    {
      lead_next(r);
    }
    __syncthreads();
    task<T> t = hand_over(r);
    if (!t)
    {
      done_ = true;
      if (detail::claim::leads())
      {
        lead_finish();
      }
    }
    return t;
  }

  // Every thread together: reserve up to n children of t, counted live before t can retire (R21).
  __device__ forked<T, Method> fork(const task<T>&, ::cuda::std::uint32_t n)
  {
    if constexpr (backend::counts_at_fork) // its pushes publish at once: count them first
    {
      if (n != 0) // the block's n (every thread together): a fork of none has no push to precede
      {
        if (detail::claim::leads())
        {
          detail::isa::add_relaxed(&pool_.state_->live, n);
        }
        __syncthreads();
      }
    }
    return forked<T, Method>(pool_, room_, slot_->pushes_, slot_->kept_, &slot_->kept_count_, Keep, n);
  }

  // Every thread together, holding kids: publish the children pushed so far where the method can
  // (publication_v<Method> == at_publish: one release of bottom, as retire's, after a barrier), so
  // other blocks may run them while this task goes on, and they see everything the block wrote
  // before this call (R25). Elsewhere a barrier only: the shared queues published each child at its
  // push, the static lists publish at the round's end. Pushes after it are published by retire.
  __device__ void publish(forked<T, Method>&)
  {
    if (!detail::queue_barrier(pool_.sink_, slot_, " (a task pool's publish() not every thread of the block made; "
                                                    "barrier/slot: the worker slot, detail: how many did)"))
    {
      return;
    }
    if constexpr (publication_v<Method> == publication::at_publish)
    {
      if (detail::claim::leads())
      {
        const ::cuda::std::uint32_t fresh = slot_->pushes_[1] - slot_->pushes_[3];
        if (fresh != 0) // counted live before they are published, as at retire
        {
          detail::isa::add_release(&pool_.state_->live, static_cast<unsigned long long>(fresh));
          backend::publish(pool_, slot_->local_, fresh);
          slot_->pushes_[3] += fresh;
        }
      }
    }
  }

  // Every thread together: end t with its children. Publishes the pushes not yet published
  // (stealing: one release of bottom), counts the kept ones, returns the unused reservations; t is
  // consumed (R20).
  __device__ void retire(task<T>&& t, forked<T, Method>&& kids)
  {
    __syncthreads(); // every push and keep of the task is written
    if (detail::claim::leads())
    {
      const ::cuda::std::uint32_t pushed = slot_->pushes_[1] - slot_->pushes_[3];
      const ::cuda::std::uint32_t kept   = slot_->kept_count_ < Keep ? slot_->kept_count_ : Keep;
      slot_->kept_count_                 = kept;
      const long long delta = static_cast<long long>(pushed) + (kept - kept_at_take_) - 1
                            - (backend::counts_at_fork ? static_cast<long long>(kids.n_) : 0);
      if (backend::counts_live && delta != 0) // children counted before they are published
      {
        const unsigned long long d = static_cast<unsigned long long>(delta);
        if constexpr (checked::on) // the retire that ends the pool checks the joins (R26)
        {
          if (detail::acquired_if_last(detail::isa::atom_add_release_gpu(&pool_.state_->live, d), 0ull - d))
          {
            detail::tasks::owed_at_end(pool_.state_, pool_.sink_);
          }
        }
        else
        {
          detail::isa::add_release(&pool_.state_->live, d);
        }
      }
      backend::publish(pool_, slot_->local_, pushed);
      slot_->counts_.kept += kept - kept_at_take_;
      slot_->counts_.full += slot_->pushes_[2];
    }
    t.present_  = false;
    kids.open_ = false;
  }

  // A task without children.
  __device__ void retire(task<T>&& t)
  {
    retire(static_cast<task<T>&&>(t), fork(t, 0));
  }

  // Every thread together, holding t: t's arrival at j, one of the n tasks j was opened for
  // (tasks/join.h). True in every thread of the block whose arrival was the n-th: the n tasks'
  // writes before their arrival are visible to it. t goes on (retire it as any).
  [[nodiscard(PTXW_RULE(R26) "last_at says whether this arrival was the last, whose block goes on with the "
               "join's job: look at it")]] __device__ bool last_at(join_point& j, const task<T>& t)
  {
    return detail::tasks::last_at(j, static_cast<bool>(t), joined_, pool_.state_, pool_.sink_);
  }

  // Any thread: this block's worker index, 0 .. workers() - 1, the same in every thread and for
  // the whole launch -- the index of per-block memory (stealing_deques: of the block's deque).
  __device__ ::cuda::std::uint32_t worker() const noexcept
  {
    return detail::tasks::block_rank();
  }
  __device__ ::cuda::std::uint32_t workers() const noexcept
  {
    return gridDim.x * gridDim.y * gridDim.z;
  }

  // Every thread together (stealing_deques): the thief end of block i's deque.
  __device__ thief_end<T, Method, Keep> victim(::cuda::std::uint32_t i)
  {
    static_assert(is_stealing_v<Method>,
                  PTXW_RULE(R22) "only the stealing methods (stealing_deques<...>) have thief ends");
    return thief_end<T, Method, Keep>(*this, i);
  }
};

// A block's thief end of another block's deque (stealing_deques): it steals at the top, nothing else (R22).
template <class T, class Method, unsigned Keep>
class thief_end
{
  owner_end<T, Method, Keep>* owner_;
  ::cuda::std::uint32_t victim_;

  friend class owner_end<T, Method, Keep>;
  __device__ thief_end(owner_end<T, Method, Keep>& o, ::cuda::std::uint32_t victim)
      : owner_(&o)
      , victim_(victim)
  {}

public:
  // Every thread together: one try at the victim's oldest task; an empty ticket if it had none or
  // another block won it (which says nothing about the pool being finished). Retire it as any.
  __device__ task<T> steal()
  {
    return owner_->steal_from(victim_);
  }

  PTXW_REFUSED(PTXW_RULE(R22) "a thief end only steals, at the top; popping at the bottom is the owner's "
               "(owner_end::next)")
  task<T> pop();
};

template <class T, class Method>
template <unsigned Keep>
__device__ owner_end<T, Method, Keep> pool<T, Method>::join(worker_slot<T, Method, Keep>& slot) const
{
  return owner_end<T, Method, Keep>(*this, slot);
}
} // namespace tasks
PTXW_NAMESPACE_END
