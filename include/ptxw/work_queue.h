// ptxw/work_queue.h: a block-level work queue -- items in global memory, each block taking the
// next ones from one global cursor when it is done with the last, so that items of very different
// costs balance over the blocks (sm_70 and newer).
//
//   __global__ void run(ptxw::work_queue<job> q)                 // from work_queue_host<job>::view()
//   {
//     __shared__ ptxw::queue_slot slot;
//     auto c = ptxw::open_queue<4>(slot, q);                     // up to 4 items per atomic
//     while (auto it = c.fetch())                                // every thread of the block (R15)
//       process(*it);                                            // the item, by value (R19)
//   }
//   // or, claiming the next items while working on these (the latency of the atomic hidden):
//   ptxw::for_each_item<4>(q, [&](const job& j) { process(j); });
//
// fetch() hands every thread of the block the same item, or "no item" once the queue is exhausted
// (an explicit state, not a sentinel). The item is a copy in registers, never a reference into
// shared memory, so the hand-written queue's race (a second fetch overwrites the shared item a slow
// thread still reads) cannot be written (R19). The leader hands ranges of indices over through two
// alternating shared buffers: one barrier per fetch, which also separates consecutive items.
//
// Batches of up to K items per atomic (K in [1, 32]) amortise the atomic and the hand-over (the
// persistent atomic queue spends about 450 ns between two 1 us items on an H100, docs/scheduling.md).
// Long items must not pile up on few blocks (a hot spot): the leader sizes each batch to about 16 us
// at the pace it measured between its claims -- one item while items take 8 us or more -- and to at
// most a quarter of what is left per block, so that the end of the queue stays balanced.
//
// Checked mode (PTXW_CHECKED) reports a fetch not every thread of the block made (R15; the block
// stops), a queue whose memory was not initialised (R17; no items), the read of no item (R19; T{}).
#pragma once

#include <ptxw/checked.h>
#include <ptxw/detail/isa/atom.h>

PTXW_NAMESPACE_BEGIN
template <class T>
class work_queue_host;
namespace device::detail {
struct access;
}

// The queue's global state. Owned and initialised by work_queue_host.
struct work_queue_state
{
  unsigned long long cursor; // next index to hand out; past the end once the queue is exhausted
  ::cuda::std::uint32_t tag; // detail::queue_tag once initialised (R17)
  ::cuda::std::uint32_t reserved;
};

namespace detail {
// "qqqq": one byte repeated, so that the device-scope algorithms write it with cudaMemsetAsync.
inline constexpr unsigned char queue_tag_byte = 0x71;
inline constexpr ::cuda::std::uint32_t queue_tag = 0x7171'7171u;

// Items are copied by cudaMemcpy (trivially copyable) and "no item" holds a T{} (default-constructible).
template <class T>
inline constexpr bool queue_item_ok = __is_trivially_copyable(T) && __is_constructible(T);

template <unsigned K>
inline constexpr bool batch_ok = K >= 1 && K <= 32;

template <class T, unsigned K>
class queue_cursor;
} // namespace detail

// The queue as a kernel sees it: a kernel parameter, made only by work_queue_host::view() (R17).
template <class T>
class work_queue
{
  static_assert(detail::queue_item_ok<T>, PTXW_RULE(R18) "a queue's items are copied by cudaMemcpy and "
                                          "returned by value: T must be trivially copyable and default-constructible");
  const T* items_            = nullptr;
  unsigned long long size_   = 0;
  work_queue_state* state_   = nullptr;
  const checked::sink* sink_ = nullptr;

  struct from_host
  {};
  __host__ __device__ work_queue(from_host, const T* items, unsigned long long size, work_queue_state* s,
                                 const checked::sink* sink)
      : items_(items)
      , size_(size)
      , state_(s)
      , sink_(sink)
  {}
  friend class work_queue_host<T>;
  friend struct device::detail::access; // ptxw/device/drain.h, from the caller's temporary storage
  template <class U, unsigned K>
  friend class detail::queue_cursor;

public:
  template <class Dep = void>
  __host__ __device__ work_queue()
  {
    static_assert(detail::dependent_false<Dep>, PTXW_RULE(R17) "a work_queue comes only from "
                                                "work_queue_host::view(), which owns and initialises its memory");
  }
};

// One fetch's result: an item and its index in the queue, or no item (the queue is exhausted).
template <class T>
class item
{
  T value_{};
  unsigned long long index_ = 0;
  bool present_             = false;
#if PTXW_CHECKED
  const checked::sink* sink_ = nullptr;
#endif

  template <class U, unsigned K>
  friend class detail::queue_cursor;
  __device__ explicit item([[maybe_unused]] const checked::sink* sink) // no item; the cursor fills one in
  {
#if PTXW_CHECKED
    sink_ = sink;
#endif
  }

public:
  __device__ explicit operator bool() const noexcept
  {
    return present_;
  }
  // The item. Where there is none: checked mode reports R19; the value is T{} either way.
  __device__ const T& operator*() const
  {
#if PTXW_CHECKED
    if (!present_)
    {
      checked::report(sink_, rule::one_item_at_a_time, 0, 0, 0, " (the read of no item)");
    }
#endif
    return value_;
  }
  __device__ const T* operator->() const
  {
    return &**this;
  }
  __device__ unsigned long long index() const noexcept
  {
    return index_;
  }
};

// The shared-memory end of a queue: declare it __shared__, pass it to open_queue(). What it holds
// is private: items come out of fetch(), by value.
class queue_slot
{
  alignas(16) unsigned long long range_[2][2]; // two alternating hand-over buffers: [first, end)

  template <class U, unsigned K>
  friend class detail::queue_cursor;

public:
  // The hand-written queue's `return item; // reference to smem` -- and its race -- as a diagnostic.
  struct read_through_fetch
  {
    template <class U>
    __device__ operator U() const
    {
      static_assert(detail::dependent_false<U>, PTXW_RULE(R19) "an item is fetch()'s return value (a "
                                                "copy); the slot's hand-over buffer is rewritten by the next fetch");
      return U{};
    }
  };
  static constexpr read_through_fetch item{}; // (static: no byte of shared memory)
};

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

// A block's cursor into q, handing out up to K items per atomic (K in [1, 32]).
template <unsigned K = 1, class T>
__device__ detail::queue_cursor<T, K> open_queue(queue_slot& slot, const work_queue<T>& q)
{
  return detail::queue_cursor<T, K>(slot, q);
}

// f(const T& item) for every item this block takes, claiming the next up to K items while working
// on these. Every thread of the block calls it (R15); consecutive items are separated by a barrier.
template <unsigned K = 1, class T, class F>
__device__ void for_each_item(const work_queue<T>& q, F&& f)
{
  __shared__ queue_slot slot;
  detail::queue_cursor<T, K> c(slot, q);
  c.for_each(f);
}

PTXW_NAMESPACE_END
