// CUB corpus (docs/sass-diff.md, "CUB between toolchains"): cub::DeviceHistogram on int and float samples.
#include <cub/device/device_histogram.cuh>

template <class T>
void histogram(const T* samples, int* bins, int n, void* temp, size_t& bytes)
{
  cub::DeviceHistogram::HistogramEven(temp, bytes, samples, bins, 65, T(0), T(64), n);
}

template void histogram<int>(const int*, int*, int, void*, size_t&);
template void histogram<float>(const float*, int*, int, void*, size_t&);
