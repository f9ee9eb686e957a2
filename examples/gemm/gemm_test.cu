// The example GEMM (gemm.h) against a plain reference kernel on the same bf16 inputs: full tiles,
// edges that are not multiples of the tile (TMA's zero fill and clipped stores), K shorter than one
// stage, groups of Zipf-distributed sizes with empty ones, both scheduling policies; and the bad
// input the host refuses before any launch.
#include "gemm.h"

#include "gpu.h" // tests/runtime: the fixture that skips without an sm_90 GPU

#include <cmath>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace {

__global__ void reference_gemm(const gemm::bf16* a, const gemm::bf16* b, float* d, int m, int n, int k)
{
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y;
  if (col >= n)
  {
    return;
  }
  float s = 0.f;
  for (int i = 0; i < k; ++i)
  {
    s += float(a[static_cast<long long>(row) * k + i]) * float(b[static_cast<long long>(col) * k + i]);
  }
  d[static_cast<long long>(row) * n + col] = s;
}

template <class T>
struct device_buffer
{
  T* p = nullptr;
  explicit device_buffer(std::size_t n)
  {
    EXPECT_EQ(cudaMalloc(&p, sizeof(T) * (n ? n : 1)), cudaSuccess);
  }
  ~device_buffer()
  {
    cudaFree(p);
  }
};

std::vector<gemm::bf16> random_bf16(std::size_t n, unsigned seed)
{
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<gemm::bf16> v(n);
  for (auto& x : v)
  {
    x = gemm::bf16(u(rng));
  }
  return v;
}

class Gemm : public Gpu
{
protected:
  // D = A * B^T with the policy, against the reference: |d - ref| <= 2^-7 |ref| + 2^-7 (the bf16
  // rounding of the output, 2^-8 relative, with room for the fp32 sums' different order).
  template <class Policy, int ClusterM = 1>
  void check(int m, int n, int k)
  {
    check<Policy, ClusterM>(std::vector<int>{m}, n, k);
  }

  // Groups: A and D hold their rows one after the other, B a matrix each.
  template <class Policy, int ClusterM = 1>
  void check(const std::vector<int>& ms, int n, int k)
  {
    int m = 0;
    for (int g : ms)
    {
      m += g;
    }
    const auto ha = random_bf16(std::size_t(m) * k, 1);
    const auto hb = random_bf16(std::size_t(n) * k * ms.size(), 2);
    device_buffer<gemm::bf16> a(ha.size()), b(hb.size()), d(std::size_t(m) * n);
    device_buffer<float> ref(std::size_t(m) * n);
    PTXW_CUDA_OK(cudaMemcpy(a.p, ha.data(), sizeof(gemm::bf16) * ha.size(), cudaMemcpyHostToDevice));
    PTXW_CUDA_OK(cudaMemcpy(b.p, hb.data(), sizeof(gemm::bf16) * hb.size(), cudaMemcpyHostToDevice));
    PTXW_CUDA_OK(cudaMemset(d.p, 0xff, sizeof(gemm::bf16) * m * n)); // NaN: a tile never stored fails
    gemm::grouped<Policy, ClusterM> g({a.p, b.p, d.p, ms, n, k});
    g.run();
    PTXW_LAUNCH_OK();
    for (std::size_t e = 0, first = 0; e < ms.size(); first += ms[e++])
    {
      if (ms[e] > 0)
      {
        reference_gemm<<<dim3((n + 127) / 128, ms[e]), 128>>>(a.p + first * k, b.p + e * n * k, ref.p + first * n, ms[e], n, k);
      }
    }
    PTXW_LAUNCH_OK();
    std::vector<gemm::bf16> hd(std::size_t(m) * n);
    std::vector<float> hr(hd.size());
    PTXW_CUDA_OK(cudaMemcpy(hd.data(), d.p, sizeof(gemm::bf16) * hd.size(), cudaMemcpyDeviceToHost));
    PTXW_CUDA_OK(cudaMemcpy(hr.data(), ref.p, sizeof(float) * hr.size(), cudaMemcpyDeviceToHost));
    std::size_t bad = 0;
    for (std::size_t i = 0; i < hd.size(); ++i)
    {
      const float got = float(hd[i]);
      if (!(std::fabs(got - hr[i]) <= 0x1p-7f * std::fabs(hr[i]) + 0x1p-7f) && bad++ < 5)
      {
        ADD_FAILURE() << "D(" << i / n << ", " << i % n << ") = " << got << ", reference " << hr[i];
      }
    }
    EXPECT_EQ(bad, 0u) << m << " x " << n << " x " << k << " in " << ms.size() << " groups";
  }
};

using dynamic = ptxw::clc::dynamic_tiles<>;

// The problems both scheduling policies run: GemmPolicies/static_tiles.Test, GemmPolicies/dynamic_tiles.Test.
template <class Policy>
class GemmPolicies : public Gemm
{};
struct policy_names
{
  template <class Policy>
  static std::string GetName(int)
  {
    return std::is_same_v<Policy, dynamic> ? "dynamic_tiles" : "static_tiles";
  }
};
using policies = ::testing::Types<ptxw::clc::static_tiles, dynamic>;
TYPED_TEST_SUITE(GemmPolicies, policies, policy_names);

TYPED_TEST(GemmPolicies, WholeTiles)
{
  this->template check<TypeParam>(1024, 1024, 1024);
}
// More tiles than the GPU holds CTAs: each CTA runs several, the producer runs ahead across tiles.
TYPED_TEST(GemmPolicies, ManyTilesPerCta)
{
  this->template check<TypeParam>(4096, 2048, 512);
}
// Edges that are not multiples of the 128 x 128 x 64 tile: loads zero-filled, stores clipped.
TYPED_TEST(GemmPolicies, PartialTiles)
{
  this->template check<TypeParam>(777, 1000, 1000);
}
TEST_F(Gemm, KShorterThanAStage)
{
  check<ptxw::clc::static_tiles>(200, 136, 40);
}
TEST_F(Gemm, KZeroWritesZeros)
{
  check<ptxw::clc::static_tiles>(130, 64, 0);
}
// A mixture of experts' layer: 64 groups of Zipf-distributed rows (s = 1.2, a few with none), each
// group's last tile partial.
std::vector<int> zipf_groups(int groups, int tokens, unsigned seed)
{
  std::vector<double> w(groups);
  for (int e = 0; e < groups; ++e)
  {
    w[e] = 1.0 / std::pow(e + 1.0, 1.2);
  }
  std::mt19937 rng(seed);
  std::discrete_distribution<int> pick(w.begin(), w.end());
  std::vector<int> ms(groups);
  for (int t = 0; t < tokens; ++t)
  {
    ++ms[pick(rng)];
  }
  return ms;
}
TYPED_TEST(GemmPolicies, GroupsZipf)
{
  this->template check<TypeParam>(zipf_groups(64, 6000, 3), 256, 512);
}
// Groups whose last tile ends just inside its first 64-row half (64 and 192 rows: one half loaded
// and computed) and just past it (65 and 193: both), under both policies, and in 2 x 1 clusters below.
TYPED_TEST(GemmPolicies, GroupsEndingAtTheHalfTile)
{
  this->template check<TypeParam>({64, 65, 192, 193, 1, 127}, 256, 200);
}
TEST_F(Gemm, GroupsWithEmptyOnes)
{
  check<dynamic>({0, 300, 0, 0, 128, 1, 0}, 264, 136);
}
// Clusters of two CTAs along M sharing each B tile by multicast; 777 rows end inside the second
// CTA's tile of the last cluster tile, and a group's last cluster tile can hang past its edge.
using dynamic_clusters = ptxw::clc::dynamic_tiles<ptxw::clc::automatic_t, ptxw::clc::cluster_t>;
TEST_F(Gemm, StaticCluster2x1PartialTiles)
{
  check<ptxw::clc::static_tiles, 2>(777, 1000, 1000);
}
TEST_F(Gemm, DynamicCluster2x1PartialTiles)
{
  check<dynamic_clusters, 2>(777, 1000, 1000);
}
TEST_F(Gemm, StaticCluster2x1ManyTiles)
{
  check<ptxw::clc::static_tiles, 2>(4096, 2048, 512);
}
TEST_F(Gemm, DynamicCluster2x1GroupsZipf)
{
  check<dynamic_clusters, 2>(zipf_groups(64, 6000, 3), 256, 512);
}
TEST_F(Gemm, StaticCluster2x1GroupsEndingAtTheHalfTile)
{
  check<ptxw::clc::static_tiles, 2>({64, 65, 192, 193, 1, 127}, 256, 200);
}
TEST_F(Gemm, DynamicCluster2x1GroupsEndingAtTheHalfTile)
{
  check<dynamic_clusters, 2>({64, 65, 192, 193, 1, 127}, 256, 200);
}
TEST_F(Gemm, OnlyEmptyGroupsLaunchNothing)
{
  gemm::grouped<dynamic> g({nullptr, nullptr, nullptr, {0, 0, 0}, 256, 256});
  g.run();
  PTXW_LAUNCH_OK();
}
TEST_F(Gemm, EmptyProblemLaunchesNothing)
{
  gemm::dense<ptxw::clc::static_tiles> g({nullptr, nullptr, nullptr, 0, 256, 256});
  g.run();
  PTXW_LAUNCH_OK();
}

// The host errors, each before anything is launched (no device needed for the checks themselves).
TEST(GemmBadInput, MisalignedOperandNamesTheAlignment)
{
  alignas(16) static gemm::bf16 buf[64];
  try
  {
    gemm::dense<ptxw::clc::static_tiles> g({buf + 1, buf, buf, 8, 8, 8});
    FAIL() << "no error for a misaligned A";
  }
  catch (const std::invalid_argument& e)
  {
    EXPECT_NE(std::string(e.what()).find("A's address must be 16-byte aligned"), std::string::npos) << e.what();
  }
}
TEST(GemmBadInput, RowPitchNotMultipleOf16Bytes)
{
  alignas(16) static gemm::bf16 buf[64];
  try
  {
    gemm::dense<ptxw::clc::static_tiles> g({buf, buf, buf, 8, 8, 4});
    FAIL() << "no error for K = 4";
  }
  catch (const std::invalid_argument& e)
  {
    EXPECT_NE(std::string(e.what()).find("A's row pitch must be a multiple of 16 bytes"), std::string::npos)
        << e.what();
  }
  try
  {
    gemm::dense<ptxw::clc::static_tiles> g({buf, buf, buf, 8, 12, 8});
    FAIL() << "no error for N = 12";
  }
  catch (const std::invalid_argument& e)
  {
    EXPECT_NE(std::string(e.what()).find("D's row pitch"), std::string::npos) << e.what();
  }
}
TEST(GemmBadInput, EmptyGroupList)
{
  try
  {
    gemm::grouped<ptxw::clc::static_tiles> g({nullptr, nullptr, nullptr, {}, 256, 256});
    FAIL() << "no error for an empty group list";
  }
  catch (const std::runtime_error& e)
  {
    EXPECT_NE(std::string(e.what()).find("ptxw: R18"), std::string::npos) << e.what();
  }
}
TEST(GemmBadInput, NegativeExtent)
{
  EXPECT_THROW(gemm::dense<ptxw::clc::static_tiles>({nullptr, nullptr, nullptr, -1, 8, 8}), std::invalid_argument);
}

} // namespace
