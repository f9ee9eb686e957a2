"""The `ptxw` command.

  tools/ptxw setup        install what the suite needs (idempotent; see deps.py)
  tools/ptxw conformance  the main job: what each toolchain accepts and emits for every wrapped form on
                          every target, and whether ptxw's and CCCL's gates agree (conformance.py)
  tools/ptxw sass-diff    SASS changes between toolchains, git revisions or a recorded baseline
                          (sass_diff.py, sass_diff_cli.py)
  tools/ptxw codegen      run the codegen suite once per target, print a per-target summary
  tools/ptxw test       set up, build, and run every test (CTest): codegen, runtime, tools, package
  tools/ptxw compile    compile one source for one target to PTX, cubin and SASS (compile.py)
  tools/ptxw sass-equal zero-overhead check of a SASS listing (sass_equal.py)
  tools/ptxw check      FileCheck a user's kernel for one target with the suite's prefixes (check.py)
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from . import compile as compile_, deps, sass_diff_cli, targets, toolchain

REPO = toolchain.REPO


def _lit_env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(toolchain.deps_dir() / "py"), env.get("PYTHONPATH")]))
    return env


def run_codegen(target_names, build_dir: Path, cuda_root=None, jobs=None, quiet=False):
    """One lit run per target. Returns {target: {code: count}} and whether everything ran."""
    summary, complete = {}, True
    for name in target_names:
        results = build_dir / "codegen" / f"{name}.json"
        results.parent.mkdir(parents=True, exist_ok=True)
        results.unlink(missing_ok=True)
        cmd = [sys.executable, str(toolchain.deps_dir() / "py" / "bin" / "lit"), str(REPO / "tests" / "codegen"), "--param", f"target={name}",
               "--param", f"build_dir={build_dir}", "-o", str(results), "-q" if quiet else "-sv"]
        if cuda_root:
            cmd += ["--param", f"cuda_root={cuda_root}"]
        if jobs:
            cmd += ["-j", str(jobs)]
        print(f"== codegen {name}", flush=True)
        rc = subprocess.run(cmd, env=_lit_env()).returncode
        counts = {}
        if results.exists():
            for t in json.loads(results.read_text())["tests"]:
                counts[t["code"]] = counts.get(t["code"], 0) + 1
        else:
            counts["ERROR"] = 1  # lit stopped before running tests (its message is above)
        if rc != 0 and not any(counts.get(c) for c in ("FAIL", "XPASS", "UNRESOLVED", "TIMEOUT", "ERROR")):
            counts["ERROR"] = 1
        summary[name] = counts
        complete &= not any(counts.get(c) for c in ("FAIL", "XPASS", "UNRESOLVED", "TIMEOUT", "ERROR"))
    return summary, complete


def print_summary(summary):
    rows = [("target", "passed", "unsupported", "failed")]
    for name, c in summary.items():
        failed = sum(c.get(k, 0) for k in ("FAIL", "XPASS", "UNRESOLVED", "TIMEOUT", "ERROR"))
        rows.append((name, str(c.get("PASS", 0) + c.get("XFAIL", 0)), str(c.get("UNSUPPORTED", 0)), str(failed)))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    print()
    for r in rows:
        print("  ".join(cell.rjust(w) if i else cell.ljust(w) for i, (cell, w) in enumerate(zip(r, widths))))


def cmd_setup(a):
    deps.setup(toolchains=a.toolchains)
    return 0


def cmd_codegen(a):
    for name in a.targets:
        targets.parse(name)
    toolchain.find_toolchain(a.cuda_root)
    if not a.no_setup:
        deps.setup()
    summary, complete = run_codegen(a.targets, Path(a.build_dir).resolve(), a.cuda_root, a.jobs)
    print_summary(summary)
    return 0 if complete else 1


def cmd_conformance(a):
    from . import conformance, report

    try:
        selected = conformance.select_variants(a.variants)
    except ValueError as e:
        sys.stderr.write(f"ptxw conformance: {e}\n")
        return 2
    deps.setup(toolchains=not a.no_default_toolchains)
    roots = [] if a.no_default_toolchains else [toolchain.find_toolchain().root, *deps.toolchain_roots()]
    roots += [Path(t) for t in a.toolchain]
    build = Path(a.build_dir).resolve()
    out_dir = Path(a.out).resolve() if a.out else build / "conformance"
    try:
        if a.runtime_results:
            runtime = conformance.RuntimeResults.from_xml(Path(a.runtime_results), a.runtime_results)
        else:
            runtime = conformance.live_runtime(build, out_dir)
    except toolchain.ToolError as e:
        sys.stderr.write(f"ptxw conformance: {e}\n")
        return 2
    tty = sys.stderr.isatty()

    def progress(done, total, what):
        line = f"[{done}/{total} cells] {what}"
        sys.stderr.write(("\r" + line.ljust(60)) if tty else line + "\n")
        sys.stderr.flush()

    command = "tools/ptxw conformance " + " ".join(sys.argv[2:]) if sys.argv[1:2] == ["conformance"] else "tools/ptxw conformance"
    grid = conformance.measure(roots, a.targets or list(conformance.DEFAULT_TARGETS), build, runtime, use_cache=not a.no_cache, jobs=a.jobs,
                               progress=progress, command=command, selected=selected)
    if tty:
        sys.stderr.write("\n")
    report.write_all(grid, out_dir, Path(a.markdown) if a.markdown else None)
    print(report.summary(grid))
    print(f"\nreports: {out_dir / 'conformance.md'}, {out_dir / 'conformance.html'}, {out_dir / 'conformance.json'}")
    if grid.errors:
        return 1
    if a.fail_on_disagreement and any(c.disagrees for c in grid.cells):
        return 3
    return 0


def cmd_test(a):
    deps.setup(toolchains=True)  # the sass-diff tests compare CUDA 13.0 with 13.5
    build = Path(a.build_dir).resolve()
    jobs = str(os.cpu_count() or 2)
    steps = [
        ["cmake", "-S", str(REPO), "-B", str(build), "-DPTXW_BUILD_TESTS=ON"],
        ["cmake", "--build", str(build), "-j", jobs],
        ["ctest", "--test-dir", str(build), "-j", jobs, "--output-on-failure"],
    ]
    for step in steps:
        print("+ " + " ".join(step), flush=True)
        if subprocess.run(step).returncode != 0:
            return 1
    return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("compile", "sass-equal", "check"):
        from . import check, sass_equal  # their own argument parsers

        return {"compile": compile_.main, "sass-equal": sass_equal.main, "check": check.main}[argv[0]](argv[1:])
    argv, nvcc_flags = compile_.split_nvcc_flags(argv) if argv[:1] == ["sass-diff"] else (argv, [])
    p = argparse.ArgumentParser(prog="ptxw", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("setup", help="install what the suite needs")
    s.add_argument("--toolchains", action="store_true", help="also the conformance grid's extra CUDA toolchains (PyPI)")
    s.set_defaults(func=cmd_setup)
    c = sub.add_parser("codegen", help="run the codegen suite per target and print a summary")
    c.add_argument("--targets", nargs="+", default=list(targets.SUITE_TARGETS), metavar="TARGET")
    c.add_argument("--cuda-root", help="toolchain to test (default: PTXW_CUDA_ROOT, CUDA_PATH, /usr/local/cuda)")
    c.add_argument("--build-dir", default=str(REPO / "build"))
    c.add_argument("-j", "--jobs", type=int, help="parallel tests per target (default: lit's, one per core)")
    c.add_argument("--no-setup", action="store_true", help="skip the set-up check (CTest runs it once before)")
    c.set_defaults(func=cmd_codegen)
    k = sub.add_parser("conformance", help="the conformance grid: toolchains x targets x wrapped forms")
    k.add_argument("--targets", nargs="+", default=None, metavar="TARGET")
    k.add_argument("--variants", nargs="+", default=None, metavar="PATTERN",
                   help="only the wrapped forms whose id matches (shell patterns: 'clc*', 'fence.*')")
    k.add_argument("--toolchain", action="append", default=[], metavar="CUDA_ROOT",
                   help="another CUDA root to measure (repeatable)")
    k.add_argument("--no-default-toolchains", action="store_true",
                   help="measure only --toolchain roots (not /usr/local/cuda and the PyPI ones)")
    k.add_argument("--runtime-results", metavar="GTEST_XML",
                   help="tests/runtime results recorded on a GPU (gtest --gtest_output=xml) for the runtime column")
    k.add_argument("--build-dir", default=str(REPO / "build"))
    k.add_argument("--out", help="report folder (default: BUILD_DIR/conformance)")
    k.add_argument("--markdown", help="also write the Markdown report here (e.g. docs/conformance.md)")
    k.add_argument("--no-cache", action="store_true", help="measure every cell again")
    k.add_argument("-j", "--jobs", type=int, help="parallel targets (default: one per core)")
    k.add_argument("--fail-on-disagreement", action="store_true", help="exit 3 if a gate disagrees with ptxas")
    k.set_defaults(func=cmd_conformance)
    sass_diff_cli.add_parser(sub)
    t = sub.add_parser("test", help="build and run every test")
    t.add_argument("--build-dir", default=str(REPO / "build"))
    t.set_defaults(func=cmd_test)
    a = p.parse_args(argv)
    a.nvcc_flags = nvcc_flags
    try:
        return a.func(a)
    except (toolchain.ToolError, targets.UnknownTarget) as e:
        sys.stderr.write(f"ptxw: {e}\n")
        return 2
