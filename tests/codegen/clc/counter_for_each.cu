// ptxw::for_each_canceled_block<1> on counter_t, Hopper's fast backend: one predicated 64-bit
// atomicAdd on the launch's counter per range of blocks, whose result is first read after the
// callback's work (the hand-over), so that its latency hides behind that work; a barrier between
// blocks and a hand-over through shared memory (16 bytes written, the range's 8 read); no mbarrier,
// no async proxy, no proxy fence. No memset before the launch: the launch's first CTA renews the
// next launch's cursor (one 64-bit atomicMax before the loop, whose result only checked mode
// reads), and a claim that finds the cursor of another launch raises it to this one's (atomicMax,
// on a branch after the work) and the loop claims again from its one claim -- unless the cursor
// held a later launch's tag, which hands over a failure (R32) (ptxw/clc/counter_cursor.h).
// With a prologue that fills a table in shared memory, one barrier more, right after it (the
// cluster form: its one cluster barrier, which comes after the prologue), so that no thread reads
// the table before every thread wrote it; without a prologue, none.
// REQUIRES: mbarrier-tx
// RUN: %ptxw-compile %s -o %t
// RUN: %ptx-check %s --input-file=%t.ptx
// RUN: %sass-check %s --input-file=%t.sass

#include <ptxw/clc.h>

#include "Inputs/reference.h"

extern "C" __global__ void counter_for_each(float* data, int n, float alpha,
                                            ptxw::clc::context<ptxw::clc::counter_t> ctx)
{
  ptxw::for_each_canceled_block<1>(ctx, [&](dim3 block) { scale_block(data, n, alpha, block.x); });
}

// PTX-LABEL: .entry counter_for_each(
// PTX-NOT:   {{mbarrier|fence|cp.async|clusterlaunchcontrol|elect.sync|atom}}
// PTX:       atom.global.max.u64
// PTX-NOT:   {{mbarrier|fence|cp.async|clusterlaunchcontrol|elect.sync}}
// PTX-COUNT-1: @p atom.relaxed.gpu.global.add.u64 %rd{{[0-9]+}}, [%rd{{[0-9]+}}], %rd{{[0-9]+}};
// PTX-NOT:   {{mbarrier|fence|cp.async|clusterlaunchcontrol|elect.sync|atom}}
// PTX:       st.global.f32
// PTX-NOT:   {{mbarrier|fence|cp.async|clusterlaunchcontrol|elect.sync|atom}}
// PTX:       shr.u64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 40;
// PTX-NOT:   {{mbarrier|fence|cp.async|clusterlaunchcontrol|elect.sync|atom}}
// PTX:       atom.global.max.u64 [[WAS:%rd[0-9]+]], [%rd{{[0-9]+}}], %rd{{[0-9]+}};
// PTX-NEXT:  shr.u64 [[WAS_TAG:%rd[0-9]+]], [[WAS]], 40;
// PTX-NEXT:  setp.gt.u64 [[LATER:%p[0-9]+]], [[WAS_TAG]], %rd{{[0-9]+}};
// PTX-NEXT:  selp.{{[bs]}}32 %r{{[0-9]+}}, -1, 0, [[LATER]];
// PTX-NOT:   {{mbarrier|fence|cp.async|clusterlaunchcontrol|elect.sync|atom}}
// PTX:       st.shared.v4.u32
// PTX-NOT:   {{mbarrier|fence|cp.async|clusterlaunchcontrol|elect.sync|atom}}
// PTX:       bar.sync 0;
// PTX-NOT:   {{mbarrier|fence|cp.async|clusterlaunchcontrol|elect.sync|atom|st.shared}}
// PTX:       ld.shared.v{{[24]}}.u32
// PTX-NOT:   {{mbarrier|fence|cp.async|clusterlaunchcontrol|elect.sync|atom}}

// The claim's register is not read between the atomic and the callback's store: no copy of it and
// no use that would make the warp wait for the atomic before the work.
// SASS-LABEL: Function : counter_for_each
// SASS-NOT:   {{SYNCS|UBLKCP|FENCE|ELECT|ATOMG|REDG}}
// SASS:       REDG.E.MAX.64.STRONG.GPU
// SASS-NOT:   {{SYNCS|UBLKCP|FENCE|ELECT|ATOMG|REDG}}
// SASS:       ATOMG.E.ADD.64.STRONG.GPU PT, R[[CLAIM:[0-9]+]], desc[UR{{[0-9]+}}][R{{[0-9]+}}.64], R{{[0-9]+}} ;
// SASS-NOT:   {{[ ,[]}}R[[CLAIM]]{{[],. ;]}}
// SASS:       STG.E
// SASS-NOT:   {{SYNCS|UBLKCP|FENCE|ELECT|ATOMG|REDG}}
// SASS:       ATOMG.E.MAX.64.STRONG.GPU PT, R[[WAS:[0-9]+]], desc[UR{{[0-9]+}}][R{{[0-9]+}}.64], R{{[0-9]+}} ;
// SASS-NOT:   {{BRA|BAR|STS}}
// SASS:       SHF.R.U32.HI R[[TAG:[0-9]+]], RZ, 0x8, R{{[0-9]+}} ;
// SASS-NOT:   {{BRA|BAR|STS}}
// SASS:       ISETP.GT.U{{32|64}}.AND P[[LATER:[0-9]]], PT, R[[TAG]], {{U?R[0-9]+}}, PT ;
// SASS-NOT:   {{BRA|BAR|STS}}
// SASS:       SEL R{{[0-9]+}}, RZ, 0xffffffff, !P[[LATER]] ;
// SASS-NOT:   {{SYNCS|UBLKCP|FENCE|ELECT|ATOMG|REDG}}
// SASS:       STS.128 [UR{{[0-9]+}}{{(\+0x[0-9a-f]+)?}}], R{{[0-9]+}} ;
// SASS-NOT:   {{SYNCS|UBLKCP|FENCE|ELECT|ATOMG|STS|LDS|STG}}
// SASS:       BAR.SYNC.DEFER_BLOCKING 0x0 ;
// SASS-NOT:   {{SYNCS|UBLKCP|FENCE|ELECT|ATOMG|STS|STG|BAR|BRA}}
// SASS:       LDS.64
// SASS-NOT:   {{SYNCS|UBLKCP|FENCE|ELECT|ATOMG}}
// SASS:       EXIT ;

// With a prologue that fills a table in shared memory, each thread one entry, and blocks that read
// entries other threads wrote: a barrier right after the prologue's store, before any branch into
// the loop (whose barriers run only between blocks), and none before the prologue.
extern "C" __global__ void __launch_bounds__(256)
  counter_for_each_table(float* data, int n, const float* weights, ptxw::clc::context<ptxw::clc::counter_t> ctx)
{
  __shared__ float table[256];
  ptxw::for_each_canceled_block<1>(
    ctx, [&] { table[threadIdx.x] = weights[threadIdx.x]; },
    [&](dim3 block) { scale_block(data, n, table[(block.x + threadIdx.x) % 256u], block.x); });
}

// PTX-LABEL: .entry counter_for_each_table(
// PTX-NOT:   {{bar.sync|barrier|ld.shared}}
// PTX:       st.shared.f32 [%r{{[0-9]+}}], %f{{[0-9]+}};
// PTX-NOT:   {{atom|ld.shared}}
// PTX:       bar.sync 0;
// PTX:       ld.shared.f32

// SASS-LABEL: Function : counter_for_each_table
// SASS-NOT:   {{BAR|UCGABAR|LDS}}
// SASS:       STS [R{{[0-9]+}}], R{{[0-9]+}} ;
// SASS-NOT:   {{ATOMG|LDS}}
// SASS:       BAR.SYNC.DEFER_BLOCKING 0x0 ;
// SASS:       LDS R

// The cluster form: the prologue of every CTA of the cluster before any block, by the one cluster
// barrier the loop needs before its first hand-over anyway -- after the prologue, not before it.
extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(256)
  counter_for_each_cluster_table(float* data, int n, const float* weights, ptxw::clc::context<ptxw::clc::counter_t> ctx)
{
  __shared__ float table[256];
  ptxw::for_each_canceled_cluster<1>(
    ctx, [&] { table[threadIdx.x] = weights[threadIdx.x]; },
    [&](dim3 block) { scale_block(data, n, table[(block.x + threadIdx.x) % 256u], block.x); });
}

// PTX-LABEL: .entry counter_for_each_cluster_table(
// PTX-NOT:   {{bar.sync|barrier|ld.shared}}
// PTX:       st.shared.f32 [%r{{[0-9]+}}], %f{{[0-9]+}};
// PTX-NOT:   {{atom|ld.shared|bar.sync}}
// PTX:       barrier.cluster.arrive;
// PTX-NOT:   {{atom|ld.shared|bar.sync}}
// PTX:       barrier.cluster.wait;
// PTX:       ld.shared.f32

// SASS-LABEL: Function : counter_for_each_cluster_table
// SASS-NOT:   {{BAR|UCGABAR|LDS}}
// SASS:       STS [R{{[0-9]+}}], R{{[0-9]+}} ;
// SASS-NOT:   {{ATOMG|LDS|BAR.SYNC}}
// SASS:       UCGABAR_ARV
// SASS-NOT:   {{ATOMG|LDS|BAR.SYNC}}
// SASS:       UCGABAR_WAIT
// SASS:       LDS R
