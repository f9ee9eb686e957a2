// CUB corpus (docs/sass-diff.md, "CUB between toolchains"): cub::DeviceScan on int and float.
#include <cub/device/device_scan.cuh>

template <class T>
void scan(const T* in, T* out, int n, void* temp, size_t& bytes)
{
  cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n);
  cub::DeviceScan::InclusiveSum(temp, bytes, in, out, n);
}

template void scan<int>(const int*, int*, int, void*, size_t&);
template void scan<float>(const float*, float*, int, void*, size_t&);
