#!/usr/bin/env bash
# What needs a GPU, in one go: the runtime suite, compute-sanitizer (memcheck, racecheck, synccheck)
# on the conforming cluster launch control tests, and the benchmarks. Logs go to OUT_DIR; the
# summary lines to stdout.
#
#   tests/runtime/run_on_gpu.sh BUILD_DIR OUT_DIR
set -uo pipefail
build=${1:?build dir}
out=${2:?output dir}
mkdir -p "$out"
tests=$build/tests/runtime/ptxw_runtime_tests

nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | tee "$out/gpu.txt"

"$tests" --gtest_output="xml:$out/runtime.xml" > "$out/runtime.log" 2>&1
echo "runtime suite: exit $?"
grep -E '^\[  (PASSED|FAILED|SKIPPED)  \]|^\[==========\] [0-9]+ tests' "$out/runtime.log"

# Small grids: the sanitizers slow kernels down by orders of magnitude, so checked waits get 120 s.
conforming='*ClcCoverage*CtaSingleBlock:*ClcCoverage*Cta1D_4K_Fail10:*ClcCoverage*ClusterSingle:*ClcCoverage*Cluster4_1D_4K_Fail10'
for tool in memcheck racecheck synccheck; do
  PTXW_TEST_WAIT_NS=120000000000 compute-sanitizer --tool "$tool" --error-exitcode 9 \
    "$tests" --gtest_filter="$conforming" > "$out/sanitizer-$tool.log" 2>&1
  echo "compute-sanitizer $tool: exit $?"
  grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  (PASSED|FAILED)  \]' "$out/sanitizer-$tool.log"
done

"$build/benchmarks/ptxw_bench_clc_request" 11 | tee "$out/bench-clc-request.txt"
