"""The `ptxw sass-diff` subcommand: its arguments, checked before anything is compiled or written.

  between toolchains   ptxw sass-diff --toolchain 13.0 --toolchain 13.5 --targets sm_90a k.cu
  between revisions    ptxw sass-diff --rev main --rev HEAD --targets sm_90a src/k.cu  (one --rev: against
                       the working tree)
  against a baseline   ptxw sass-diff --baseline sass.json --targets sm_90a k.cu [--update-baseline]
  a codegen build      ptxw sass-diff --baseline tests/sass-baseline/codegen.json --built build/codegen

A toolchain is a CUDA root, `system` (PTXW_CUDA_ROOT, CUDA_PATH, /usr/local/cuda) or the version of
one `ptxw setup --toolchains` installs (12.9, 13.5). Arguments after -- go to nvcc.

Exit status: 0 no change (or changes without --fail-on-change, or a baseline written); 1 changes
found with --fail-on-change; 2 bad input: an unknown target, a missing toolchain, a revision that
is not there or does not build, a missing source or baseline.
"""

import argparse
import sys
from pathlib import Path

from . import cache, deps, sass_diff, sass_diff_report, targets, toolchain
from .errors import BadInput, ExitCode
from .sass_diff import Side


def add_parser(sub):
    d = sub.add_parser("sass-diff", help="SASS changes between toolchains, git revisions or a baseline",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    d.add_argument("sources", nargs="*", help=".cu or .ptx files, relative to the current folder")
    d.add_argument("--targets", nargs="+", default=[], metavar="TARGET", help="sm_90a, sm_100f, ...")
    d.add_argument("--toolchain", action="append", default=[], metavar="CUDA_ROOT|VERSION|system")
    d.add_argument("--rev", action="append", default=[], metavar="REV", help="a git revision of the repository")
    d.add_argument("--baseline", type=Path, metavar="JSON", help="compare against this recorded baseline")
    d.add_argument("--update-baseline", action="store_true", help="write the new side as the baseline (accept it)")
    d.add_argument("--built", type=Path, metavar="DIR",
                   help="the new side from the records a build left under DIR (e.g. build/codegen), not compiled")
    d.add_argument("--root", type=Path, help="what source names are relative to (default: the git checkout)")
    d.add_argument("--build-dir", type=Path, default=toolchain.REPO / "build", help="cache and revisions go here")
    d.add_argument("--out", type=Path, help="report folder (default: BUILD_DIR/sass-diff)")
    d.add_argument("--markdown", type=Path, help="also write the Markdown report here")
    d.add_argument("--no-cache", action="store_true", help="compile everything again")
    d.add_argument("-j", "--jobs", type=int, help="parallel compiles (default: one per core)")
    d.add_argument("--fail-on-change", action="store_true", help="exit 1 if anything changed")
    d.set_defaults(run=main, takes_nvcc_flags=True)
    return d


def _toolchain(spec: str) -> toolchain.Toolchain:
    if spec == "system":
        return toolchain.find_toolchain()
    installed = {v: r for v, r in zip(deps.TOOLCHAINS, deps.toolchain_roots())}
    matches = [r for v, r in installed.items() if v == spec or v.startswith(spec + ".")]
    if matches:
        if not (matches[0] / "bin" / "ptxas").exists():
            raise BadInput(f"CUDA {spec} is not installed: run `{toolchain.tool_command()} setup --toolchains`")
        return toolchain.Toolchain(matches[0].resolve()).check(require_nvcc=False)
    if "/" not in spec and not Path(spec).exists():
        raise BadInput(f"no toolchain '{spec}': give a CUDA root, 'system', or one of {', '.join(installed)}")
    return toolchain.Toolchain(Path(spec).resolve()).check(require_nvcc=False)


def _sides(a, work_root: Path):
    """(old, new) from the arguments; revisions are resolved, not yet extracted."""
    tcs = [_toolchain(t) for t in a.toolchain]
    shas = [sass_diff.resolve_revision(work_root, r) for r in a.rev]
    if len(tcs) > 2 or len(a.rev) > 2 or (len(tcs) == 2 and len(a.rev) == 2):
        raise BadInput("two sides differ in one thing: give two --toolchain, or two --rev, or --baseline")
    if (a.baseline or a.built) and (len(tcs) > 1 or len(a.rev) > 1):
        raise BadInput("--baseline compares one side with the recorded one: at most one --toolchain and one --rev")
    if a.built and not a.baseline:
        raise BadInput("--built gives the new side; the old one is a --baseline")
    if a.update_baseline and not a.baseline:
        raise BadInput("--update-baseline needs --baseline FILE")

    def side(tc, rev_index):
        tc = tc or toolchain.find_toolchain()
        label = f"CUDA {tc.version}"  # the label says what differs: the toolchain, or where the sources come from
        if len(tcs) < 2 and a.rev:
            label = (f"{a.rev[rev_index]} ({shas[rev_index][:10]})" if rev_index is not None else "working tree") + \
                f", {label}"
        return Side(label, "revision" if rev_index is not None else "toolchain", tc=tc,
                    rev=shas[rev_index] if rev_index is not None else "")

    single_tc = tcs[0] if len(tcs) == 1 else None
    single_rev = 0 if len(a.rev) == 1 else None
    if a.baseline:
        old = Side(f"baseline {a.baseline.name}", "baseline", path=a.baseline)
        new = Side(f"build {a.built}", "built", path=a.built) if a.built else side(single_tc, single_rev)
    elif len(tcs) == 2:
        old, new = side(tcs[0], single_rev), side(tcs[1], single_rev)
        if old.label == new.label:
            old.label, new.label = f"{old.label} at {tcs[0].root}", f"{new.label} at {tcs[1].root}"
    elif len(a.rev) == 2:
        old, new = side(single_tc, 0), side(single_tc, 1)
    elif len(a.rev) == 1:
        old, new = side(single_tc, 0), side(single_tc, None)
    else:
        raise BadInput("nothing to compare: give two --toolchain, one or two --rev, or --baseline")
    return old, new


def _check(a, old: Side, new: Side, work_root: Path):
    """Bad input that can be seen before compiling: unknown targets and missing sources."""
    for name in a.targets:
        targets.parse(name)
    if not a.targets and not a.built:
        raise BadInput("--targets is required")
    if not a.sources and not a.built:
        raise BadInput("no source given")
    if a.built and not a.built.is_dir():
        raise BadInput(f"no build folder {a.built}")
    if a.baseline and not a.update_baseline and not a.baseline.is_file():
        raise BadInput(f"no baseline {a.baseline} (record one with --update-baseline)")
    tcs = [s.tc for s in (old, new) if s.tc]
    for name in a.targets:
        if tcs and not any(name in tc.targets for tc in tcs):
            raise BadInput(f"unknown target '{name}': no toolchain of this diff knows it "
                           f"({', '.join(f'ptxas {tc.version}' for tc in tcs)})")
    names = []
    revs = [s.rev for s in (old, new) if s.rev]
    for src in a.sources:
        p = Path(src).resolve()
        if not p.is_relative_to(work_root):
            if revs:
                raise BadInput(f"{src} is outside the repository at {work_root}")
            names.append(str(p))
            continue
        name = str(p.relative_to(work_root))
        in_tree = p.is_file() and len(revs) < 2  # with two revisions the working tree is not a side
        if not in_tree and not any(sass_diff.in_revision(work_root, r, name) for r in revs):
            raise BadInput(f"no source {src}" + (" in the working tree or the revisions" if revs else ""))
        names.append(name)
    return names


def main(a) -> ExitCode:
    work_root = (a.root or sass_diff.working_root()).resolve()
    build = a.build_dir.resolve()
    old, new = _sides(a, work_root)
    sources = _check(a, old, new, work_root)
    if not a.built:  # a build's records need no disassembler; a compile does, and says so before writing
        toolchain.find_disassembler()
    for side in (old, new):
        if side.kind in ("toolchain", "revision"):
            side.tree = sass_diff.revision_tree(work_root, side.rev, build / "sass-diff" / "revs") if side.rev else work_root
    if old.kind == "baseline" and a.baseline.is_file():
        sass_diff.load_baseline(old)
    if new.kind == "built":
        sass_diff.load_built(new, work_root, a.targets)
    tty = sys.stderr.isatty()

    def progress(done, total, what):
        if tty or done == total:
            sys.stderr.write(("\r" if tty else "") + f"[{done}/{total}] {what}".ljust(60) + ("" if tty else "\n"))
            sys.stderr.flush()

    result = sass_diff.run(old, new, work_root, sources, a.targets, a.nvcc_flags,
                           cache.Cache(build / "sass-diff" / "cache", not a.no_cache), a.jobs, progress,
                           toolchain.command_line("sass-diff"))
    if tty:
        sys.stderr.write("\n")
    out_dir = (a.out or build / "sass-diff").resolve()
    sass_diff_report.write_all(result, out_dir, a.markdown)
    print(sass_diff_report.summary(result))
    print(f"\nreports: {out_dir / 'sass-diff.md'}, {out_dir / 'sass-diff.html'}, {out_dir / 'sass-diff.json'}")
    if result.problems:
        for p in result.problems:
            sys.stderr.write(f"ptxw sass-diff: {p}\n")
        return ExitCode.BAD_INPUT
    if a.update_baseline:
        cache.atomic_write(a.baseline, sass_diff.baseline_json(new, new.units))
        print(f"baseline written: {a.baseline} ({len(new.units)} source x target pairs)")
        return ExitCode.OK
    return ExitCode.FAILED if a.fail_on_change and result.changed else ExitCode.OK
