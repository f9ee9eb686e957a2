// ptxw/algorithms/reduce.h: a single-pass reduction -- every block reduces its part, the block that
// arrives last (ptxw/inter_block/last_block.h) merges the partials, in one launch where cub::DeviceReduce
// launches two above one tile.
//
//   ptxw::device::reduce(temp, bytes, d_in, d_out, n, op, init, stream);   // *d_out = op(init, ...)
//   ptxw::device::sum(temp, bytes, d_in, d_out, n, stream);                 // init: OutputT{}
//
// op is associative and commutative (the order of the merge is not fixed); the accumulator has
// init's type (for sum: the output's value type, as CUB's Sum for an int64 output of int32 input).
// Pointer inputs of 4-byte items aligned to 16 bytes are read four at a time.
//
// The partials (one per block, at most policy.max_blocks) and the ticket come from the temporary
// storage; the ticket is set to zero on the stream before a launch of several blocks (one block
// writes the result itself). The kernel is ptxw's own and calls last_block once per block of a
// launch of several, so it takes the unchecked path in every build (last_block.h). Errors, before
// anything is written or launched: cudaErrorInvalidValue for too small a temporary storage, a null
// d_out, a null d_in with items, a negative n; cudaErrorInvalidDevice for a stream of another
// device. With no items *d_out = init, written by the launch of one block (as CUB).
#pragma once

#include <ptxw/algorithms/env.h>
#include <ptxw/algorithms/policy.h>
#include <ptxw/algorithms/temp_storage.h>
#include <ptxw/inter_block/last_block.h>

#include <cub/block/block_reduce.cuh>

#include <cuda/std/functional>
#include <cuda/std/iterator>
#include <cuda/std/type_traits>

PTXW_NAMESPACE_BEGIN
namespace device {
namespace detail {
// A partial: nothing yet, or a value. Combining never applies init, which the merge applies once.
template <class T>
struct partial
{
  T value;
  bool any;
};

template <class Op>
struct combine
{
  Op op;
  template <class T>
  __device__ partial<T> operator()(const partial<T>& a, const partial<T>& b) const
  {
    return !a.any ? b : !b.any ? a : partial<T>{op(a.value, b.value), true};
  }
};

template <int Threads, class T, class Op>
__device__ partial<T> block_reduce(partial<T> p, Op& op)
{
  using reduce_t = cub::BlockReduce<partial<T>, Threads>;
  __shared__ typename reduce_t::TempStorage scratch;
  return reduce_t(scratch).Reduce(p, combine<Op>{op});
}

template <int Threads, int Items, class In, class Out, class Op, class T>
__global__ __launch_bounds__(Threads) void reduce_kernel(In in, unsigned long long n, Out out, Op op, T init,
                                                         partial<T>* partials,
                                                         last_block_ticket_state<::cuda::std::uint32_t>* ticket)
{
  using item                      = ::cuda::std::iter_value_t<In>;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * Threads;
  unsigned long long i            = blockIdx.x * static_cast<unsigned long long>(Threads) + threadIdx.x;
  partial<T> mine{T(init), false};
  auto add = [&](const item& v) {
    mine.value = mine.any ? T(op(mine.value, v)) : T(v);
    mine.any   = true;
  };
  if constexpr (::cuda::std::is_pointer_v<In> && sizeof(item) == 4 && ::cuda::std::is_arithmetic_v<item>)
  {
    if (reinterpret_cast<::cuda::std::uintptr_t>(in) % 16 == 0)
    {
      constexpr int loads              = Items / 4; // four items per load, `loads` in flight per thread
      const auto* in4                  = reinterpret_cast<const int4*>(in);
      const unsigned long long vectors = n / 4;
      auto add4                        = [&](const int4& v) {
        const item* four = reinterpret_cast<const item*>(&v);
        add(four[0]), add(four[1]), add(four[2]), add(four[3]);
      };
      for (; i + (loads - 1) * stride < vectors; i += loads * stride)
      {
        int4 v[loads];
#pragma unroll
        for (int u = 0; u < loads; ++u)
        {
          v[u] = __ldg(in4 + i + u * stride);
        }
#pragma unroll
        for (int u = 0; u < loads; ++u)
        {
          add4(v[u]);
        }
      }
      for (; i < vectors; i += stride)
      {
        add4(__ldg(in4 + i));
      }
      i = vectors * 4 + blockIdx.x * static_cast<unsigned long long>(Threads) + threadIdx.x;
    }
  }
  for (; i < n; i += stride)
  {
    add(in[i]);
  }
  const partial<T> block = block_reduce<Threads>(mine, op);
  auto finish             = [&](const partial<T>& all) {
    if (threadIdx.x == 0)
    {
      *out = all.any ? T(op(init, all.value)) : init;
    }
  };
  if (gridDim.x == 1) // the only block: no partial to leave, no ticket, no second reduction
  {
    finish(block);
    return;
  }
  if (threadIdx.x == 0)
  {
    partials[blockIdx.x] = block;
  }
  if (::ptxw::detail::last_block_unchecked(ticket, gridDim.x))
  {
    partial<T> all{T(init), false};
    for (unsigned b = threadIdx.x; b < gridDim.x; b += Threads)
    {
      all = combine<Op>{op}(all, partials[b]);
    }
    __syncthreads(); // block_reduce's shared memory is used again
    finish(block_reduce<Threads>(all, op));
  }
}

template <class Selector, int I>
constexpr bool check_reduce_policy()
{
  constexpr reduce_policy p = policy_at<Selector>(I);
  static_assert(p.block_threads >= 32 && p.block_threads <= 1024 && p.block_threads % 32 == 0,
                PTXW_RULE(R18) "a reduce_policy's block_threads is a multiple of 32 in [32, 1024]");
  static_assert(p.items_per_thread >= 4 && p.items_per_thread % 4 == 0 && p.max_blocks >= 1,
                PTXW_RULE(R18) "a reduce_policy loads a multiple of 4 items per thread and has max_blocks >= 1");
  return true;
}

// Blocks for n items: one per block_threads * items_per_thread, at most max_blocks.
constexpr unsigned long long reduce_blocks(const reduce_policy& p, unsigned long long n)
{
  const unsigned long long tile   = static_cast<unsigned long long>(p.block_threads) * p.items_per_thread;
  const unsigned long long blocks = n / tile + (n % tile != 0);
  return blocks == 0 ? 1 : blocks < static_cast<unsigned long long>(p.max_blocks) ? blocks : p.max_blocks;
}

// The ticket, then the partials (the largest over the build's policies).
template <class Selector, class T>
constexpr temp_layout<2> reduce_layout(unsigned long long n)
{
  unsigned long long blocks = 0;
  for (int i = 0; i < build_arch_count; ++i)
  {
    const unsigned long long b = reduce_blocks(policy_at<Selector>(i), n);
    blocks                     = b > blocks ? b : blocks;
  }
  return {{sizeof(last_block_ticket_state<::cuda::std::uint32_t>), blocks * sizeof(partial<T>)}};
}
} // namespace detail

// *d_out = op(init, d_in[0], ..., d_in[n - 1]) in any order; the two-phase call.
template <class Selector = reduce_selector, class In, class Out, class NumItems, class Op, class T>
cudaError_t reduce(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Out d_out, NumItems num_items,
                   Op op, T init, cudaStream_t stream = 0)
{
  unsigned long long n = 0;
  if (!detail::item_count(num_items, n))
  {
    return cudaErrorInvalidValue;
  }
  void* parts[2];
  if (const cudaError_t err = detail::two_phase(detail::reduce_layout<Selector, T>(n), d_temp_storage,
                                                temp_storage_bytes, parts);
      err != cudaSuccess || d_temp_storage == nullptr)
  {
    return err;
  }
  if constexpr (::cuda::std::is_pointer_v<Out>)
  {
    if (d_out == nullptr)
    {
      return cudaErrorInvalidValue;
    }
  }
  if constexpr (::cuda::std::is_pointer_v<In>)
  {
    if (d_in == nullptr && n != 0)
    {
      return cudaErrorInvalidValue;
    }
  }
  return detail::dispatch_on_device<Selector>(stream, [&](auto arch, int device) -> cudaError_t {
    static_assert(detail::check_reduce_policy<Selector, decltype(arch)::value>());
    constexpr reduce_policy p = detail::policy_at<Selector>(decltype(arch)::value);
    auto* state  = static_cast<last_block_ticket_state<::cuda::std::uint32_t>*>(parts[0]);
    constexpr auto* kernel = detail::reduce_kernel<p.block_threads, p.items_per_thread, In, Out, Op, T>;
    unsigned long long blocks = 0;
    if (const cudaError_t err = detail::cached_resident_units<kernel>(device, p.block_threads, 1, blocks);
        err != cudaSuccess)
    {
      return err;
    }
    blocks = detail::reduce_blocks(p, n) < blocks ? detail::reduce_blocks(p, n) : blocks;
    // One block takes no ticket: it writes the result itself.
    if (blocks > 1)
    {
      if (const cudaError_t err = cudaMemsetAsync(state, 0, sizeof(*state), stream); err != cudaSuccess)
      {
        return err;
      }
    }
    kernel<<<static_cast<unsigned>(blocks), p.block_threads, 0, stream>>>(
      d_in, n, d_out, op, init, static_cast<detail::partial<T>*>(parts[1]), state);
    return cudaGetLastError();
  });
}

// *d_out = the sum of d_in[0, n), accumulated in the output's value type.
template <class Selector = reduce_selector, class In, class Out, class NumItems>
cudaError_t sum(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Out d_out, NumItems num_items,
                cudaStream_t stream = 0)
{
  using T = ::cuda::std::iter_value_t<Out>;
  return reduce<Selector>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, ::cuda::std::plus<T>{}, T{},
                          stream);
}

// Both phases, with temporary storage from e.resource.
template <class Selector = reduce_selector, class In, class Out, class NumItems, class Op, class T,
          class Resource = stream_ordered_resource>
cudaError_t reduce(In d_in, Out d_out, NumItems num_items, Op op, T init, env<Resource> e = {})
{
  return detail::with_temp_storage(e, [&](void* d_temp_storage, std::size_t& bytes) {
    return reduce<Selector>(d_temp_storage, bytes, d_in, d_out, num_items, op, init, e.stream);
  });
}
} // namespace device
PTXW_NAMESPACE_END
