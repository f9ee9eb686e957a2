#!/usr/bin/env bash
# What needs a GPU, in one go: the runtime suite, compute-sanitizer (memcheck, racecheck, synccheck)
# on conforming cluster launch control tests of both Hopper backends and on the inter-block
# primitives, and the benchmarks. Logs and results go to OUT_DIR; the summary lines to stdout.
#
#   tests/runtime/run_on_gpu.sh BUILD_DIR OUT_DIR [--no-benchmarks]
set -uo pipefail
build=${1:?build dir}
out=${2:?output dir}
benchmarks=${3:-}
mkdir -p "$out"
tests=$build/tests/runtime/ptxw_runtime_tests

nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | tee "$out/gpu.txt"

"$tests" --gtest_output="xml:$out/runtime.xml" > "$out/runtime.log" 2>&1
echo "runtime suite: exit $?"
grep -E '^\[  (PASSED|FAILED|SKIPPED)  \]|^\[==========\] [0-9]+ tests' "$out/runtime.log"

# Small grids: the sanitizers slow kernels down by orders of magnitude, so checked waits get 120 s.
# The last-cluster guard and a drained, reset and drained-again work queue (docs/inter_block.md).
conforming='*ClcCoverage*/CtaSingleBlock:*ClcCoverage*/Cta1D_4K_Fail*:*ClcCoverage*/ClusterSingle:*ClcCoverage*/Cluster4_1D_4K_Fail*'
conforming+=':LastBlock.LastClusterOfClustersOfTwoAndFour:WorkQueue.AnExhaustedQueueHandsOutNothingUntilReset'
# The device-scope algorithms: a 3D for_each_canceled on counter_t, and drain (docs/device.md).
conforming+=':Device.ForEachCanceledPassesCoordinatesOf3dShapes:Device.DrainTakesEveryItemOnceByAWholeBlock'
for tool in memcheck racecheck synccheck; do
  PTXW_TEST_WAIT_NS=120000000000 compute-sanitizer --tool "$tool" --error-exitcode 9 \
    "$tests" --gtest_filter="$conforming" > "$out/sanitizer-$tool.log" 2>&1
  echo "compute-sanitizer $tool: exit $?"
  grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  (PASSED|FAILED)  \]|^\[==========\] [0-9]+ tests' "$out/sanitizer-$tool.log"
done

[ "$benchmarks" = "--no-benchmarks" ] && exit 0
"$build/benchmarks/ptxw_bench_clc_request" 11 > "$out/bench-clc-request.txt" 2>&1
echo "clc request benchmark: exit $?"
# The scheduling benchmark: 128-thread blocks (all workloads, with timelines), then 256-thread
# blocks, where a cluster launch holds as many CTAs as a plain one (the cluster-form comparison).
mkdir -p "$out/sched128" "$out/sched256"
"$build/benchmarks/ptxw_bench_scheduling" --out "$out/sched128" > "$out/sched128/log.txt" 2>&1
echo "scheduling benchmark (128 threads): exit $?"
"$build/benchmarks/ptxw_bench_scheduling" --threads 256 --no-timelines --out "$out/sched256" > "$out/sched256/log.txt" 2>&1
echo "scheduling benchmark (256 threads): exit $?"
gzip -9f "$out/sched128/timelines.txt"
"$build/benchmarks/ptxw_bench_sched_costs" > "$out/sched-costs.txt" 2>&1
echo "scheduling costs: exit $?"
# The one-launch reduction (ptxw::device::sum) against cub::DeviceReduce::Sum (docs/inter_block.md).
"$build/benchmarks/ptxw_bench_last_block_reduce" > "$out/last-block-reduce.txt" 2>&1
echo "last-block reduction benchmark: exit $?"
# The device-scope for_each_canceled against CUB and thrust, with its policy sweep (docs/device.md).
"$build/benchmarks/ptxw_bench_device_for_each" > "$out/device-for-each.txt" 2>&1
echo "device for_each benchmark: exit $?"
