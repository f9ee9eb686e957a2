// ptxw/inter_block/cursor.h: one block's position in a work queue (ptxw/inter_block/work_queue.h) --
// the leader's claims on the claim engine (ptxw/claim/engine.h), their hand-over through the slot's
// two buffers, and checked mode's R15/R17 hooks (ptxw/inter_block/checks.h).
#pragma once

#include <ptxw/claim/engine.h>
#include <ptxw/inter_block/checks.h>
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
  claim::pace pace_{};

  // Items the leader's next claim takes, `walked` items after its last (the claim engine's pace):
  // at most K, and at most a quarter of what is left per block.
  __device__ unsigned long long batch([[maybe_unused]] unsigned long long walked)
  {
    if constexpr (K <= 1) // (K = 0 is refused above: one error, no warning about k < K)
    {
      return 1;
    }
    else
    {
      const unsigned long long blocks = static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z;
      return pace_.size(static_cast<::cuda::std::uint32_t>(walked), q_.size_ > end_ ? q_.size_ - end_ : 0, blocks, K);
    }
  }

  // What a lane of the first warp asks for: the batch for the leader, 0 for the others (the same
  // value in every lane would let ptxas aggregate the atomic, whose result it then shuffles at once).
  __device__ unsigned long long claim_size(bool leader, unsigned long long walked)
  {
    return leader ? batch(walked) : 0;
  }

  __device__ bool sync() const
  {
    return queue_barrier(q_.sink_, slot_);
  }

  __device__ bool initialised() const
  {
    return queue_initialised(q_.state_, queue_tag, q_.sink_, slot_);
  }

  // The leader publishes [first, first + count), clipped to the queue, in the current buffer.
  __device__ void publish(unsigned long long first, unsigned long long count)
  {
    const claim::range r           = claim::clipped(first, count, q_.size_);
    slot_->ranges_.buffer[buffer_].first = r.first;
    slot_->ranges_.buffer[buffer_].end   = r.end;
  }

  // Every thread: the published range becomes the batch in hand.
  __device__ bool take()
  {
    next_ = slot_->ranges_.buffer[buffer_].first;
    end_  = slot_->ranges_.buffer[buffer_].end;
    buffer_ ^= 1u;
    done_ = next_ == end_;
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
      const bool leader = claim::leads();
      if (claim::in_first_warp())
      {
        const bool ok                  = leader && initialised();
        const unsigned long long count = claim_size(leader, walked_);
        unsigned long long first       = 0;
        claim::issue(ok, &q_.state_->cursor, count, first);
        if (leader)
        {
          publish(ok ? first : q_.size_, count); // not initialised: no items
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
    const bool leader = claim::leads();
    const bool warp0  = claim::in_first_warp();
    const bool ok     = queue_all_initialised(leader, q_.state_, queue_tag, q_.sink_, slot_);
    unsigned long long claimed = 0, walked = 0; // walked: items of the batch walked since the last claim
    while (ok)
    {
      const unsigned long long count = claim_size(leader, walked);
      walked                         = end_ - next_;
      if (warp0)
      {
        claim::issue(leader, &q_.state_->cursor, count, claimed);
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
        claim::use_after_work(claimed);
        publish(claimed, count);
      }
      claimed = 0; // dead until the next claim: no copy of it is carried around the loop
      if (!sync() || !take())
      {
        return;
      }
    }
  }
};
} // namespace detail

PTXW_NAMESPACE_END
