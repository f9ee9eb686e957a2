// Test fixture for tests that need an sm_90 GPU: skips with the reason where there is none.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#define PTXW_CUDA_OK(expr)                                                                       \
  do                                                                                             \
  {                                                                                              \
    cudaError_t ptxw_err_ = (expr);                                                              \
    ASSERT_EQ(ptxw_err_, cudaSuccess) << #expr << ": " << cudaGetErrorString(ptxw_err_);         \
  } while (0)

class Gpu : public ::testing::Test
{
protected:
  void SetUp() override
  {
    int count      = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0)
    {
      GTEST_SKIP() << "no CUDA device: " << (err != cudaSuccess ? cudaGetErrorString(err) : "none found");
    }
    cudaDeviceProp prop{};
    PTXW_CUDA_OK(cudaGetDeviceProperties(&prop, 0));
    if (prop.major < 9)
    {
      GTEST_SKIP() << prop.name << " is sm_" << prop.major << prop.minor << "; these tests are built for sm_90a";
    }
  }
};
