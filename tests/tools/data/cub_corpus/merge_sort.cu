// CUB corpus (docs/sass-diff.md, "CUB between toolchains"): cub::DeviceMergeSort on int and float keys.
#include <cub/device/device_merge_sort.cuh>

struct less
{
  template <class T>
  __host__ __device__ bool operator()(const T& a, const T& b) const { return a < b; }
};

template <class T>
void merge_sort(T* keys, int* values, int n, void* temp, size_t& bytes)
{
  cub::DeviceMergeSort::SortPairs(temp, bytes, keys, values, n, less{});
}

template void merge_sort<int>(int*, int*, int, void*, size_t&);
template void merge_sort<float>(float*, int*, int, void*, size_t&);
