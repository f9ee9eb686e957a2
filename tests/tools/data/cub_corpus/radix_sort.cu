// CUB corpus (docs/sass-diff.md, "CUB between toolchains"): cub::DeviceRadixSort on int and float keys.
#include <cub/device/device_radix_sort.cuh>

template <class T>
void radix_sort(const T* keys_in, T* keys_out, const int* values_in, int* values_out, int n, void* temp, size_t& bytes)
{
  cub::DeviceRadixSort::SortKeys(temp, bytes, keys_in, keys_out, n);
  cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in, keys_out, values_in, values_out, n);
}

template void radix_sort<int>(const int*, int*, const int*, int*, int, void*, size_t&);
template void radix_sort<float>(const float*, float*, const int*, int*, int, void*, size_t&);
