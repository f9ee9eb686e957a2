"""The `ptxw` command line: every command's arguments, and the one place where how a command ended
becomes its exit status (errors.ExitCode: 0 ok, 1 failures found, 2 bad input, 77 skipped) and its
message, `ptxw <command>: ...`. Arguments are checked before anything is installed or written."""

import argparse
import os
import subprocess
import sys
from pathlib import Path

from . import (__version__, check, compile as compile_, deps, errors, gate, lit_suite, mutate, options, sass_diff_cli,
               sass_equal, targets, toolchain, update_checks)
from .forms import generate as generate_forms
from .errors import ExitCode

REPO = toolchain.REPO


def cmd_setup(a):
    if a.deps_dir:
        os.environ["PTXW_DEPS_DIR"] = str(Path(a.deps_dir).resolve())
    deps.setup(toolchains=a.toolchains)
    return ExitCode.OK


def cmd_codegen(a):
    names = options.targets_of(a)
    for name in names:
        targets.parse(name)
    suite = Path(a.suite).resolve() if a.suite else lit_suite.OWN_SUITE
    if not (suite / "lit.cfg.py").is_file() and not (suite / "lit.site.cfg.py").is_file():
        raise errors.BadInput(f"no codegen suite at {suite}: a folder with a lit.cfg.py or lit.site.cfg.py "
                              "(ptxw_add_lit_tests generates one)")
    tc = toolchain.find_toolchain(a.cuda_root)
    if not a.no_setup:
        deps.setup()
    summary, complete = lit_suite.run(suite, names, options.build_dir_of(a), tc.root, a.jobs)
    lit_suite.print_summary(summary)
    return ExitCode.OK if complete else ExitCode.FAILED


def cmd_conformance(a):
    from . import conformance, report

    names = options.targets_of(a)
    for name in names:
        targets.parse(name)
    selected = conformance.select_variants(a.variants)
    before = conformance.load_verdicts(Path(a.compare)) if a.compare else None
    extra = [toolchain.find_toolchain(t, require_nvcc=False).root for t in a.cuda_root]
    runtime = conformance.RuntimeResults.from_xml(Path(a.runtime_results), a.runtime_results) if a.runtime_results \
        else None
    deps.setup(toolchains=not a.no_default_toolchains)
    roots = ([] if a.no_default_toolchains else [toolchain.find_toolchain().root, *deps.toolchain_roots()]) + extra
    build = options.build_dir_of(a)
    out_dir = Path(a.out).resolve() if a.out else build / "conformance"
    runtime = runtime or conformance.live_runtime(build, out_dir)
    tty = sys.stderr.isatty()

    def progress(done, total, what):
        line = f"[{done}/{total} cells] {what}"
        sys.stderr.write(("\r" + line.ljust(60)) if tty else line + "\n")
        sys.stderr.flush()

    grid = conformance.measure(roots, names, build, runtime, use_cache=not a.no_cache, jobs=a.jobs,
                               progress=progress, command=toolchain.command_line("conformance"), selected=selected)
    if tty:
        sys.stderr.write("\n")
    report.write_all(grid, out_dir, Path(a.markdown) if a.markdown else None)
    print(report.summary(grid))
    print(f"\nreports: {out_dir / 'conformance.md'}, {out_dir / 'conformance.html'}, {out_dir / 'conformance.json'}")
    changed = conformance.changes(before, grid) if before is not None else []
    if before is not None:
        print(f"\ncompared with {a.compare}: {len(changed)} of {len(before)} cells changed" +
              "".join(f"\n  {c}" for c in changed))
    if grid.errors or changed or (a.fail_on_disagreement and any(c.disagrees for c in grid.cells)):
        return ExitCode.FAILED
    return ExitCode.OK


def cmd_test(a):
    """Configure; build, and beside the build the tests labelled no-build (the codegen suite, the tools' tests, the
    package test: most of the time, and nothing they compile comes from the build); then the rest."""
    deps.setup(toolchains=True)  # the sass-diff tests compare CUDA 13.0 with 13.5
    build = options.build_dir_of(a)
    jobs = str(os.cpu_count() or 2)
    ctest = ["ctest", "--test-dir", str(build), "-j", jobs, "--output-on-failure"]

    def step(cmd):
        """None, or the command line if it failed."""
        print("+ " + " ".join(cmd), flush=True)
        return None if subprocess.run(cmd).returncode == 0 else " ".join(cmd)

    configure = step(["cmake", "-S", str(REPO), "-B", str(build), "-DPTXW_BUILD_TESTS=ON"])
    if configure:
        raise errors.Failure(f"step failed: {configure}")
    log = build / "Testing" / "no-build.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    beside_cmd = [*ctest, "-L", "^no-build$"]
    print(f"+ {' '.join(beside_cmd)} > {log}  (beside the build; its output follows the build's)", flush=True)
    with open(log, "w") as out:
        beside = subprocess.Popen(beside_cmd, stdout=out, stderr=subprocess.STDOUT)
    try:
        failed = [step(["cmake", "--build", str(build), "-j", jobs]) or step([*ctest, "-LE", "^no-build$"])]
    finally:
        beside_rc = beside.wait()
    print(log.read_text(), end="", flush=True)
    failed = [f for f in failed if f] + ([" ".join(beside_cmd)] if beside_rc else [])
    if failed:
        raise errors.Failure("step failed: " + "; ".join(failed))
    return ExitCode.OK


class _OneLinePerCommand(argparse.HelpFormatter):
    """argparse measures a command's name one indentation short of where it prints it, and so wraps the
    longest names onto a line of their own."""

    def __init__(self, prog):
        super().__init__(prog, max_help_position=30, width=120)

    def add_argument(self, action):
        super().add_argument(action)
        if action.nargs == argparse.PARSER:
            self._action_max_length += self._indent_increment


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ptxw", description="ptxw's tools: the conformance grid, the codegen suite and "
                                "SASS checks.", epilog="Exit status: 0 ok, 1 failures found, 2 bad input, 77 skipped.",
                                formatter_class=_OneLinePerCommand)
    p.add_argument("--version", action="version", version=f"ptxw {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    s = sub.add_parser("setup", help="install what the suite needs (idempotent)", description=deps.__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("--toolchains", action="store_true", help="also the conformance grid's extra CUDA toolchains (PyPI)")
    s.add_argument("--deps-dir", help="install here (default: PTXW_DEPS_DIR, else .deps/ in a checkout, "
                                      "~/.cache/ptxw for the installed package)")
    s.set_defaults(run=cmd_setup)
    k = sub.add_parser("conformance", help="the grid: what each toolchain accepts and emits, per wrapped form and target")
    options.add_targets(k, default=targets.DEFAULT_TARGETS)
    k.add_argument("--variants", nargs="+", default=None, metavar="PATTERN",
                   help="only the wrapped forms whose id matches (shell patterns: 'clc*', 'fence.*')")
    options.add_cuda_root(k, repeatable=True, help="another toolchain to measure: a CUDA root or an installed version")
    k.add_argument("--no-default-toolchains", action="store_true",
                   help="measure only the --cuda-root toolchains (not /usr/local/cuda and the PyPI ones)")
    k.add_argument("--runtime-results", metavar="GTEST_XML",
                   help="tests/runtime results recorded on a GPU (gtest --gtest_output=xml) for the runtime column")
    options.add_build_dir(k, "its cache goes here")
    k.add_argument("--out", help="report folder (default: BUILD_DIR/conformance)")
    k.add_argument("--markdown", help="also write the Markdown report here (a copy to publish)")
    k.add_argument("--no-cache", action="store_true", help="measure every cell again")
    k.add_argument("-j", "--jobs", type=int, help="parallel targets (default: one per core)")
    k.add_argument("--fail-on-disagreement", action="store_true", help="exit 1 if a gate disagrees with ptxas")
    k.add_argument("--compare", metavar="GRID_JSON", help="exit 1 if a cell of this earlier conformance.json is "
                   "measured differently now (verdicts and SASS opcodes) or is gone; cells it lacks are no change")
    k.set_defaults(run=cmd_conformance)
    sass_diff_cli.add_parser(sub)
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
    c.set_defaults(run=cmd_codegen)
    update_checks.add_parser(sub)
    t = sub.add_parser("test", help="set up, build and run every test (CTest)")
    options.add_build_dir(t, "the CMake build")
    t.set_defaults(run=cmd_test)
    for module in (compile_, sass_equal, check, gate, mutate, generate_forms):
        module.add_parser(sub)
    return p


def parse(argv):
    """The namespace of a command line; argparse's error (exit 2) for a malformed one."""
    argv, nvcc_flags = compile_.split_nvcc_flags(argv)
    p = parser()
    a, rest = p.parse_known_args(options.expand_targets(argv))
    # a source after an option (`sass-diff --targets sm_90a k.cu`): argparse leaves it over
    more = getattr(a, "more_positionals", None)
    if rest and (not more or any(r.startswith("-") for r in rest)):
        p.error(f"unrecognized arguments: {' '.join(rest)}")
    if rest:
        name, kind = more
        setattr(a, name, [*getattr(a, name), *map(kind, rest)])
    if nvcc_flags and not getattr(a, "takes_nvcc_flags", False):
        p.error(f"{a.command} takes no nvcc flags (the arguments after --)")
    a.nvcc_flags = nvcc_flags
    return a


def main(argv=None) -> int:
    a = parse(sys.argv[1:] if argv is None else argv)
    try:
        return int(a.run(a))
    except errors.PtxwError as e:
        sys.stderr.write(f"ptxw {a.command}: {e}\n")
        return int(e.exit_code)
