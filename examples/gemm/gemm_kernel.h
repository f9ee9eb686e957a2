// examples/gemm/gemm_kernel.h: the device side of a warp-specialized persistent bf16 GEMM built on
// ptxw's pipeline (ptxw/mbarrier/pipeline.h) and tile scheduler (ptxw/clc/tile_scheduler.h), with
// CuTe for what ptxw does not wrap: TMA descriptors and copies, GMMA shared-memory layouts, wgmma.
//
// D (M x N, row-major) = A (M x K, row-major) * B^T, B (N x K, row-major): CUTLASS's "TN" GEMM, both
// operands K-major. fp32 accumulation, bf16 output. A list of groups (a mixture of experts' layer:
// group g's M_g rows of A and D follow group g - 1's, each group has its own B, N and K shared) is
// the same kernel: the tile scheduler numbers the groups' tiles one after the other, and a dense
// GEMM is one group.
//
// One CTA of 384 threads: warpgroup 0 holds the scheduler warp (the dynamic policy's cluster launch
// control requests) and the TMA producer warp; warpgroups 1 and 2 are the consumers, each the wgmma
// of one 64-row half of a 128 x 128 tile (CUTLASS's "cooperative" split). Every role walks the same
// tile sequence from the scheduler; the producer fills the pipeline's stages a K-slice at a time,
// the consumers read them with wgmma (the async proxy: reads_async) and store each tile through
// shared memory with a TMA store; a tile that reaches past its group's last row stores its rows
// from registers instead (a TMA store clips only at the edges of the whole D, and the next group's
// rows follow), and one whose group ends in its first 64 rows loads and computes only those.
#pragma once

#include <ptxw/clc.h>
#include <ptxw/fence.h>
#include <ptxw/mbarrier.h>

#include <cuda/std/optional>
#include <cuda_bf16.h>
#include <cute/tensor.hpp>
#include <cutlass/arch/barrier.h>

namespace gemm {

using bf16 = cute::bfloat16_t;

struct config
{
  static constexpr int tile_m  = 128;
  static constexpr int tile_n  = 128;
  static constexpr int tile_k  = 64;
  static constexpr int stages  = 5;
  static constexpr int threads = 384; // a producer warpgroup and two consumer warpgroups
  // Tile-schedule roles: the producer warp and the eight consumer warps.
  static constexpr unsigned roles = 9;
};

using tile_m = cute::Int<config::tile_m>;
using tile_n = cute::Int<config::tile_n>;
using tile_k = cute::Int<config::tile_k>;
using half_m = cute::Int<config::tile_m / 2>;
using store_n = cute::Int<config::tile_n / 2>; // a TMA store box's width

// 128-byte swizzled K-major stages, as wgmma reads them without bank conflicts (CUTLASS's
// GMMA::Layout_K_SW128_Atom), one per pipeline stage in the last mode.
using smem_layout_a = decltype(cute::tile_to_shape(cute::GMMA::Layout_K_SW128_Atom<bf16>{},
                                                   cute::make_shape(tile_m{}, tile_k{}, cute::Int<config::stages>{})));
// The same memory as 64-row halves, half h of stage s in position 2s + h (the atom is tiled along M
// first, so a stage's rows 64h..64h+63 are its h-th 8 KiB): a tile whose group ends in its first
// half loads only that half of A.
using smem_layout_a_halves = decltype(cute::tile_to_shape(cute::GMMA::Layout_K_SW128_Atom<bf16>{},
                                                          cute::make_shape(half_m{}, tile_k{}, cute::Int<2 * config::stages>{})));
using smem_layout_b = decltype(cute::tile_to_shape(cute::GMMA::Layout_K_SW128_Atom<bf16>{},
                                                   cute::make_shape(tile_n{}, tile_k{}, cute::Int<config::stages>{})));
// The output staging buffer, one 64 x 128 half per consumer warpgroup, N-major and swizzled so that
// the accumulator's row-strided stores spread over the banks.
using smem_layout_d = decltype(cute::tile_to_shape(cute::GMMA::Layout_K_SW128_Atom<bf16>{},
                                                   cute::make_shape(half_m{}, tile_n{}, cute::Int<2>{})));
using smem_layout_store = decltype(cute::tile_to_shape(cute::GMMA::Layout_K_SW128_Atom<bf16>{},
                                                       cute::make_shape(half_m{}, store_n{})));

// The two consumer warpgroups side by side along M (256 threads), and one warpgroup alone, whose
// accumulator fragment is the same per thread (the epilogue's view of its half).
using mma_atom   = cute::SM90_64x128x16_F32BF16BF16_SS<cute::GMMA::Major::K, cute::GMMA::Major::K>;
using tiled_mma  = decltype(cute::make_tiled_mma(mma_atom{}, cute::Layout<cute::Shape<cute::_2, cute::_1, cute::_1>>{}));
using half_mma   = decltype(cute::make_tiled_mma(mma_atom{}));

// ClusterM CTAs along M share each B tile: each loads 1 / ClusterM of it and multicasts it to all.
template <int ClusterM>
using pipe_t = ptxw::pipeline<config::stages, ptxw::bulk_producer, ptxw::consumer_warpgroups<2, ptxw::reads_async>,
                              ptxw::cluster_multicast<ClusterM, 1>>;

template <class Pipe>
struct shared_storage
{
  alignas(1024) cute::ArrayEngine<bf16, cute::cosize_v<smem_layout_a>> a;
  alignas(1024) cute::ArrayEngine<bf16, cute::cosize_v<smem_layout_b>> b;
  alignas(1024) cute::ArrayEngine<bf16, cute::cosize_v<smem_layout_d>> d;
  typename Pipe::storage barriers;
};

// The TMA descriptors the host built (gemm.h), by value in the kernel parameters: A over all
// groups' rows (M x K), B over every group's (N x K x groups), D over all rows (M x N); rows[g] is
// group g's first row (groups + 1 prefix sums, in global memory).
// When each CTA's consumers took each tile, for a per-SM timeline (gemm_bench --timeline): one event
// a tile (its group and tile coordinates, so that tiles sharing A rows or B columns can be found)
// and one when the CTA's consumers are done (group ~0u); a tile lasts until the CTA's next event.
// Off (events == nullptr) unless a caller asks for it; events past the capacity are counted and
// dropped.
struct tile_event
{
  unsigned sm;
  unsigned group;
  unsigned m, n; // the tile's coordinates in its group, in tiles
  unsigned long long ns; // %globaltimer
};
struct tile_trace
{
  tile_event* events = nullptr;
  unsigned* count    = nullptr;
  unsigned capacity  = 0;

  __device__ void record(unsigned group, unsigned m = 0, unsigned n = 0) const
  {
    if (events != nullptr)
    {
      const unsigned i = atomicAdd(count, 1u);
      if (i < capacity)
      {
        events[i] = {cuda::ptx::get_sreg_smid(), group, m, n, cuda::ptx::get_sreg_globaltimer()};
      }
    }
  }
};

template <class TmaA, class TmaAHalf, class TmaB, class TmaD>
struct params
{
  TmaA tma_a;
  TmaAHalf tma_a_half; // the first 64 rows of a tile
  TmaB tma_b;
  TmaD tma_d;
  bf16* d;
  const int* rows;
  int m, n, k, groups;
  tile_trace trace;
};

// How many of a CTA's tile's two 64-row halves hold rows of its group: 2; 1 where the group ends in
// the first half (a mixture of experts' small groups and the last tiles of the others), so that the
// producer loads one half of A and the second consumer warpgroup, with no row to compute, leaves the
// tensor cores to the first; 0 for a cluster CTA past its group's edge, which takes part in its
// cluster's loads of B and computes nothing.
__device__ inline int busy_halves(const ptxw::clc::tile& t, int group_rows)
{
  if (!t.in_bounds)
  {
    return 0;
  }
  return group_rows - int(t.m) * config::tile_m > config::tile_m / 2 ? 2 : 1;
}

// Named barriers 1 and 2: the 128 threads of consumer warpgroup 1 and 2 (0 is __syncthreads').
__device__ inline void sync_warpgroup(int wg)
{
  cutlass::arch::NamedBarrier::sync(128, 1 + wg);
}

template <class Params, class Policy, int ClusterM>
__global__ void __launch_bounds__(config::threads, 1)
    gemm_kernel(const __grid_constant__ Params p, ptxw::clc::tile_schedule<Policy> sched)
{
  using namespace cute;
  namespace clc = ptxw::clc;
  using pipe      = pipe_t<ClusterM>;
  using receivers = ::cuda::std::conditional_t<(ClusterM > 1), clc::cluster_t, clc::cta_t>;

  extern __shared__ __align__(1024) unsigned char smem_raw[];
  shared_storage<pipe>& smem = *reinterpret_cast<shared_storage<pipe>*>(smem_raw);
  // The dynamic policy's responses (static: unused). One stage: a tile lasts long enough to hide one
  // request's latency, and each stage more lets the requests' order drift further from the order the
  // tiles start in (docs/gemm.md).
  __shared__ clc::tile_ring<1, config::roles, receivers> ring;

  auto tiles = clc::open(ring, sched);
  if (!tiles.started())
  {
    return;
  }
  auto pl = pipe::init(smem.barriers);

  const int warp    = threadIdx.x / 32;
  const int k_tiles = (p.k + config::tile_k - 1) / config::tile_k;

  Tensor sA = make_tensor(make_smem_ptr(smem.a.begin()), smem_layout_a{}); // (BM, BK, stage)
  Tensor sAh = make_tensor(make_smem_ptr(smem.a.begin()), smem_layout_a_halves{}); // (BM / 2, BK, 2 x stage + half)
  Tensor sB = make_tensor(make_smem_ptr(smem.b.begin()), smem_layout_b{}); // (BN, BK, stage)

  if (warp == 0)
  {
    tiles.scheduler().run(tiles.elect()); // dynamic: requests until the grid runs out; static: returns
  }
  else if (warp == 1)
  {
    // The TMA producer. Every lane walks the schedule (the dynamic policy's ring is read by whole
    // warps); the elected lane acquires, arms and copies.
    Tensor mA = p.tma_a.get_tma_tensor(make_shape(p.m, p.k));
    Tensor mB = p.tma_b.get_tma_tensor(make_shape(p.n, p.k, p.groups));
    auto role = tiles.consumer(0);
    const ptxw::elected e = ptxw::elect_one_of_warp();
    auto prod = pl.producer(e);
    const int rank = ClusterM > 1 ? int(block_rank_in_cluster()) : 0;
    while (auto t = role.next())
    {
      if (e)
      {
        // The group's rows; the half of a tile past its last one loads the next group's (or TMA's
        // zero fill), unstored.
        const int first  = p.rows[t->problem];
        const int halves = busy_halves(*t, p.rows[t->problem + 1] - first);
        Tensor mAg = domain_offset(make_coord(first, 0), mA);
        Tensor gA  = local_tile(mAg, make_shape(tile_m{}, tile_k{}), make_coord(int(t->m), _));                  // (BM, BK, k)
        Tensor gAh = local_tile(mAg, make_shape(half_m{}, tile_k{}), make_coord(2 * int(t->m), _));              // (BM / 2, BK, k)
        Tensor gB  = local_tile(mB(_, _, int(t->problem)), make_shape(tile_n{}, tile_k{}), make_coord(int(t->n), _)); // (BN, BK, k)
        const auto tA  = tma_partition(p.tma_a, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sA), group_modes<0, 2>(gA));
        const auto tAh = tma_partition(p.tma_a_half, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sAh), group_modes<0, 2>(gAh));
        const auto tB  = tma_partition(p.tma_b, rank, Layout<Int<ClusterM>>{}, group_modes<0, 2>(sB), group_modes<0, 2>(gB));
        // One loop for each number of A's halves, so that no stage branches on it.
        const auto fill = [&](auto halves_c) {
          constexpr int h = decltype(halves_c)::value;
          // Out-of-bounds boxes are zero-filled and count whole.
          constexpr unsigned stage_bytes = sizeof(bf16) * (h * config::tile_m / 2 + config::tile_n) * config::tile_k;
          for (int k = 0; k < k_tiles; ++k)
          {
            auto s = prod.acquire();
            s.arm(ptxw::tx_bytes{stage_bytes});
            std::uint64_t* full = s.native_handle();
            if constexpr (h == 2)
            {
              copy(p.tma_a.with(*full), get<0>(tA)(_, k), get<1>(tA)(_, s.index()));
            }
            else if constexpr (h == 1)
            {
              copy(p.tma_a_half.with(*full), get<0>(tAh)(_, k), get<1>(tAh)(_, 2 * s.index()));
            }
            if constexpr (ClusterM > 1)
            {
              // This CTA's slice of B to the same stage of every CTA of the cluster, each armed for all of it.
              copy(p.tma_b.with(*full, ptxw::cluster_multicast<ClusterM, 1>::row_mask(rank)), get<0>(tB)(_, k),
                   get<1>(tB)(_, s.index()));
            }
            else
            {
              copy(p.tma_b.with(*full), get<0>(tB)(_, k), get<1>(tB)(_, s.index()));
            }
            prod.commit(std::move(s));
          }
        };
        if (halves == 2)
        {
          fill(Int<2>{});
        }
        else if (halves == 1)
        {
          fill(Int<1>{});
        }
        else
        {
          fill(Int<0>{});
        }
      }
      __syncwarp();
    }
  }
  else if (warp >= 4)
  {

    // The consumers: warpgroups 1 and 2.
    const int ct = threadIdx.x - 128;  // 0..255
    const int wg = ct / 128;           // which half of the tile
    auto role    = tiles.consumer(1 + (warp - 4));
    auto cons    = pl.consumer();

    tiled_mma mma;
    auto thr_mma  = mma.get_thread_slice(ct);
    Tensor tCsA   = thr_mma.partition_A(sA);        // (MMA, MMA_M, MMA_K, stage)
    Tensor tCsB   = thr_mma.partition_B(sB);        // (MMA, MMA_N, MMA_K, stage)
    Tensor tCrA   = thr_mma.make_fragment_A(tCsA);  // GMMA descriptors
    Tensor tCrB   = thr_mma.make_fragment_B(tCsB);
    Tensor acc    = partition_fragment_C(mma, make_shape(tile_m{}, tile_n{})); // (MMA, MMA_M, MMA_N) fp32

    Tensor sD     = make_tensor(make_smem_ptr(smem.d.begin()), smem_layout_d{})(_, _, wg); // (64, BN)
    Tensor tDsD   = half_mma{}.get_thread_slice(ct % 128).partition_C(sD);
    Tensor mD     = p.tma_d.get_tma_tensor(make_shape(p.m, p.n));
    Tensor tDcD   = half_mma{}.get_thread_slice(ct % 128).partition_C(make_identity_tensor(make_shape(half_m{}, tile_n{})));
    const bool storer = ct % 128 == 0;

    const bool tracer = ct == 0;
    while (auto t = role.next())
    {
      if (tracer)
      {
        p.trace.record(t->problem, t->m, t->n);
      }
      // The group's rows: first needed after the first stage's wait, which hides their latency.
      // K > 0 here (gemm.h writes D = 0 for K = 0 without a launch), so every tile has a stage.
      const int first = p.rows[t->problem];
      const int end   = p.rows[t->problem + 1];
      auto s0         = cons.wait();
      if (busy_halves(*t, end - first) <= wg)
      {
        // No row of this half: the stages only pass through, released as they fill.
        cons.release(std::move(s0));
        for (int k = 1; k < k_tiles; ++k)
        {
          cons.release(cons.wait());
        }
        continue;
      }
      clear(acc);
      {
        // One wgmma batch stays in flight: stage k is released once batch k + 1 is issued and batch
        // k has completed (wgmma.wait_group 1). A stage token is move-only and not reassignable, so
        // the one held across an iteration lives in an optional.
        ::cuda::std::optional<typename pipe::consumer_stage> held;
        for (int k = 0; k < k_tiles; ++k)
        {
          auto s = k == 0 ? std::move(s0) : cons.wait();
          warpgroup_fence_operand(acc);
          warpgroup_arrive();
          cute::gemm(mma, tCrA(_, _, _, s.index()), tCrB(_, _, _, s.index()), acc);
          warpgroup_commit_batch();
          warpgroup_wait<1>();
          warpgroup_fence_operand(acc);
          if (held)
          {
            cons.release(std::move(*held));
          }
          held.emplace(std::move(s));
        }
        warpgroup_wait<0>();
        warpgroup_fence_operand(acc);
        cons.release(std::move(*held));
      }

      const int row0 = int(t->m) * config::tile_m + wg * (config::tile_m / 2); // this half's, in the group
      const int col0 = int(t->n) * config::tile_n;
      if (row0 + config::tile_m / 2 > end - first)
      {
        // The group ends inside this half: its rows from registers, each element predicated.
        const int rows = end - first - row0;
        CUTE_UNROLL
        for (int i = 0; i < size(acc); ++i)
        {
          const int r = get<0>(tDcD(i)), c = col0 + get<1>(tDcD(i));
          if (r < rows && c < p.n)
          {
            p.d[static_cast<long long>(first + row0 + r) * p.n + c] = bf16(acc(i));
          }
        }
        continue;
      }

      // Epilogue: the staging buffer is free once the previous TMA store of this warpgroup read it.
      if (storer)
      {
        tma_store_wait<0>();
      }
      sync_warpgroup(wg);
      // Values i and i + 1 (i even) are adjacent columns of one row (wgmma's accumulator layout), in
      // one 16-byte chunk of the swizzled buffer (the swizzle permutes whole chunks): one 4-byte store,
      // st.shared (through a generic pointer ptxas emits ST.E).
      CUTE_UNROLL
      for (int i = 0; i < size(acc); i += 2)
      {
        const __nv_bfloat162 v = __floats2bfloat162_rn(acc(i), acc(i + 1));
        asm volatile("st.shared.b32 [%0], %1;" ::"r"(cast_smem_ptr_to_uint(&tDsD(i))),
                     "r"(*reinterpret_cast<const std::uint32_t*>(&v))
                     : "memory");
      }
      ptxw::fence_before_async_read(cuda::ptx::space_shared); // the generic writes, before the TMA store reads them
      sync_warpgroup(wg);
      if (storer)
      {
        // Two 64 x 64 boxes: a 128-byte swizzle spans 64 bf16 of a row.
        CUTE_UNROLL
        for (int j = 0; j < 2; ++j)
        {
          Tensor sDj = local_tile(sD, make_shape(half_m{}, store_n{}), make_coord(0, j));
          Tensor gDj = local_tile(domain_offset(make_coord(first + row0, 0), mD), make_shape(half_m{}, store_n{}),
                                  make_coord(0, int(t->n) * 2 + j));
          auto [tDgD, tDsDj] = tma_partition(p.tma_d, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sDj), group_modes<0, 2>(gDj));
          copy(p.tma_d, tDsDj, tDgD);
        }
        tma_store_arrive();
      }
    }
    if (storer)
    {
      tma_store_wait<0>(); // the last store has read shared memory before the CTA exits
    }
    if (tracer)
    {
      p.trace.record(~0u);
    }
  }
  if constexpr (ClusterM > 1)
  {
    // No CTA leaves while a peer may still multicast into its stages or release them remotely.
    cluster_arrive_relaxed();
    cluster_wait();
  }
}

} // namespace gemm
