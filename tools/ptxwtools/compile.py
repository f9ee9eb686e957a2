"""Compile one CUDA source for one target into the three files a codegen test checks:
<out>.ptx (nvcc -ptx), <out>.cubin (ptxas) and <out>.sass (canonical listing, see sass.py).

    tools/ptxw compile kernel.cu --target sm_100a -o /tmp/kernel [-- extra nvcc flags]

Kernels compile as a release build (-DNDEBUG, so ptxw's checked mode is off unless the test passes
-DPTXW_CHECKED=1 after --). Each step's command line is printed when it fails, so a failure can
be rerun by hand.

A correct kernel compiles without a word: `ptxw compile` fails when nvcc or ptxas prints a warning
or an advisory, unless --allow-warnings (a test that provokes one on purpose, or one of the codegen
suite's known exceptions, KNOWN_WARNINGS in tests/codegen/lit.cfg.py)."""

import argparse
import re
import shlex
import sys
from pathlib import Path

from . import sass, targets, toolchain

INCLUDE = toolchain.REPO / "include"
_WARNING = re.compile(r"warning|advisory", re.IGNORECASE)


def _step(cmd):
    out = toolchain.run(cmd)
    if out.returncode != 0:
        sys.stderr.write(f"ptxw-compile: command failed (exit {out.returncode}):\n  {shlex.join(map(str, cmd))}\n")
        sys.stderr.write(out.stdout + out.stderr)
        raise SystemExit(1)
    return out


def compile_source(src: Path, target: targets.Target, out: Path, tc: toolchain.Toolchain, nvcc_flags=()):
    """ptxw's headers come from this checkout when there is one (an installed copy of the tools
    has none: its callers pass -I<prefix>/include). Returns the warning and advisory lines that nvcc
    and ptxas printed."""
    if target.name not in tc.targets:
        raise toolchain.ToolError(f"ptxas {tc.version} at {tc.ptxas} does not know target {target.name}")
    disasm = toolchain.find_disassembler(tc.root)
    ptx, cubin = out.with_name(out.name + ".ptx"), out.with_name(out.name + ".cubin")
    include = [f"-I{INCLUDE}"] if INCLUDE.is_dir() else []
    printed = [_step([tc.nvcc, "-std=c++17", "-DNDEBUG", f"-arch={target.name}", "-ptx", *include, *nvcc_flags, src,
                      "-o", ptx]),
               _step([tc.ptxas, f"--gpu-name={target.name}", ptx, "-o", cubin])]
    dump = _step([disasm, "-sass", cubin])
    functions = sass.order_like_ptx(sass.parse_cuobjdump(dump.stdout), ptx.read_text())
    header = f"{src.name} for {target.name}: ptxas {tc.version}, {disasm}"
    out.with_name(out.name + ".sass").write_text(sass.format_listing(functions, header))
    return [line for step in printed for line in (step.stdout + step.stderr).splitlines() if _WARNING.search(line)]


def split_nvcc_flags(argv):
    """(own arguments, nvcc flags): what follows `--` goes to nvcc."""
    argv = list(argv)
    if "--" not in argv:
        return argv, []
    i = argv.index("--")
    return argv[:i], argv[i + 1:]


def main(argv=None):
    p = argparse.ArgumentParser(prog="ptxw compile", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("source", type=Path)
    p.add_argument("--target", required=True, help="sm_90a, sm_100f, ...")
    p.add_argument("-o", "--output", required=True, type=Path, help="output path without extension")
    p.add_argument("--cuda-root", help="toolchain root (default: PTXW_CUDA_ROOT, CUDA_PATH, /usr/local/cuda)")
    p.add_argument("--allow-warnings", action="store_true", help="do not fail on warnings and advisories")
    argv, nvcc_flags = split_nvcc_flags(sys.argv[1:] if argv is None else argv)
    p.epilog = "Arguments after -- go to nvcc."
    a = p.parse_args(argv)
    try:
        warnings = compile_source(a.source, targets.parse(a.target), a.output, toolchain.find_toolchain(a.cuda_root),
                                  nvcc_flags)
    except (toolchain.ToolError, targets.UnknownTarget) as e:
        sys.stderr.write(f"ptxw-compile: {e}\n")
        return 1
    if warnings and not a.allow_warnings:
        sys.stderr.write("ptxw-compile: a correct kernel compiles without warnings or advisories; nvcc or ptxas "
                         f"printed for {a.source}:\n" + "".join(f"  {w}\n" for w in warnings))
        return 1
    return 0
