"""`ptxw mutate`: apply each one-line mutant of tools/mutation/mutants.txt to a scratch copy of the
repository, run the part of the suite that should catch it, and report killed / survived. Run by
hand, not in CI (each mutant is a lit or unittest run); --only 'include/*' takes the mutants of some files.

A line of mutants.txt is four fields separated by tabs: the file, its exact original text (found
once), the replacement, and the check, one of

    lit TARGET TEST...     the codegen tests (paths under tests/codegen) on one target
    tools MODULE...        unittest modules of tests/tools

A mutant is killed when its check fails on the mutated copy. Every check first runs on the
unmutated copy: one that fails there kills nothing, and is bad input.

Exit status: 0 every mutant killed; 1 one survived; 2 bad input (a malformed line, text not found
once, a check that fails unmutated).
"""

import argparse
import fnmatch
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import errors, lit_suite, options, toolchain
from .errors import ExitCode

REPO = toolchain.REPO
DEFAULT_MUTANTS = REPO / "tools" / "mutation" / "mutants.txt"


@dataclass(frozen=True)
class Mutant:
    line: int
    path: str
    original: str
    replacement: str
    check: str


def parse(text: str, where: str) -> list:
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 4 or (fields[3].split() or [""])[0] not in ("lit", "tools"):
            raise errors.BadInput(f"{where}:{n}: want file, original, replacement, check (lit|tools ...), tab-separated")
        out.append(Mutant(n, *fields))
    return out


def applies(m: Mutant) -> bool:
    """Whether the mutant's original text is in its file exactly once (else the list is stale)."""
    f = REPO / m.path
    return f.is_file() and f.read_text().count(m.original) == 1


def command(check: str, root: Path, build_dir: Path) -> list:
    kind, *args = check.split()
    if kind == "lit":
        target, *tests = args
        return lit_suite.command([root / "tests" / "codegen" / t for t in tests], target, build_dir, None, "-q")
    return [sys.executable, "-m", "unittest", "-q", *args]


def passes(check: str, root: Path, build_dir: Path) -> bool:
    env = lit_suite.environment(root / "tools")
    cwd = root / "tests" / "tools" if check.startswith("tools") else root
    return subprocess.run(command(check, root, build_dir), cwd=cwd, env=env, capture_output=True).returncode == 0


def scratch_copy(dest: Path):
    """The working tree's tracked and untracked, not ignored, files."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO, capture_output=True,
                           check=True).stdout.decode().split("\0")
    for f in filter(None, files):
        if (REPO / f).is_file():
            (dest / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / f, dest / f)


def run(a) -> ExitCode:
    path = Path(a.mutants)
    if not path.is_file():
        raise errors.BadInput(f"no such file: {path}")
    mutants = [m for m in parse(path.read_text(), str(path)) if fnmatch.fnmatch(m.path, a.only)]
    for m in mutants:
        if not applies(m):
            raise errors.BadInput(f"{path}:{m.line}: '{m.original}' is not in {m.path} exactly once")
    build_dir = options.build_dir_of(a, "mutate")
    with tempfile.TemporaryDirectory(prefix="ptxw-mutate-") as tmp:
        root = Path(tmp)
        scratch_copy(root)
        for check in dict.fromkeys(m.check for m in mutants):
            if not passes(check, root, build_dir):
                raise errors.BadInput(f"'{check}' fails without a mutant: it can kill nothing")
        survivors = []
        for m in mutants:
            target = root / m.path
            text = target.read_text()
            target.write_text(text.replace(m.original, m.replacement))
            try:
                killed = not passes(m.check, root, build_dir)
            finally:
                target.write_text(text)
            survivors += [] if killed else [m]
            print(f"{'killed  ' if killed else 'SURVIVED'} line {m.line}: {m.path}: {m.original.strip()!r} -> {m.replacement.strip()!r}",
                  flush=True)
    print(f"\n{len(mutants) - len(survivors)} of {len(mutants)} mutants killed, {len(survivors)} survived")
    return ExitCode.FAILED if survivors else ExitCode.OK


def add_parser(sub):
    p = sub.add_parser("mutate", help="apply one-line mutants to a scratch copy and report which the suite kills",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mutants", default=str(DEFAULT_MUTANTS), help="the mutant list (default: tools/mutation/mutants.txt)")
    p.add_argument("--only", default="*", metavar="PATTERN", help="only the mutants of matching files ('include/*')")
    options.add_build_dir(p, "lit's outputs go to BUILD_DIR/mutate")
    p.set_defaults(run=run)
