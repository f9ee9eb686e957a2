// CUB corpus (docs/sass-diff.md, "CUB between toolchains"): cub::DeviceSelect on int and float.
#include <cub/device/device_select.cuh>

struct positive
{
  template <class T>
  __host__ __device__ bool operator()(const T& x) const { return x > T(0); }
};

template <class T>
void select(const T* in, T* out, int* selected, int n, void* temp, size_t& bytes)
{
  cub::DeviceSelect::If(temp, bytes, in, out, selected, n, positive{});
  cub::DeviceSelect::Unique(temp, bytes, in, out, selected, n);
}

template void select<int>(const int*, int*, int*, int, void*, size_t&);
template void select<float>(const float*, float*, int*, int, void*, size_t&);
