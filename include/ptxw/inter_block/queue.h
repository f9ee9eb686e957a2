// ptxw/inter_block/queue.h: the types a kernel sees of a work queue (ptxw/inter_block/work_queue.h) -- the
// queue itself, one fetch's item, the shared-memory slot -- and their global state.
#pragma once

#include <ptxw/claim/engine.h>
#include <ptxw/inter_block/checks.h>

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
  friend struct device::detail::access; // ptxw/algorithms/drain.h, from the caller's temporary storage
  template <class U, unsigned K>
  friend class detail::queue_cursor;

public:
  PTXW_ONLY_FROM_HOST(work_queue, "a work_queue comes only from work_queue_host::view(), which owns and "
                                  "initialises its memory")
};

// One fetch's result: an item and its index in the queue, or no item (the queue is exhausted).
template <class T>
class item : checked::carried_sink // R19's report
{
  T value_{};
  unsigned long long index_ = 0;
  bool present_             = false;

  template <class U, unsigned K>
  friend class detail::queue_cursor;
  __device__ explicit item(const checked::sink* sink) // no item; the cursor fills one in
      : carried_sink(sink)
  {}

public:
  __device__ explicit operator bool() const noexcept
  {
    return present_;
  }
  // The item. Where there is none: checked mode reports R19; the value is T{} either way.
  __device__ const T& operator*() const
  {
    detail::read_of_no_item(present_, carried());
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
  detail::claim::handover<detail::claim::range> ranges_; // two alternating hand-over buffers: [first, end)

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

PTXW_NAMESPACE_END
