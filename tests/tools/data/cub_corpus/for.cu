// CUB corpus (docs/sass-diff.md, "CUB between toolchains"): cub::DeviceFor on int and float.
#include <cub/device/device_for.cuh>

struct square
{
  template <class T>
  __device__ void operator()(T& x) const { x = x * x; }
};

template <class T>
void for_each(T* data, int n)
{
  cub::DeviceFor::ForEachN(data, n, square{});
}

template void for_each<int>(int*, int);
template void for_each<float>(float*, int);
