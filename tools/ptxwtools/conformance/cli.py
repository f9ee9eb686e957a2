"""`ptxw conformance`: the grid's command line (grid.py measures, report.py writes)."""

import sys
from pathlib import Path

from ..core import deps, options, targets, toolchain
from ..core.errors import ExitCode


def add_parser(sub):
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
    k.set_defaults(run=_run)


def _run(a) -> ExitCode:
    from . import grid as grid_, report

    names = options.targets_of(a)
    for name in names:
        targets.parse(name)
    selected = grid_.select_variants(a.variants)
    before = grid_.load_verdicts(Path(a.compare)) if a.compare else None
    extra = [toolchain.find_toolchain(t, require_nvcc=False).root for t in a.cuda_root]
    runtime = grid_.RuntimeResults.from_xml(Path(a.runtime_results), a.runtime_results) if a.runtime_results \
        else None
    deps.setup(toolchains=not a.no_default_toolchains)
    roots = ([] if a.no_default_toolchains else [toolchain.find_toolchain().root, *deps.toolchain_roots()]) + extra
    build = options.build_dir_of(a)
    out_dir = Path(a.out).resolve() if a.out else build / "conformance"
    runtime = runtime or grid_.live_runtime(build, out_dir)
    tty = sys.stderr.isatty()

    def progress(done, total, what):
        line = f"[{done}/{total} cells] {what}"
        sys.stderr.write(("\r" + line.ljust(60)) if tty else line + "\n")
        sys.stderr.flush()

    grid = grid_.measure(roots, names, build, runtime, use_cache=not a.no_cache, jobs=a.jobs,
                               progress=progress, command=toolchain.command_line("conformance"), selected=selected)
    if tty:
        sys.stderr.write("\n")
    report.write_all(grid, out_dir, Path(a.markdown) if a.markdown else None)
    print(report.summary(grid))
    print(f"\nreports: {out_dir / 'conformance.md'}, {out_dir / 'conformance.html'}, {out_dir / 'conformance.json'}")
    changed = grid_.changes(before, grid) if before is not None else []
    if before is not None:
        print(f"\ncompared with {a.compare}: {len(changed)} of {len(before)} cells changed" +
              "".join(f"\n  {c}" for c in changed))
    if grid.errors or changed or (a.fail_on_disagreement and any(c.disagrees for c in grid.cells)):
        return ExitCode.FAILED
    return ExitCode.OK
