#!/usr/bin/env python3
"""Draws what a benchmark program wrote: benchmarks/plot.py PROGRAM ARGUMENTS, where PROGRAM is

    device_for_each   ptxw_bench_device_for_each's output, as SVG
    device_real_work  the CSV of ptxw_bench_device_real_work --out, as SVG (needs matplotlib)
    gemm              the CSV of ptxw_gemm_bench --timeline (examples/gemm), as SVG
    octree            the CSV of ptxw_bench_octree --csv or --timeline, as SVG
    scheduling        the folder of ptxw_bench_scheduling --out: per-SM timelines, as PNG

and ARGUMENTS are what benchmarks/plots/PROGRAM.py says (benchmarks/plot.py PROGRAM prints it).
"""
import importlib
import sys
from pathlib import Path

PROGRAMS = ("device_for_each", "device_real_work", "gemm", "octree", "scheduling")


def main(argv):
    if len(argv) < 2 or argv[1] not in PROGRAMS:
        sys.exit(__doc__)
    sys.path.insert(0, str(Path(__file__).resolve().parent / "plots"))
    return importlib.import_module(argv[1]).main([f"{argv[0]} {argv[1]}", *argv[2:]])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
