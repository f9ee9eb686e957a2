// CUB corpus (docs/sass-diff.md, "CUB between toolchains"): cub::DeviceSegmentedReduce on int and float.
#include <cub/device/device_segmented_reduce.cuh>

template <class T>
void segmented_reduce(const T* in, T* out, int segments, const int* offsets, void* temp, size_t& bytes)
{
  cub::DeviceSegmentedReduce::Sum(temp, bytes, in, out, segments, offsets, offsets + 1);
}

template void segmented_reduce<int>(const int*, int*, int, const int*, void*, size_t&);
template void segmented_reduce<float>(const float*, float*, int, const int*, void*, size_t&);
