"""Compile one CUDA source for one target into the files a codegen test checks: <out>.ptx (nvcc
-ptx), <out>.cubin (ptxas) and <out>.sass (canonical listing, see sass.py), and the record `ptxw
sass-diff` reads: <out>.sass.json (the listing per function with its resources, and the cubin's
provenance). A .ptx source skips nvcc (an assembler-only toolchain can do those); its .target is
set to the target compiled for.

    ptxw compile kernel.cu --target sm_100a -o out/kernel -- -DN=4

Kernels compile with NVCC_FLAGS below, a release build (-DNDEBUG, so ptxw's checked mode is off unless
the test passes -DPTXW_CHECKED=1 after --). A failing step raises CompileError with its command line
and output, so a failure can be rerun by hand.

A correct kernel compiles without a word: `ptxw compile` fails when nvcc or ptxas prints a warning
or an advisory, unless --allow-warnings (a test that provokes one on purpose)."""

import argparse
import json
import re
import shlex
from pathlib import Path

from . import cache, cubin, errors, options, sass, targets, toolchain
from .errors import ExitCode

INCLUDE = toolchain.PTXW_INCLUDE
# The nvcc flags of every compile a ptxw tool runs -- compile, check, sass-diff, update-checks, gate, the
# conformance grid, and the codegen suites' %ptxw-compile and %nvcc (lit_suite.py): C++17 and a release
# build, the kernels as a user ships them (-DNDEBUG: ptxw's checked mode is off unless a test gives
# -DPTXW_CHECKED=1). A command's own -std replaces ours.
NVCC_FLAGS = ("-std=c++17", "-DNDEBUG")
_WARNING = re.compile(r"warning|advisory", re.IGNORECASE)


class CompileError(errors.Failure):
    """A step that ran and failed: the source does not compile (the message is the tool's)."""

    def __init__(self, cmd, returncode, output):
        self.command, self.returncode, self.output = shlex.join(map(str, cmd)), returncode, output
        super().__init__(f"command failed (exit {returncode}):\n  {self.command}\n{output}")


def _step(cmd, commands, cwd=None):
    out = toolchain.run(cmd, cwd=cwd)
    commands.append(shlex.join(map(str, cmd)))
    if out.returncode != 0:
        raise CompileError(cmd, out.returncode, out.stdout + out.stderr)
    return out


def nvcc_command(tc: toolchain.Toolchain, target: str, src: Path, include_dirs, nvcc_flags, *mode) -> list:
    """nvcc as every ptxw tool runs it: NVCC_FLAGS, one target; mode: -ptx, -M, ..."""
    own = [f for f in NVCC_FLAGS if not (f.startswith("-std") and any(re.match(r"^--?std\b", x) for x in nvcc_flags))]
    return [tc.nvcc, *own, f"-arch={target}", *mode, *(f"-I{d}" for d in include_dirs), *nvcc_flags, src]


def compile_source(src: Path, target: targets.Target, out: Path, tc: toolchain.Toolchain, nvcc_flags=(),
                   include_dirs=None, depfile: Path = None, cwd: Path = None) -> dict:
    """Compiles and returns the record written to <out>.sass.json, with the warning and advisory
    lines nvcc and ptxas printed ("warnings"). ptxw's headers come from this checkout, or from the
    prefix the tools are installed in (toolchain.PTXW_INCLUDE); include_dirs replaces them. depfile: also write nvcc's dependency list. cwd: where nvcc runs."""
    if target.name not in tc.targets:
        raise toolchain.ToolError(f"ptxas {tc.version} at {tc.ptxas} does not know target {target.name}")
    disasm = toolchain.find_disassembler(tc.root)
    out.parent.mkdir(parents=True, exist_ok=True)
    ptx, cub = out.with_name(out.name + ".ptx"), out.with_name(out.name + ".cubin")
    commands, printed = [], []
    if src.suffix == ".ptx":  # the same module for every target: its .target directive names the one compiled for
        ptx.write_text(re.sub(r"^(\s*\.target\s+)sm_\w+", rf"\g<1>{target.name}", src.read_text(), count=1, flags=re.M))
    else:
        if not tc.has_nvcc:
            raise toolchain.ToolError(f"no nvcc in the toolchain at {tc.root} (ptxas {tc.version} only): it cannot "
                                      f"compile {src.name}")
        dirs = [INCLUDE] if include_dirs is None and INCLUDE.is_dir() else include_dirs or []
        deps = ["-MD", "-MF", depfile] if depfile else []
        printed.append(_step([*nvcc_command(tc, target.name, src, dirs, nvcc_flags, "-ptx", *deps), "-o", ptx],
                             commands, cwd))
    verbose = _step(tc.ptxas_command(target.name, ptx, cub, "-v"), commands)
    printed.append(verbose)
    dump = _step([disasm, "-res-usage", "-sass", cub], commands)
    functions = sass.order_like_ptx(sass.parse_cuobjdump(dump.stdout), ptx.read_text())
    header = f"{src.name} for {target.name}: ptxas {tc.version}, {disasm}"
    out.with_name(out.name + ".sass").write_text(sass.format_listing(functions, header))
    used = cubin.resources(dump.stdout, verbose.stdout + verbose.stderr)
    bounds = sass.launch_bounds(ptx.read_text())
    for f in functions:  # 0: no launch bound (a record without THREADS was made before it was recorded)
        used.setdefault(f.name, {})["THREADS"] = bounds.get(f.name, 0)
    names = sass.demangle([f.name for f in functions])
    record = {
        "source": str(src), "target": target.name, "toolchain": str(tc.root), "ptxas": tc.version,
        "provenance": cubin.provenance(cub.read_bytes()), "commands": commands,
        "functions": [{"name": f.name, "demangled": names[f.name], "resources": used.get(f.name, {}),
                       "listing": sass.listing_lines(f)} for f in functions],
        "warnings": [line for step in printed for line in (step.stdout + step.stderr).splitlines()
                     if _WARNING.search(line)],
    }
    cache.atomic_write(out.with_name(out.name + ".sass.json"), json.dumps(record, indent=0))  # sass-diff --built reads it
    return record


def add_parser(sub):
    p = sub.add_parser("compile", help="compile one source for one target to PTX, cubin and SASS",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog="Arguments after -- go to nvcc.")
    p.add_argument("source", type=Path)
    p.add_argument("--target", required=True, help="sm_90a, sm_100f, ...")
    p.add_argument("-o", "--output", required=True, type=Path, help="output path without extension")
    options.add_cuda_root(p)
    p.add_argument("--allow-warnings", action="store_true", help="do not fail on warnings and advisories")
    p.add_argument("--suite-flags", default="", metavar="FLAGS",
                   help="nvcc flags a lit suite gives every compile (one string), before those after --")
    p.set_defaults(run=run, takes_nvcc_flags=True)


def run(a) -> ExitCode:
    target, tc = targets.parse(a.target), toolchain.find_toolchain(a.cuda_root)
    if not a.source.is_file():
        raise errors.BadInput(f"no such file: {a.source}")
    warnings = compile_source(a.source, target, a.output, tc, [*shlex.split(a.suite_flags), *a.nvcc_flags])["warnings"]
    if warnings and not a.allow_warnings:
        raise errors.Failure(f"a correct kernel compiles without warnings or advisories; nvcc or ptxas printed for "
                             f"{a.source}:\n" + "\n".join(f"  {w}" for w in warnings))
    return ExitCode.OK
