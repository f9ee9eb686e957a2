"""The lit configuration of a codegen suite: ptxw's own (tests/codegen/lit.cfg.py) and a project's, which
the installed package generates (ptxw_add_lit_tests in cmake/ptxwCodegen.cmake). One lit run checks one
compile target (--param target=sm_100a; `ptxw codegen` runs one per target).

Features come from the toolchain: a target ptxas does not know makes every test UNSUPPORTED; each
instruction family is a feature only where ptxas accepts it (probes.FEATURES: mbarrier-tx, clc, ...),
and so are ptxas-<major.minor>, target-<target> and family-representative (probes.lit_features);
`cutlass` where `ptxw setup` installed CUTLASS's C++ headers (deps.cutlass_include()).
Substitutions:
  %ptxw-compile  compile a test for the target: -o %t writes %t.ptx, %t.cubin, %t.sass (compile.py),
                 with the suite's nvcc flags (a project's include folders) before the test's own
  %ptx-check     FileCheck with prefixes PTX, PTX-<family> (PTX-SM10X), PTX-<target> (PTX-SM100A)
  %sass-check    the same for SASS
  %ptx-generated=NAMES, %sass-generated=NAMES  the same with prefixes NAME-PTX, NAME-PTX-SM10X, ... per
                 name: the checks `ptxw update-checks` writes (update_checks.py)
  %ptxw-sass-equal  every ptxw_X function has the same normalised SASS as ref_X
  %nvcc          nvcc for the target with ptxw's flags (compile.NVCC_FLAGS: C++17, -DNDEBUG) and the suite's,
                 every warning an error (diagnostic tests)
  %cuobjdump     the cuobjdump the suite disassembles with
  %cutlass-include  -I<CUTLASS's include folder> (empty without the `cutlass` feature), for a test's flags:
                 %ptxw-compile %s -o %t -- %cutlass-include

Correct code compiles without warnings on every target: %ptxw-compile fails on any warning or advisory
of nvcc or ptxas (a test that provokes one on purpose passes --allow-warnings), and %nvcc makes every
warning an error, so a diagnostic test's correct spellings compile silently.
"""

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

from ..core import compile as compile_, deps, errors, options, probes, targets, toolchain
from ..core.errors import ExitCode

OWN_SUITE = toolchain.REPO / "tests" / "codegen"
_FAILED_CODES = ("FAIL", "XPASS", "UNRESOLVED", "TIMEOUT", "ERROR")


# ---- `ptxw codegen` ------------------------------------------------------------------------------------


def add_parser(sub):
    c = sub.add_parser("codegen", help="run a codegen suite (lit) per target and print a summary",
                       description="Run a codegen suite of lit tests once per target: ptxw's own (tests/codegen), or a "
                       "project's, the folder ptxw_add_lit_tests() generates its lit.site.cfg.py in. A target the "
                       "toolchain's ptxas does not list is reported unsupported, never failed.")
    c.add_argument("suite", nargs="?", help="the suite's folder (default: ptxw's tests/codegen)")
    options.add_targets(c, default=targets.SUITE_TARGETS)
    options.add_cuda_root(c)
    options.add_build_dir(c, "lit's outputs go to BUILD_DIR/codegen")
    c.add_argument("-j", "--jobs", type=int, help="parallel tests per target (default: lit's, one per core)")
    c.add_argument("--no-setup", action="store_true", help="skip the set-up check (CTest runs it once before)")
    c.set_defaults(run=_run_command)


def _run_command(a) -> ExitCode:
    names = options.targets_of(a)
    for name in names:
        targets.parse(name)
    suite = Path(a.suite).resolve() if a.suite else OWN_SUITE
    if not (suite / "lit.cfg.py").is_file() and not (suite / "lit.site.cfg.py").is_file():
        raise errors.BadInput(f"no codegen suite at {suite}: a folder with a lit.cfg.py or lit.site.cfg.py "
                              "(ptxw_add_lit_tests generates one)")
    tc = toolchain.find_toolchain(a.cuda_root)
    if not a.no_setup:
        deps.setup()
    summary, complete = run(suite, names, options.build_dir_of(a), tc.root, a.jobs)
    print_summary(summary)
    return ExitCode.OK if complete else ExitCode.FAILED


# ---- running lit ---------------------------------------------------------------------------------------


def command(paths, target: str, build_dir: Path, cuda_root=None, *options) -> list:
    """lit, as every ptxw tool runs it (`ptxw setup` installs it), on paths (a suite, or tests of one)."""
    cmd = [sys.executable, str(toolchain.deps_dir() / "py" / "bin" / "lit"), *map(str, paths), "--param",
           f"target={target}", "--param", f"build_dir={build_dir}", *options]
    return cmd + (["--param", f"cuda_root={cuda_root}"] if cuda_root else [])


def environment(*python_paths) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [*map(str, python_paths), str(toolchain.deps_dir() / "py"),
                                                      env.get("PYTHONPATH")]))
    return env


def run(suite: Path, target_names, build_dir: Path, cuda_root=None, jobs=None, quiet=False):
    """One lit run per target. Returns {target: {code: count}} and whether everything ran."""
    summary, complete = {}, True
    for name in target_names:
        results = build_dir / ("codegen" if suite == OWN_SUITE else suite.name) / f"{name}.json"
        results.parent.mkdir(parents=True, exist_ok=True)
        results.unlink(missing_ok=True)
        cmd = command([suite], name, build_dir, cuda_root, "-o", str(results), "-q" if quiet else "-sv",
                      *(["-j", str(jobs)] if jobs else []))
        print(f"== codegen {name}", flush=True)
        rc = subprocess.run(cmd, env=environment()).returncode
        counts = {}
        if results.exists():
            for t in json.loads(results.read_text())["tests"]:
                counts[t["code"]] = counts.get(t["code"], 0) + 1
        else:
            counts["ERROR"] = 1  # lit stopped before running tests (its message is above)
        if rc != 0 and not any(counts.get(c) for c in _FAILED_CODES):
            counts["ERROR"] = 1
        summary[name] = counts
        complete &= not any(counts.get(c) for c in _FAILED_CODES)
    return summary, complete


def print_summary(summary):
    rows = [("target", "passed", "unsupported", "failed")]
    for name, c in summary.items():
        failed = sum(c.get(k, 0) for k in _FAILED_CODES)
        rows.append((name, str(c.get("PASS", 0) + c.get("XFAIL", 0)), str(c.get("UNSUPPORTED", 0)), str(failed)))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    print()
    for r in rows:
        print("  ".join(cell.rjust(w) if i else cell.ljust(w) for i, (cell, w) in enumerate(zip(r, widths))))


# ---- configuring ---------------------------------------------------------------------------------------


def missing():
    """Raises ToolError naming the first thing a codegen suite needs that is not here (CMake asks, to
    register the suite's tests only where they can run)."""
    toolchain.find_toolchain()
    toolchain.find_filecheck()
    toolchain.find_disassembler()
    if not (toolchain.deps_dir() / "py" / "bin" / "lit").exists():
        raise toolchain.ToolError(f"no lit in {toolchain.deps_dir() / 'py'}: run `{toolchain.tool_command()} setup`")


def configure(config, lit_config, name: str, source_root: Path, exec_root: Path, nvcc_flags=()):
    """Fill a lit config for the target of --param target=...; exec_root/<target> holds the outputs.
    Returns (target, toolchain) for the caller's own additions."""
    import lit.formats  # lit runs this: it is there

    params = lit_config.params
    if "target" not in params:
        lit_config.fatal(f"{name} runs once per target: pass --param target=sm_90a (or sm_100a, ...)")
    try:
        target = targets.parse(params["target"])
        tc = toolchain.find_toolchain(params.get("cuda_root"))
        filecheck = toolchain.find_filecheck()
        cuobjdump = toolchain.find_disassembler(tc.root)
    except (targets.UnknownTarget, toolchain.ToolError) as e:
        lit_config.fatal(str(e))
    config.name = f"{name}-{target.name}"
    config.test_format = lit.formats.ShTest(execute_external=False)
    config.suffixes = [".cu", ".test"]  # .test: a tool run, no source of its own
    config.excludes = ["Inputs"]
    config.test_source_root = str(source_root)
    config.test_exec_root = str(Path(exec_root) / target.name)
    Path(config.test_exec_root).mkdir(parents=True, exist_ok=True)
    if target.name not in tc.targets:
        config.unsupported = True
        lit_config.note(f"ptxas {tc.version} ({tc.ptxas}) does not know {target.name}: its tests are unsupported")
    config.available_features.update(probes.lit_features(tc, target.name))
    cutlass = deps.cutlass_include()
    if cutlass is not None:
        config.available_features.add("cutlass")
    config.environment["PATH"] = os.pathsep.join([str(filecheck.parent), os.environ.get("PATH", "")])
    if "PTXW_DEPS_DIR" in os.environ:  # where the tools find the disassembler (toolchain.py)
        config.environment["PTXW_DEPS_DIR"] = os.environ["PTXW_DEPS_DIR"]
    ptxw = f"{shlex.quote(sys.executable)} {shlex.quote(str(toolchain.TOOL))}"
    flags = " ".join(map(shlex.quote, nvcc_flags))
    check = f"{filecheck} --allow-unused-prefixes --check-prefixes="
    include = f"-I{shlex.quote(str(toolchain.PTXW_INCLUDE))}" if toolchain.PTXW_INCLUDE.is_dir() else ""
    config.substitutions += [
        ("%cuobjdump", str(cuobjdump)),
        ("%cutlass-include", f"-I{shlex.quote(str(cutlass))}" if cutlass is not None else ""),
        ("%ptxw-sass-equal", f"{ptxw} sass-equal"),
        ("%nvcc", f"{tc.nvcc} {' '.join(compile_.NVCC_FLAGS)} {include} {flags} -arch={target.name} -Werror all-warnings"),
        # %ptxw-compile SRC -o OUT -- FLAGS: the suite's flags go before the test's
        ("%ptxw-compile", f"{ptxw} compile --cuda-root {tc.root} --target {target.name}"
                          + (f" --suite-flags={shlex.quote(flags)}" if flags else "")),
        # %sass-generated=GEN,RELAXED-GEN: the checks `ptxw update-checks` writes, under the prefixes of each
        # name (GEN-SASS, GEN-SASS-SM10X, GEN-SASS-SM100A, RELAXED-GEN-SASS, ...); up to three names.
        *((rf"%{kind}-generated=" + ",".join([r"([A-Z][A-Z0-9_-]*)"] * n) + r"(?![\w,-])",
           check + ",".join(rf"\{i}-{p}" for i in range(1, n + 1) for p in target.prefixes(kind.upper())))
          for kind in ("ptx", "sass") for n in (3, 2, 1)),
        ("%ptx-check", check + ",".join(target.prefixes("PTX"))),
        ("%sass-check", check + ",".join(target.prefixes("SASS"))),
    ]
    return target, tc
