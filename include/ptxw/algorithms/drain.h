// ptxw/algorithms/drain.h: every item of an array taken once by some block, through a work queue
// (ptxw/inter_block/work_queue.h) whose cursor lives in the caller's temporary storage.
//
//   // op(item) is called by every thread of the block that took the item (a block-wide job):
//   auto op = [=] __device__ (const job& j) { process_with_whole_block(j); };
//   ptxw::device::drain(temp, bytes, d_jobs, n, op, stream);
//
// Blocks of policy.block_threads threads, as many as fit on the GPU at once, take up to
// policy.batch items per atomic while working on the last ones (for_each_item). Each item goes to
// exactly one block; consecutive items of a block are separated by a barrier, so op may use
// __syncthreads and shared memory. Errors, before anything is written or launched:
// cudaErrorInvalidValue for too small a temporary storage, null items with n > 0 or a negative n;
// cudaErrorInvalidDevice for a stream of another device. No items is a valid no-op.
#pragma once

#include <ptxw/algorithms/env.h>
#include <ptxw/algorithms/policy.h>
#include <ptxw/algorithms/temp_storage.h>
#include <ptxw/inter_block/work_queue.h>

#include <cuda/std/type_traits>

PTXW_NAMESPACE_BEGIN
namespace device {
namespace detail {
// The one maker of work queues besides work_queue_host (R17): drain initialises the queue's memory
// in the caller's temporary storage itself, on the stream.
struct access
{
  template <class T>
  static work_queue<T> queue(const T* items, unsigned long long n, work_queue_state* s)
  {
    return work_queue<T>(typename work_queue<T>::from_host{}, items, n, s, nullptr);
  }
};

// A fresh queue state, set on the stream (so that a captured graph sets it at every replay):
// cursor 0, and in checked mode its tag (R17), one byte repeated so that cudaMemsetAsync writes it.
inline cudaError_t fresh_queue(work_queue_state* s, cudaStream_t stream)
{
  cudaError_t err = cudaMemsetAsync(s, 0, sizeof(*s), stream);
#if PTXW_CHECKED
  if (err == cudaSuccess)
  {
    err = cudaMemsetAsync(&s->tag, ::ptxw::detail::queue_tag_byte, sizeof(s->tag), stream);
  }
#endif
  return err;
}

template <int Threads, int Batch, class T, class Op>
__global__ __launch_bounds__(Threads) void drain_kernel(work_queue<T> q, Op op)
{
  for_each_item<Batch>(q, op);
}

template <class Selector, int I>
constexpr bool check_drain_policy()
{
  constexpr drain_policy p = policy_at<Selector>(I);
  static_assert(p.block_threads >= 32 && p.block_threads <= 1024 && p.block_threads % 32 == 0,
                PTXW_RULE(R18) "a drain_policy's block_threads is a multiple of 32 in [32, 1024]");
  static_assert(::ptxw::detail::batch_ok<p.batch>, PTXW_RULE(R18) "a drain_policy's batch is in [1, 32]");
  return true;
}
} // namespace detail

// Each of d_items[0, num_items) to op, called by every thread of one block; the two-phase call.
template <class Selector = drain_selector, class T, class NumItems, class Op>
cudaError_t drain(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_items, NumItems num_items, Op op,
                  cudaStream_t stream = 0)
{
  unsigned long long n = 0;
  if (!detail::item_count(num_items, n))
  {
    return cudaErrorInvalidValue;
  }
  void* parts[1];
  if (const cudaError_t err = detail::two_phase(detail::temp_layout<1>{{sizeof(work_queue_state)}}, d_temp_storage,
                                                temp_storage_bytes, parts);
      err != cudaSuccess || d_temp_storage == nullptr || n == 0)
  {
    return err;
  }
  if (d_items == nullptr)
  {
    return cudaErrorInvalidValue;
  }
  return detail::dispatch_on_device<Selector>(stream, [&](auto arch, int device) -> cudaError_t {
    static_assert(detail::check_drain_policy<Selector, decltype(arch)::value>());
    constexpr drain_policy p = detail::policy_at<Selector>(decltype(arch)::value);
    auto* state              = static_cast<work_queue_state*>(parts[0]);
    if (const cudaError_t err = detail::fresh_queue(state, stream); err != cudaSuccess)
    {
      return err;
    }
    constexpr auto* kernel      = detail::drain_kernel<p.block_threads, p.batch, T, Op>;
    unsigned long long resident = 0;
    if (const cudaError_t err = detail::cached_resident_units<kernel>(device, p.block_threads, 1, resident);
        err != cudaSuccess)
    {
      return err;
    }
    const unsigned long long blocks = resident < n ? resident : n;
    kernel<<<static_cast<unsigned>(blocks), p.block_threads, 0, stream>>>(detail::access::queue(d_items, n, state), op);
    return cudaGetLastError();
  });
}

// Both phases, with temporary storage from e.resource.
template <class Selector = drain_selector, class T, class NumItems, class Op, class Resource = stream_ordered_resource>
cudaError_t drain(const T* d_items, NumItems num_items, Op op, env<Resource> e = {})
{
  return detail::with_temp_storage(e, [&](void* d_temp_storage, std::size_t& bytes) {
    return drain<Selector>(d_temp_storage, bytes, d_items, num_items, op, e.stream);
  });
}
} // namespace device
PTXW_NAMESPACE_END
