// ptxw/device/access.h: how the device-scope algorithms make work queues from the caller's
// temporary storage. They initialise that memory themselves, on the stream, so they are the one
// maker besides work_queue_host (R17).
#pragma once

#include <ptxw/work_queue.h>

#include <cuda_runtime.h>

PTXW_NAMESPACE_BEGIN
namespace device::detail {
struct access
{
  template <class T>
  static work_queue<T> queue(const T* items, unsigned long long n, work_queue_state* s)
  {
    return work_queue<T>(typename work_queue<T>::from_host{}, items, n, s, nullptr);
  }
};

// Zeroes a ticket or queue state on the stream (stream-ordered, and captured into graphs); checked
// mode also writes its tag (R17), a byte repeated so that cudaMemsetAsync writes it.
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
