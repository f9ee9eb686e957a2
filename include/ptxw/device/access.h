// ptxw/device/access.h: how the device-scope algorithms make tickets and queues from the caller's
// temporary storage. They initialise that memory themselves, on the stream, so they are the one
// maker besides last_block_ticket_host and work_queue_host (R17).
#pragma once

#include <ptxw/last_block.h>
#include <ptxw/work_queue.h>

#include <cuda_runtime.h>

PTXW_NAMESPACE_BEGIN
namespace device::detail {
struct access
{
  template <class Count>
  static last_block_ticket<Count> ticket(last_block_ticket_state<Count>* s)
  {
    return last_block_ticket<Count>(typename last_block_ticket<Count>::from_host{}, s, nullptr);
  }
  template <class T>
  static work_queue<T> queue(const T* items, unsigned long long n, work_queue_state* s)
  {
    return work_queue<T>(typename work_queue<T>::from_host{}, items, n, s, nullptr);
  }
};

// Zeroes a ticket or queue state on the stream; checked mode also writes its tag (R17), a byte
// repeated so that cudaMemsetAsync writes it (stream-ordered, and captured into graphs).
template <class State>
cudaError_t fresh_state(State* s, unsigned char tag_byte, cudaStream_t stream)
{
  cudaError_t err = cudaMemsetAsync(s, 0, sizeof(State), stream);
#if PTXW_CHECKED
  if (err == cudaSuccess)
  {
    err = cudaMemsetAsync(&s->tag, tag_byte, sizeof(s->tag), stream);
  }
#else
  (void) tag_byte;
#endif
  return err;
}

} // namespace device::detail
PTXW_NAMESPACE_END
