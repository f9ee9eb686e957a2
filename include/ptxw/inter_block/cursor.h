// ptxw/inter_block/cursor.h: one block's position in a work queue (ptxw/inter_block/work_queue.h) -- the leader's
// batched claims, their hand-over through the slot's two buffers, and checked mode's R15/R17 reports.
#pragma once

#include <ptxw/detail/isa/atom.h>
#include <ptxw/inter_block/queue.h>

PTXW_NAMESPACE_BEGIN
namespace detail {
// One block's position in a queue. All its state is uniform over the block's threads.
template <class T, unsigned K>
class queue_cursor
{
  static_assert(batch_ok<K>, PTXW_RULE(R18) "a batch takes 1 to 32 items per atomic (K in [1, 32])");

  work_queue<T> q_;
  queue_slot* slot_;
  unsigned long long next_ = 0, end_ = 0; // the batch in hand
  ::cuda::std::uint32_t buffer_ = 0;
  bool done_                    = false;
  unsigned long long walked_    = 0; // items of the batch in hand: walked by the next claim (the pace)
  ::cuda::std::uint32_t last_claim_ = 0, pace_ = 0; // the leader's clock at its last claim; cycles per item

  __device__ static bool leads() // (the twins in tests/codegen/work_queue spell these two alike)
  {
    return threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
  }

  // Items for the next atomic, `walked` items after the last one: one while items are long; for
  // short ones as many as last about kPaceCycles at the recent pace (a running average of cycles
  // per item), at most K, and at most a quarter of what is left per block, so that neither a run of
  // long items after short ones (a hot spot) nor the end of the queue piles up on one block.
  static constexpr ::cuda::std::uint32_t kPaceCycles = 32000; // ~16 us at 2 GHz
  __device__ unsigned long long batch([[maybe_unused]] unsigned long long walked)
  {
    if constexpr (K <= 1) // (K = 0 is refused above: one error, no warning about k < K)
    {
      return 1;
    }
    else
    {
      const auto now      = static_cast<::cuda::std::uint32_t>(clock());
      const bool measured = last_claim_ != 0 && walked != 0;
      const auto per_item = measured ? static_cast<::cuda::std::uint32_t>((now - last_claim_) / walked) : 0u;
      last_claim_         = now | 1u;
      pace_               = !measured ? pace_ : pace_ == 0 ? per_item : pace_ - pace_ / 4 + per_item / 4;
      const unsigned long long by_pace = pace_ == 0 || pace_ >= kPaceCycles / 2 ? 1 : kPaceCycles / pace_;
      const unsigned long long blocks  = static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z;
      const unsigned long long by_left = q_.size_ > end_ ? (q_.size_ - end_) / (4 * blocks) : 0;
      const unsigned long long k       = by_pace < by_left ? by_pace : by_left;
      return k < 1 ? 1 : k < K ? k : K;
    }
  }

  __device__ static bool first_warp()
  {
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z) < 32u;
  }

  // What a lane of the first warp adds to the cursor: the batch for the leader, 0 for the others
  // (the same value in every lane lets ptxas aggregate the atomic, whose result it then shuffles at once).
  __device__ unsigned long long claim_size(bool leader, unsigned long long walked)
  {
    return leader ? batch(walked) : 0;
  }

  // The barrier of a fetch. Checked: every thread of the block takes part (R15).
  __device__ bool sync() const
  {
#if PTXW_CHECKED
    const auto callers = static_cast<::cuda::std::uint32_t>(__syncthreads_count(1));
    if (callers != blockDim.x * blockDim.y * blockDim.z)
    {
      if ((threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32u
          == static_cast<::cuda::std::uint32_t>(__ffs(__activemask()) - 1)) // one report per calling warp
      {
        checked::report(q_.sink_, rule::uniform_call, where(), 0, callers,
                        " (a fetch not every thread made; detail: how many did)");
      }
      return false;
    }
#else
    __syncthreads();
#endif
    return true;
  }

#if PTXW_CHECKED
  __device__ ::cuda::std::uint32_t where() const // the slot's shared-memory address, for reports
  {
    return static_cast<::cuda::std::uint32_t>(__cvta_generic_to_shared(slot_));
  }
  // R17, by the leader before its first claim: false where the queue is not initialised.
  __device__ bool initialised() const
  {
    if (q_.state_ == nullptr || q_.state_->tag != queue_tag)
    {
      checked::report(q_.sink_, rule::initialised, where(), 0, q_.state_ == nullptr ? 0u : q_.state_->tag,
                      " (detail: the tag found)");
      return false;
    }
    return true;
  }
#endif

  // The leader publishes [first, first + count) clipped to the queue, in the current buffer.
  __device__ void publish(unsigned long long first, unsigned long long count)
  {
    const unsigned long long size = q_.size_;
    slot_->range_[buffer_][0]     = first < size ? first : size;
    slot_->range_[buffer_][1]     = first < size ? (count <= size - first ? first + count : size) : size;
  }

  // Every thread: the published range becomes the batch in hand.
  __device__ bool take()
  {
    next_   = slot_->range_[buffer_][0];
    end_    = slot_->range_[buffer_][1];
    buffer_ ^= 1u;
    done_   = next_ == end_;
    if constexpr (K > 1)
    {
      walked_ = end_ - next_;
    }
    return !done_;
  }

public:
  __device__ queue_cursor(queue_slot& slot, const work_queue<T>& q)
      : q_(q)
      , slot_(&slot)
  {}

  // The next item for the whole block, or none. Every thread of the block calls it (R15).
  __device__ item<T> fetch()
  {
    if (done_)
    {
      return item<T>(q_.sink_);
    }
    if (next_ == end_)
    {
      const bool leader = leads();
      if (first_warp())
      {
        bool ok = leader;
#if PTXW_CHECKED
        ok = leader && initialised();
#endif
        const unsigned long long count = claim_size(leader, walked_);
        unsigned long long first       = 0;
        isa::atom_add_relaxed_gpu_if(ok, &q_.state_->cursor, count, first);
        if (leader)
        {
#if PTXW_CHECKED
          first = ok ? first : q_.size_; // not initialised: no items
#endif
          publish(first, count);
        }
      }
      if (!sync() || !take())
      {
        done_ = true;
        return item<T>(q_.sink_);
      }
    }
    else if (!sync())
    {
      done_ = true;
      return item<T>(q_.sink_);
    }
    item<T> it(q_.sink_);
    it.value_   = q_.items_[next_];
    it.index_   = next_++;
    it.present_ = true;
    return it;
  }

  // The prefetching loop (for_each_item): the claim of the next batch is issued before this
  // batch's items run and read after them, so that the atomic's latency hides behind the work;
  // within a batch the next item is loaded while the current one runs.
  template <class F>
  __device__ void for_each(F& f)
  {
    const bool leader = leads();
    const bool warp0  = first_warp();
    bool ok           = true;
#if PTXW_CHECKED
    ok = __syncthreads_or(leader && !initialised()) == 0;
#endif
    unsigned long long claim = 0, walked = 0; // walked: items of the batch walked since the last claim
    while (ok)
    {
      const unsigned long long count = claim_size(leader, walked);
      walked                         = end_ - next_;
      if (warp0)
      {
        isa::atom_add_relaxed_gpu_if(leader, &q_.state_->cursor, count, claim);
      }
      if (next_ != end_)
      {
        T current = q_.items_[next_];
        for (unsigned long long i = next_; i < end_; ++i)
        {
          if (i != next_ && !sync())
          {
            return;
          }
          const T following = i + 1 < end_ ? q_.items_[i + 1] : T{};
          f(static_cast<const T&>(current));
          current = following;
        }
      }
      if (leader)
      {
        asm volatile("" : "+l"(claim)::"memory"); // first use of the atomic's result: here, after the work
        publish(claim, count);
      }
      claim = 0; // dead until the next claim: no copy of it is carried around the loop
      if (!sync() || !take())
      {
        return;
      }
    }
  }
};
} // namespace detail

PTXW_NAMESPACE_END
