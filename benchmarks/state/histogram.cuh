// benchmarks/state/histogram.cuh: the per-CTA-state benchmark's privatised histogram (device_state.cu),
// the same op for ptxw and for the plain launch; a histogram at one size; CUB's, the reference.
#pragma once

#include <cub/device/device_histogram.cuh>

#include <cstddef>
#include <string>
#include <vector>

#include "../check.h"
#include "tally.cuh"

namespace state_work {

// A privatised histogram of Bins even bins: Sample is unsigned char (bin = value, Bins = 256) or float
// in [0, 1). Per samples an index (32 bytes, two 16-byte loads). Copies copies of the bins, lane l
// counting into copy l % Copies (with 32, bank l: no conflicts at all); below 32, an index's samples
// equal to its first are counted with one atomic.
template <class Sample, int Bins, int Copies>
struct hist_op
{
  static constexpr int per = 32 / static_cast<int>(sizeof(Sample));
  static_assert(Copies == 32 || (Copies >= 1 && Copies <= 4), "copies: one per lane, or a few");
  static_assert(Bins * Copies % 4 == 0 && (Bins & (Bins - 1)) == 0, "whole 16-byte words, a power of 2");
  struct alignas(16) state
  {
    tally_part tally;
    unsigned bins[Bins * Copies];
  };
  const Sample* in;
  unsigned long long n; // samples
  unsigned* out;
  unsigned long long* tally;

  // The bin of a sample, or -1 outside [lower, upper), as CUB's HistogramEven.
  static __device__ int bin_of(Sample v)
  {
    if constexpr (sizeof(Sample) == 1)
    {
      return static_cast<int>(v);
    }
    else
    {
      return v >= 0.0f && v < 1.0f ? min(static_cast<int>(v * static_cast<float>(Bins)), Bins - 1) : -1;
    }
  }
  static __device__ void add(state& s, int b, unsigned lane, unsigned count)
  {
    if (b >= 0)
    {
      atomicAdd(&s.bins[b * Copies + (Copies == 32 ? lane : lane % Copies)], count);
    }
  }

  __device__ void setup(state& s) const
  {
    zero_shared(&s, sizeof(state));
  }
  __device__ void operator()(state& s, unsigned long long i) const
  {
    const unsigned lane            = threadIdx.x % 32;
    const unsigned long long first = i * per;
    if (first + per <= n)
    {
      union
      {
        uint4 w[2];
        Sample v[per];
      } u;
      const uint4* p = reinterpret_cast<const uint4*>(in + first);
      u.w[0]         = __ldg(p);
      u.w[1]         = __ldg(p + 1);
      if constexpr (Copies == 32)
      {
#pragma unroll
        for (int k = 0; k < per; ++k)
        {
          add(s, bin_of(u.v[k]), lane, 1u);
        }
      }
      else
      {
        const int first_bin = bin_of(u.v[0]);
        unsigned same       = 1;
#pragma unroll
        for (int k = 1; k < per; ++k)
        {
          const int b = bin_of(u.v[k]);
          if (b == first_bin)
          {
            ++same;
          }
          else
          {
            add(s, b, lane, 1u);
          }
        }
        add(s, first_bin, lane, same);
      }
    }
    else
    {
      for (unsigned long long k = first; k < n; ++k)
      {
        add(s, bin_of(in[k]), lane, 1u);
      }
    }
    count_index(s.tally, i);
  }
  __device__ void flush(state& s) const
  {
    const unsigned rotate = blockIdx.x * 61u; // CTAs flush from different bins: less contention in L2
    for (unsigned k = threadIdx.x; k < Bins; k += blockDim.x)
    {
      const unsigned b = (k + rotate) & (Bins - 1);
      unsigned total   = 0;
#pragma unroll
      for (unsigned c = 0; c < Copies; ++c)
      {
        total += s.bins[b * Copies + (c + b) % Copies]; // rotated: the lanes of a warp read 32 banks
      }
      if (total != 0)
      {
        atomicAdd(out + b, total);
      }
    }
    flush_tally(s.tally, tally);
  }
};

// A histogram at n samples: the op's type, its input and output.
template <class Sample, int Bins, int Copies>
struct hist_case
{
  using op_t = hist_op<Sample, Bins, Copies>;
  std::string name;
  const Sample* in;
  unsigned long long n; // samples
  unsigned* out;
  unsigned long long indices() const
  {
    return (n + op_t::per - 1) / op_t::per;
  }
  op_t op(unsigned long long* tally) const
  {
    return {in, n, out, tally};
  }
};

// One cub::DeviceHistogram::HistogramEven call of h, the histograms' reference: the size query where
// temp is null.
template <class Sample, int Bins, int Copies>
void cub_histogram(const hist_case<Sample, Bins, Copies>& h, void* temp, std::size_t& bytes)
{
  const int count = static_cast<int>(h.n);
  if constexpr (sizeof(Sample) == 1)
  {
    PTXW_BENCH_CHECK(cub::DeviceHistogram::HistogramEven(temp, bytes, h.in, h.out, Bins + 1, 0, 256, count));
  }
  else
  {
    PTXW_BENCH_CHECK(cub::DeviceHistogram::HistogramEven(temp, bytes, h.in, h.out, Bins + 1, 0.0f, 1.0f, count));
  }
}

// CUB's histogram, the histograms' reference: the bytes of its storage, its call's time, its bins.
struct hist_reference
{
  std::size_t cub_bytes = 0;
  double first_us       = 0;
  std::vector<unsigned> bins;
};

} // namespace state_work
