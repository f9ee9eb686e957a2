#!/usr/bin/env bash
# What needs a GPU, in one go: the runtime suites (checked and unchecked builds of the protocols and
# of the device-scope algorithms), compute-sanitizer (memcheck, racecheck, synccheck) on conforming
# cluster launch control tests of both Hopper backends and on the inter-block primitives, and the
# benchmarks. Logs and results go to OUT_DIR; the summary lines to stdout. With --mutants, after the
# suites and the sanitizers: the runtime mutants (`ptxw mutate --kind gpu`, docs/mutation.md), built
# here with nvcc and GoogleTest from GTEST_PREFIX (include/gtest, lib/libgtest*.a); --mutants-only
# runs that step alone (no BUILD_DIR needed but for the mutants' binaries).
#
#   tests/runtime/run_on_gpu.sh BUILD_DIR OUT_DIR [--no-benchmarks] [--mutants GTEST_PREFIX | --mutants-only GTEST_PREFIX]
set -uo pipefail
build=${1:?build dir}
out=${2:?output dir}
shift 2
benchmarks=yes suites=yes gtest=
while [ $# -gt 0 ]; do
  case $1 in
    --no-benchmarks) benchmarks= ;;
    --mutants) gtest=${2:?GoogleTest prefix}; shift ;;
    --mutants-only) gtest=${2:?GoogleTest prefix}; suites= benchmarks=; shift ;;
    *) echo "run_on_gpu.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$out"
runtime=$build/tests/runtime
root=$(cd "$(dirname "$0")/../.." && pwd)

nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | tee "$out/gpu.txt"

if [ -n "$suites" ]; then
  for suite in ptxw_runtime_tests ptxw_runtime_tests_unchecked ptxw_device_tests ptxw_device_tests_unchecked ptxw_octree_tests; do
    dir=$runtime; [ "$suite" = ptxw_octree_tests ] && dir=$build/examples/octree
    "$dir/$suite" --gtest_output="xml:$out/$suite.xml" > "$out/$suite.log" 2>&1
    echo "$suite: exit $?"
    grep -E '^\[  (PASSED|FAILED|SKIPPED)  \]|^\[==========\] [0-9]+ tests' "$out/$suite.log"
  done

  # Small grids: the sanitizers slow kernels down by orders of magnitude, so checked waits get 120 s.
  # The last-cluster guard and a drained, reset and drained-again work queue (docs/inter_block.md).
  conforming='*ClcCoverage*/CtaSingleBlock:*ClcCoverage*/Cta1D_4K_Fail*:*ClcCoverage*/ClusterSingle:*ClcCoverage*/Cluster4_1D_4K_Fail*:ClcPrologue.*'
  conforming+=':LastBlock.LastClusterOfClustersOfTwoAndFour:WorkQueue.AnExhaustedQueueHandsOutNothingUntilReset'
  # The pipeline's rings (docs/pipelines.md), and the response ring (docs/clc-ring.md) in the CTA
  # form on both Hopper backends and in the cluster form on the emulation.
  conforming+=':Pipeline.*:Hopper/ClcRing.*/CounterDepth2:Hopper/ClcRing.*/EmulatedDepth2'
  conforming+=':Hopper/ClcRing.*/CounterCluster2Depth1:Hopper/ClcRing.*/EmulatedCluster2Depth1'
  # The device-scope algorithms: a 3D for_each_canceled on counter_t, and drain (docs/device.md).
  device='Device.ForEachCanceledPassesCoordinatesOf3dShapes:Device.DrainTakesEveryItemOnceByAWholeBlock'
  # for_each_with_state: a privatised histogram, one wave and the emulation (docs/device_state.md).
  device+=':DeviceState.SmallPrivatisedHistogram'
  for tool in memcheck racecheck synccheck; do
    for run in "ptxw_runtime_tests $conforming" "ptxw_device_tests $device"; do
      set -- $run
      PTXW_TEST_WAIT_NS=120000000000 compute-sanitizer --tool "$tool" --error-exitcode 9 \
        "$runtime/$1" --gtest_filter="$2" > "$out/sanitizer-$tool-$1.log" 2>&1
      echo "compute-sanitizer $tool $1: exit $?"
      grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  (PASSED|FAILED)  \]|^\[==========\] [0-9]+ tests' \
        "$out/sanitizer-$tool-$1.log"
    done
  done
fi

# The runtime mutants: each built from its own scratch copy (one job per core), run one at a time.
if [ -n "$gtest" ]; then
  "$root/tools/ptxw" mutate --kind gpu --jobs "$(nproc)" --gtest-root "$gtest" --build-dir "$build" \
    > "$out/mutants.txt" 2>&1
  echo "ptxw mutate --kind gpu: exit $?"
  tail -n 1 "$out/mutants.txt"
fi

[ -z "$benchmarks" ] && exit 0
# Figures come from optimized host code only (benchmarks/CMakeLists.txt).
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null)
case $build_type in
  Release|RelWithDebInfo) ;;
  *) echo "benchmarks: not run: $build is a '$build_type' build; configure with -DCMAKE_BUILD_TYPE=Release to measure"
     exit 0 ;;
esac
"$build/benchmarks/ptxw_bench_clc_request" --reps 11 > "$out/bench-clc-request.txt" 2>&1
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
# The device-scope for_each_canceled against CUB and thrust: real work first, then synthetic
# per-index waits with the policy sweep (docs/device.md).
"$build/benchmarks/ptxw_bench_device_real_work" --out "$out/device-real-work.csv" > "$out/device-real-work.txt" 2>&1
echo "device for_each on real work: exit $?"
"$build/benchmarks/ptxw_bench_device_for_each" > "$out/device-for-each.txt" 2>&1
echo "device for_each on waits: exit $?"
# Per-CTA state: privatised histograms against CUB's HistogramEven, tables against a plain launch
# (docs/device_state.md).
"$build/benchmarks/ptxw_bench_device_state" --out "$out/device-state.csv" > "$out/device-state.txt" 2>&1
echo "device for_each_with_state: exit $?"
# The pipeline's streaming kernel against cudaMemcpy, a float4 grid-stride kernel, the ring by hand
# and CUTLASS's PipelineTmaAsync (docs/pipelines.md); the CLC response ring on real irregular work
# against a plain launch and an atomic queue (docs/clc-ring.md).
"$build/benchmarks/ptxw_bench_pipeline_stream" --log2n 28 --passes 10 > "$out/pipeline-stream.txt" 2>&1
echo "pipeline stream benchmark: exit $?"
"$build/benchmarks/ptxw_bench_clc_ring" --passes 5 > "$out/clc-ring.txt" 2>&1
echo "clc ring benchmark: exit $?"
