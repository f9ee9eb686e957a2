"""`ptxw sass-diff`: what changed in the SASS of the same sources, kernel by kernel, between two
toolchains, two git revisions or a recorded baseline (this module: its arguments, checked before
anything is compiled or written).

examples:
  ptxw sass-diff k.cu --targets sm_90a,sm_100a --cuda-root system --cuda-root 13.5
  ptxw sass-diff src/k.cu --targets sm_90a --rev main --rev HEAD -- -Iinclude
  ptxw sass-diff src/k.cu --targets sm_90a --rev HEAD -- -Iinclude
  ptxw sass-diff src/k.cu --targets sm_90a --rev main --compile-commands build/compile_commands.json
  ptxw sass-diff k.cu --targets sm_90a --baseline sass.json --update-baseline
  ptxw sass-diff k.cu --targets sm_90a --baseline sass.json --fail-on-change --show-diff

Two sides differ in one thing: the toolchain (two --cuda-root: a CUDA root, `system` or an installed
version, 13.5 or 12.9), the revision (two --rev, or one against the working tree), or a --baseline
recorded earlier (or the records of a --built folder against it). Sources are named relative to
the current folder; the flags after -- (or a source's entry in --compile-commands) are read there,
and each side resolves them in its own tree. Reports and the cache go to BUILD_DIR/sass-diff.

Exit status: 0 no change (or changes without --fail-on-change, or a baseline written); 1 a change
with --fail-on-change (a source that compiles on one side only is one), or nothing compiled on
either side; 2 bad input: an unknown target, a missing toolchain, source or baseline, a revision
that is not there. Bad input is found before anything is compiled or written.
"""

import argparse
import os
import sys
from pathlib import Path

from ..core import cache, options, targets, toolchain
from ..core.errors import BadInput, ExitCode
from . import compile_commands, occupancy, pairing, report, sides
from .build import Command, absolute_flags, in_revision, resolve_revision, revision_tree, working_root
from .sides import Side


def add_parser(sub):
    d = sub.add_parser("sass-diff", help="SASS changes between toolchains, git revisions or a baseline",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    d.add_argument("sources", nargs="*", help=".cu or .ptx files, relative to the current folder")
    options.add_targets(d)
    options.add_cuda_root(d, repeatable=True)
    d.add_argument("--rev", action="append", default=[], metavar="REV", help="a git revision of the repository")
    d.add_argument("--baseline", type=Path, metavar="JSON", help="compare against this recorded baseline")
    d.add_argument("--update-baseline", action="store_true",
                   help="write the new side as the baseline (accept it), keeping the baseline's pairs of sources "
                   "or targets this run did not cover")
    d.add_argument("--built", type=Path, metavar="DIR",
                   help="the new side from the records a build left under DIR (e.g. build/codegen), not compiled")
    d.add_argument("--compile-commands", type=Path, metavar="JSON",
                   help="each source's flags from CMake's compile_commands.json (no sources: all its .cu files)")
    d.add_argument("--match", action="append", default=[], metavar="REGEX=REPLACEMENT",
                   help="rewrite kernel names with this before pairing them (repeatable, applied in order)")
    d.add_argument("--dynamic-smem", action="append", default=[], metavar="[KERNEL=]BYTES",
                   help="the dynamic shared memory a kernel is launched with, for its occupancy: BYTES for every "
                        "kernel, KERNEL=BYTES for one (repeatable; the binary does not record it)")
    d.add_argument("--root", type=Path, help="what source names are relative to (default: the git checkout)")
    options.add_build_dir(d, "the cache, extracted revisions and reports go here")
    d.add_argument("--out", type=Path, help="report folder (default: BUILD_DIR/sass-diff)")
    d.add_argument("--markdown", type=Path, help="also write the Markdown report here")
    d.add_argument("--no-cache", action="store_true", help="compile everything again")
    d.add_argument("-j", "--jobs", type=int, help="parallel compiles (default: one per core)")
    d.add_argument("--fail-on-change", action="store_true", help="exit 1 if anything changed")
    d.add_argument("--show-diff", action="store_true", help="also print each changed kernel's diff")
    d.add_argument("--accept-with", metavar="COMMAND", help="the command that accepts a change, printed with it")
    d.set_defaults(run=main, takes_nvcc_flags=True, more_positionals=("sources", str))
    return d


def _sides(a, work_root: Path):
    """(old, new) from the arguments; revisions are resolved, not yet extracted."""
    if len(a.cuda_root) > 2 or len(a.rev) > 2 or (len(a.cuda_root) == 2 and len(a.rev) == 2):
        raise BadInput("two sides differ in one thing: give two --cuda-root, or two --rev, or --baseline")
    if (a.baseline or a.built) and (len(a.cuda_root) > 1 or len(a.rev) > 1):
        raise BadInput("--baseline compares one side with the recorded one: at most one --cuda-root and one --rev")
    if a.built and not a.baseline:
        raise BadInput("--built gives the new side; the old one is a --baseline")
    if a.update_baseline and not a.baseline:
        raise BadInput("--update-baseline needs --baseline FILE")
    tcs = [toolchain.find_toolchain(t, require_nvcc=False) for t in a.cuda_root]
    shas = [resolve_revision(work_root, r) for r in a.rev]

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
        raise BadInput("nothing to compare: give two --cuda-root, one or two --rev, or --baseline")
    return old, new


def _name(path: Path, work_root: Path, revs) -> str:
    if not path.is_relative_to(work_root):
        if revs:
            raise BadInput(f"{path} is outside the repository at {work_root}")
        return str(path)
    return str(path.relative_to(work_root))


def _commands(a, work_root: Path, revs) -> dict:
    """{source name: Command}: the flags after -- for every source, or each one's CMake command."""
    cwd = Path.cwd().resolve()
    if not a.compile_commands:
        flags = absolute_flags(a.nvcc_flags, cwd)
        return {_name(Path(s).resolve(), work_root, revs): Command(tuple(flags), cwd) for s in a.sources}
    if a.nvcc_flags:
        raise BadInput("--compile-commands gives each source's flags: no flags after --")
    known = compile_commands.read(a.compile_commands)
    wanted = [Path(s).resolve() for s in a.sources] or \
        sorted(p for p in known if p.suffix == ".cu" and p.is_relative_to(work_root))
    out = {}
    for path in wanted:
        if path not in known:
            raise BadInput(f"{a.compile_commands} has no command for {path}")
        flags, directory = known[path]
        out[_name(path, work_root, revs)] = Command(tuple(absolute_flags(flags, directory)), directory,
                                                     ptxw_include=False)
    if not out:
        raise BadInput(f"{a.compile_commands} has no .cu source in {work_root}")
    return out


def _check(a, old: Side, new: Side, work_root: Path) -> dict:
    """Bad input that can be seen before compiling; the commands of the sources."""
    names = options.targets_of(a)
    for name in names:
        targets.parse(name)
    if not names and not a.built:
        raise BadInput("--targets is required")
    if not a.sources and not a.built and not a.compile_commands:
        raise BadInput("no source given")
    if a.built and not a.built.is_dir():
        raise BadInput(f"no build folder {a.built}")
    if a.baseline and not a.update_baseline and not a.baseline.is_file():
        raise BadInput(f"no baseline {a.baseline} (record one with --update-baseline)")
    tcs = [s.tc for s in (old, new) if s.tc]
    for name in names:
        if tcs and not any(name in tc.targets for tc in tcs):
            raise BadInput(f"unknown target '{name}': no toolchain of this diff knows it "
                           f"({', '.join(f'ptxas {tc.version}' for tc in tcs)})")
    revs = [s.rev for s in (old, new) if s.rev]
    commands = _commands(a, work_root, revs) if not a.built else {}
    for name in commands:
        in_tree = (work_root / name).is_file() and len(revs) < 2  # with two revisions the working tree is not a side
        if not in_tree and not any(in_revision(work_root, r, name) for r in revs):
            raise BadInput(f"no source {name}" + (" in the working tree or the revisions" if revs else ""))
    return commands


def main(a) -> ExitCode:
    work_root = (a.root or working_root()).resolve()
    build = options.build_dir_of(a)
    rules = pairing.parse_rules(a.match)
    first_baseline = bool(a.update_baseline and a.baseline and not a.baseline.is_file())
    dynamic_smem = occupancy.DynamicSmem.parse(a.dynamic_smem)
    old, new = _sides(a, work_root)
    commands = _check(a, old, new, work_root)
    if not a.built:  # a build's records need no disassembler; a compile does, and says so before writing
        toolchain.find_disassembler()
    for side in (old, new):
        if side.kind in ("toolchain", "revision"):
            side.tree = revision_tree(work_root, side.rev, build / "sass-diff" / "revs") if side.rev else work_root
    if old.kind == "baseline" and a.baseline.is_file():
        sides.load_baseline(old)
    if new.kind == "built":
        sides.load_built(new, work_root, options.targets_of(a))
    tty = sys.stderr.isatty()

    def progress(done, total, what):
        if tty or done == total:
            sys.stderr.write(("\r" if tty else "") + f"[{done}/{total}] {what}".ljust(60) + ("" if tty else "\n"))
            sys.stderr.flush()

    result = sides.run(old, new, work_root, commands, options.targets_of(a),
                           cache.Cache(build / "sass-diff" / "cache", not a.no_cache), a.jobs or os.cpu_count(), progress,
                           toolchain.command_line("sass-diff"), rules, dynamic_smem)
    if tty:
        sys.stderr.write("\n")
    out_dir = (a.out or build / "sass-diff").resolve()
    report.write_all(result, out_dir, a.markdown)
    print(report.recorded(new) if first_baseline else report.summary(result, show_diff=a.show_diff))
    print(f"\nreports: {out_dir}/sass-diff.{{md,html,json}}")
    for p in result.problems:
        sys.stderr.write(f"ptxw sass-diff: {p}\n")
    if a.update_baseline and not result.problems:
        units, kept, dropped = sides.updated_baseline(old, new, work_root)
        cache.atomic_write(a.baseline, sides.baseline_json(new, units))
        print(f"baseline written: {a.baseline} ({len(units)} source x target pairs: {len(new.units)} from this run, "
              f"{len(kept)} kept from the baseline that this run did not cover)")
        if dropped:
            print(f"dropped from the baseline ({len(dropped)}: covered here without a result, or the source is gone): "
                  + ", ".join(f"{s} @ {t}" for s, t in dropped[:5]) + (", ..." if len(dropped) > 5 else ""))
        return ExitCode.OK
    if result.changed and a.accept_with:
        print(f"\nto accept these changes: {a.accept_with}")
    if result.problems:
        return ExitCode.FAILED
    return ExitCode.FAILED if a.fail_on_change and result.changed else ExitCode.OK
