// CUB corpus (docs/sass-diff.md, "CUB between toolchains"): cub::DeviceReduce on int and float.
#include <cub/device/device_reduce.cuh>

template <class T>
void reduce(const T* in, T* out, int n, void* temp, size_t& bytes)
{
  cub::DeviceReduce::Sum(temp, bytes, in, out, n);
  cub::DeviceReduce::Max(temp, bytes, in, out, n);
}

template void reduce<int>(const int*, int*, int, void*, size_t&);
template void reduce<float>(const float*, float*, int, void*, size_t&);
