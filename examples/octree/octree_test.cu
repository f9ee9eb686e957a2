// The octree builders (examples/octree) on small inputs, against the host reference:
// every builder's leaf set must equal the reference's (no particle lost or duplicated, every
// particle in the right leaf, the same number of leaves and of overfull leaves), the dynamic
// builder's also under the task pools' injected faults. The host-side
// tests (reference, bad input, the sorted-key leaf rule that the sort-based build and the shared-memory finish use)
// run without a GPU; the builders' tests skip without one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "../../examples/octree/cdp.h"
#include "../../examples/octree/dynamic.h"
#include "task_faults.h"
#include "../../examples/octree/level_sync.h"
#include "../../examples/octree/reference.h"
#include "../../examples/octree/sort_build.h"
#include "../../examples/octree/tree.h"
#include "gpu.h"

namespace
{
using namespace octree;

std::vector<float4> points(const std::vector<std::array<double, 3>>& xyz)
{
  std::vector<float4> p;
  for (const auto& c : xyz)
  {
    p.push_back(with_id(c[0], c[1], c[2], static_cast<std::uint32_t>(p.size())));
  }
  return p;
}

// `extra` particles at one point (coincident) appended to a shape.
std::vector<float4> with_coincident(std::vector<float4> p, std::size_t extra)
{
  for (std::size_t i = 0; i < extra; ++i)
  {
    p.push_back(with_id(0.3, 0.3, 0.3, static_cast<std::uint32_t>(p.size())));
  }
  return p;
}

// The leaf set from sorted keys by the rule of sorted_leaves.h, on the host (what the sort-based build computes).
std::vector<leaf> leaves_by_windows(std::vector<float4>& sorted, std::uint32_t t)
{
  std::sort(sorted.begin(), sorted.end(), [](float4 a, float4 b) { return key63(a) < key63(b); });
  const std::size_t n = sorted.size();
  const sorted_view<std::uint64_t> view{0, 1, 63, 0};
  std::vector<int> depth(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    int m = -1;
    for (std::size_t j = i >= t ? i - t : 0; j <= i && j + t < n; ++j)
    {
      m = std::max(m, view.common(key63(sorted[j]), key63(sorted[j + t])));
    }
    bool deeper = false;
    depth[i]    = view.depth(m, deeper);
    EXPECT_FALSE(deeper) << "63-bit keys always decide";
  }
  std::vector<leaf> leaves;
  for (std::size_t i = 0; i < n; ++i)
  {
    if (i == 0 || depth[i] != depth[i - 1] || !view.same_node(key63(sorted[i]), key63(sorted[i - 1]), depth[i]))
    {
      if (!leaves.empty())
      {
        leaves.back().count = static_cast<std::uint32_t>(i - leaves.back().begin);
      }
      leaves.push_back(leaf{view.code(key63(sorted[i]), depth[i]), static_cast<std::uint32_t>(i), 0});
    }
  }
  if (!leaves.empty())
  {
    leaves.back().count = static_cast<std::uint32_t>(n - leaves.back().begin);
  }
  return leaves;
}

TEST(OctreeReference, CellsAreTheCoordinatesTimes2To21)
{
  // A node at depth d splits at multiples of 2^-(d+1): 0.5 is in the upper half of the root, the
  // float just below it in the lower; 1.0 and beyond fall in the last cell, below 0 in the first.
  EXPECT_EQ(octant(with_id(0.5, 0.5, 0.5, 0), 0), 7);
  EXPECT_EQ(octant(with_id(0.49999997, 0.5, 0.49999997, 0), 0), 2);
  EXPECT_EQ(octant(with_id(0.25, 0.75, 0.2, 0), 1), 6); // x = 0.25: upper half of [0, 0.5); y = 0.75 likewise
  EXPECT_EQ(quantize(1.0f), 2097151u);
  EXPECT_EQ(quantize(1.5f), 2097151u);
  EXPECT_EQ(quantize(-0.25f), 0u);
  EXPECT_EQ(quantize(0.75f), 1572864u);
  EXPECT_EQ(key63(with_id(1.0, 0.0, 0.0, 0)), 0x4924924924924924ull); // x's 21 bits, every third from bit 62
  EXPECT_EQ(key30(with_id(1.0, 0.0, 0.0, 0)), 0x24924924u);
}

TEST(OctreeReference, SplitsWhereTheKeysSay)
{
  // Two particles in octants 0 and 7 of the root, T = 1: two leaves at depth 1.
  const auto p           = points({{0.1, 0.1, 0.1}, {0.9, 0.9, 0.9}});
  const reference_tree r = reference(validate(p, 1), 4096);
  EXPECT_EQ(r.set.leaves, 2u);
  EXPECT_EQ(r.internal, 1u);
  EXPECT_EQ(r.set.leaf_of[0], 010u); // code: sentinel 1, digit 0
  EXPECT_EQ(r.set.leaf_of[1], 017u);
  // Same octant at depth 1, split at depth 2 (x = 0.1 vs 0.4: bit 19 differs).
  const auto q            = points({{0.1, 0.1, 0.1}, {0.4, 0.1, 0.1}});
  const reference_tree r2 = reference(validate(q, 1), 4096);
  EXPECT_EQ(r2.set.leaves, 2u);
  EXPECT_EQ(r2.set.depth, 2);
  EXPECT_EQ(r2.set.leaf_of[0], 0100u);
  EXPECT_EQ(r2.set.leaf_of[1], 0104u);
}

TEST(OctreeReference, CoincidentParticlesMakeOneCountedLeafAtTheCap)
{
  const auto p           = with_coincident({}, 40);
  const reference_tree r = reference(validate(p, 16), 4096);
  EXPECT_EQ(r.set.leaves, 1u);
  EXPECT_EQ(r.set.overfull, 1u);
  EXPECT_EQ(r.set.depth, max_depth);
  EXPECT_EQ(r.internal, std::size_t(max_depth));
}

TEST(OctreeReference, CompareCountsLostDuplicatedAndMisplaced)
{
  const auto p           = make_particles(shape::uniform, 500);
  const reference_tree r = reference(validate(p, 8), 4096);
  std::vector<float4> sorted = p;
  std::vector<leaf> leaves   = leaves_by_windows(sorted, 8);
  ASSERT_TRUE(compare(r.set, leaves, sorted, 8).matches(r.set));
  std::vector<float4> dup = sorted;
  dup[1]                  = dup[0]; // particle 1 lost, particle 0 twice
  const verdict v         = compare(r.set, leaves, dup, 8);
  EXPECT_EQ(v.lost, 1u);
  EXPECT_EQ(v.duplicated, 1u);
  std::vector<float4> swapped = sorted; // a particle of leaf 0 and one of leaf 1 change places
  std::swap(swapped[leaves[0].begin], swapped[leaves[1].begin]);
  const verdict w = compare(r.set, leaves, swapped, 8);
  EXPECT_EQ(w.wrong_leaf, 2u);
  EXPECT_EQ(w.lost + w.duplicated, 0u);
  EXPECT_FALSE(w.matches(r.set));
  std::vector<leaf> merged = leaves; // two leaves as one: wrong codes, too few leaves, maybe > T
  merged[0].count += merged[1].count;
  merged.erase(merged.begin() + 1);
  EXPECT_FALSE(compare(r.set, merged, sorted, 8).matches(r.set));
}

TEST(OctreeInput, BadInputIsRefusedBeforeAnyLaunch)
{
  const auto p = make_particles(shape::uniform, 10);
  try
  {
    (void) validate(p, 0);
    FAIL() << "T = 0 accepted";
  }
  catch (const std::invalid_argument& e)
  {
    EXPECT_NE(std::string(e.what()).find("T = 0"), std::string::npos) << e.what();
  }
  for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                    -std::numeric_limits<float>::infinity()})
  {
    auto q = p;
    q[3].y = bad;
    q[7].x = bad;
    try
    {
      (void) validate(q, 16);
      FAIL() << "non-finite coordinate accepted";
    }
    catch (const std::invalid_argument& e)
    {
      EXPECT_NE(std::string(e.what()).find("particle 3 "), std::string::npos) << e.what();
    }
  }
}

TEST(OctreeInput, AnEmptySetIsAnEmptyTreeWithNoLaunch)
{
  const std::vector<float4> none;
  const input in = validate(none, 16);
  EXPECT_EQ(reference(in, 4096).set.leaves, 0u);
  device_tree tree;
  tree.upload(in);
  sort_build b2;
  EXPECT_FALSE(tree.build(b2)) << "an empty set must launch nothing";
  std::vector<leaf> leaves;
  std::vector<float4> out;
  tree.result(leaves, out);
  EXPECT_TRUE(leaves.empty());
}

// The rule the sort-based build and the shared-memory finish read leaves by, on the host, on every shape.
TEST(OctreeSortedKeys, WindowRuleGivesTheReferenceLeafSet)
{
  for (shape s : {shape::uniform, shape::plummer, shape::clusters})
  {
    for (std::uint32_t t : {1u, 5u, 16u, 64u})
    {
      const auto p           = with_coincident(make_particles(s, 3000, 7), 70);
      const reference_tree r = reference(validate(p, t), 4096);
      std::vector<float4> sorted = p;
      const verdict v            = compare(r.set, leaves_by_windows(sorted, t), sorted, t);
      EXPECT_TRUE(v.matches(r.set)) << name(s) << " T=" << t << ": " << v.describe();
    }
  }
}

// Every builder on the GPU. Each case: shape, N, T (coincident particles added where noted).
struct build_case
{
  shape s;
  std::size_t n;
  std::uint32_t t;
  std::size_t coincident;
};

class OctreeBuild
    : public Gpu
    , public ::testing::WithParamInterface<build_case>
{
public:
  template <class Builder>
  void expect_reference(Builder& b, const std::string& what, int runs = 2)
  {
    const build_case c     = GetParam();
    const auto p           = with_coincident(make_particles(c.s, c.n, 11), c.coincident);
    const input in         = validate(p, c.t);
    const reference_tree r = reference(in, finish_size);
    device_tree tree;
    tree.upload(in);
    for (int run = 0; run < runs; ++run) // at least twice: state left by a run must not leak into the next
    {
      tree.poison();
      ASSERT_TRUE(tree.build(b));
      std::vector<leaf> leaves;
      std::vector<float4> out;
      tree.result(leaves, out);
      const verdict v = compare(r.set, leaves, out, c.t);
      EXPECT_TRUE(v.matches(r.set)) << what << " run " << run << ": " << v.describe() << "; reference "
                                    << r.set.leaves << " leaves (" << r.set.overfull << " overfull)";
    }
  }
};

TEST_P(OctreeBuild, LevelSyncHostLoop)
{
  level_sync<256, 8> b(false, false);
  expect_reference(b, "level loop");
}

TEST_P(OctreeBuild, LevelSyncGraphWhile)
{
  level_sync<256, 8> b(false, true);
  expect_reference(b, "level graph");
}

TEST_P(OctreeBuild, LevelSyncSharedFinish)
{
  level_sync<256, 8> b(true, false);
  expect_reference(b, "level loop+finish");
  level_sync<256, 8> g(true, true);
  expect_reference(g, "level graph+finish");
}

// Two levels a split (64 buckets, descend.h): leaves, finishes and the depth cap met between the
// levels as well as at the second.
TEST_P(OctreeBuild, LevelSyncTwoLevelsASplit)
{
  level_sync<256, 8, 2> b(false, false);
  expect_reference(b, "level loop, 2 levels a split");
  level_sync<256, 8, 2> f(true, false);
  expect_reference(f, "level loop+finish, 2 levels a split");
  level_sync<256, 8, 2> g(true, true);
  expect_reference(g, "level graph+finish, 2 levels a split");
  level_sync<256, 8, 3> three(true, false); // 512 buckets: more than a block's threads
  expect_reference(three, "level loop+finish, 3 levels a split");
}

TEST_P(OctreeBuild, SortBased)
{
  sort_build b;
  b.key_bits = 63;
  expect_reference(b, "sort-based 63-bit");
  b.key_bits = 30; // falls back to 63 bits where 30 do not decide
  expect_reference(b, "sort-based 30-bit first");
}

// The cdp builds, CUDA dynamic parallelism: every device-side launch succeeded, and the leaves are right; with
// C = 1024 as well, so that these inputs have nodes split by four grids.
TEST_P(OctreeBuild, DynamicParallelism)
{
  for (std::uint32_t chunk : {default_chunk, 1024u})
  {
    cdp_build b(false, chunk), f(true, chunk);
    expect_reference(b, "cdp");
    EXPECT_EQ(b.failures(), "") << "cdp, C = " << chunk;
    expect_reference(f, "cdp+finish");
    EXPECT_EQ(f.failures(), "") << "cdp+finish, C = " << chunk;
  }
}

// The dynamic builder on every method the tasks library offers; C = 1024 here, so that these inputs
// have chunked nodes (joins), nodes split by one block and nodes finished in shared memory.
template <class Method>
void dynamic_cases(OctreeBuild& test, const char* method)
{
  dynamic_builder<Method, 256> b(method, false, 1024);
  test.expect_reference(b, method);
  EXPECT_EQ(b.dropped(), 0u);
  // The task-pool tests' faults but tiny queues (which a builder meets as R23's full pushes):
  // 6 kinds x 20 launches x 10 cases = 1 200 fault-injected launches a method, each checked.
  for (const ptxw::tasks::faults& f : tasks_test::fault_kinds())
  {
    b.inject(f);
    test.expect_reference(b, std::string(method) + " with faults", 20);
    EXPECT_EQ(b.dropped(), 0u);
  }
  b.inject(ptxw::tasks::faults{});
  b.blocks = 1; // one worker: every chunk, join and child in one block
  test.expect_reference(b, method);
  dynamic_builder<Method, 256> faithful(method, true);
  test.expect_reference(faithful, "one block a node");
  dynamic_builder<Method, 256, 2> two(method, false, 1024); // two levels a split
  test.expect_reference(two, std::string(method) + ", 2 levels a split");
  EXPECT_EQ(two.dropped(), 0u);
  two.blocks = 1;
  test.expect_reference(two, std::string(method) + ", 2 levels a split, one block");
  // 512 buckets: two descendants a thread. The walk does not depend on the method, so a deque and
  // the list stand for them all (each instance costs CI its compile time).
  if constexpr (std::is_same_v<Method, ptxw::tasks::stealing> || std::is_same_v<Method, ptxw::tasks::static_list>)
  {
    dynamic_builder<Method, 256, 3> three(method, false, 1024);
    test.expect_reference(three, std::string(method) + ", 3 levels a split");
    EXPECT_EQ(three.dropped(), 0u);
  }
}

TEST_P(OctreeBuild, DynamicStealing)
{
  dynamic_cases<ptxw::tasks::stealing>(*this, "stealing");
}

TEST_P(OctreeBuild, DynamicStealingOneWord)
{
  dynamic_cases<ptxw::tasks::stealing_deques<ptxw::tasks::one_word>>(*this, "stealing (one word)");
}

TEST_P(OctreeBuild, DynamicTicketRing)
{
  dynamic_cases<ptxw::tasks::lockfree_queue<ptxw::tasks::ticket_ring>>(*this, "ticket ring");
}

TEST_P(OctreeBuild, DynamicNilSlots)
{
  dynamic_cases<ptxw::tasks::lockfree_queue<ptxw::tasks::nil_slots>>(*this, "nil slots");
}

TEST_P(OctreeBuild, DynamicLockedQueue)
{
  dynamic_cases<ptxw::tasks::locked_queue>(*this, "locked queue");
}

TEST_P(OctreeBuild, DynamicStaticList)
{
  dynamic_cases<ptxw::tasks::static_list>(*this, "static list");
}

TEST_P(OctreeBuild, DynamicStaticListGraph)
{
  dynamic_cases<ptxw::tasks::static_list_graph>(*this, "list (graph)");
}

INSTANTIATE_TEST_SUITE_P(Small, OctreeBuild,
                         ::testing::Values(build_case{shape::uniform, 20000, 16, 0}, build_case{shape::uniform, 5000, 1, 0},
                                           build_case{shape::plummer, 30000, 16, 0},
                                           build_case{shape::plummer, 30000, 64, 0},
                                           build_case{shape::clusters, 20000, 16, 0},
                                           build_case{shape::uniform, 9000, 16, 100}, // > T coincident: cap leaf
                                           build_case{shape::uniform, 3000, 16, 5000}, // > C and S at every depth
                                           build_case{shape::plummer, 200000, 16, 0},
                                           build_case{shape::uniform, 16, 16, 0},     // N <= T: the root leaf
                                           build_case{shape::uniform, 17, 16, 0}));

} // namespace
