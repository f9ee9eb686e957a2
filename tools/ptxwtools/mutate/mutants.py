"""`ptxw mutate`: apply each one-line mutant of tools/mutation/mutants.txt to a scratch copy of the
repository, run the part of the suite that should catch it, and report killed / survived. Run by
hand, not in CI (each mutant is a lit or unittest run); --only 'include/*' takes the mutants of some files.

A line of mutants.txt is four fields separated by tabs: the file, its exact original text (found
once), the replacement, and the check, one of

    lit TARGET TEST...         the codegen tests (paths under tests/codegen) on one target
    tools MODULE...            unittest modules of tests/tools
    gpu MODE SOURCES FILTER [TOOL]
                               runtime tests on a GPU: SOURCES (tests/runtime/*.cu, comma-separated)
                               built as the runtime suites are, MODE checked or unchecked, run with
                               --gtest_filter=FILTER, under compute-sanitizer --tool TOOL if named
                               (gpu_check.py); they need a GPU, GoogleTest (--gtest-root) and nvcc

A mutant is killed when its check fails on the mutated copy: for gpu, also when the sources do not
build, the run crashes or has no end within --timeout. Every check first runs on the unmutated
copy: one that fails there kills nothing, and is bad input. Mutants run --jobs at a time, each job
in its own scratch copy; the GPU runs one test binary at a time.

Exit status: 0 every mutant killed; 1 one survived; 2 bad input (a malformed line, text not found
once, a check that fails unmutated, gpu checks where there is no GPU).
"""

import argparse
import fnmatch
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from ..codegen import lit_suite
from ..core import errors, options, toolchain
from ..core.errors import ExitCode
from . import gpu_check

REPO = toolchain.REPO
DEFAULT_MUTANTS = REPO / "tools" / "mutation" / "mutants.txt"
KINDS = ("lit", "tools", "gpu")


@dataclass(frozen=True)
class Mutant:
    line: int
    path: str
    original: str
    replacement: str
    check: str

    @property
    def kind(self) -> str:
        return self.check.split()[0]


def parse(text: str, where: str) -> list:
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 4 or (fields[3].split() or [""])[0] not in KINDS:
            raise errors.BadInput(f"{where}:{n}: want file, original, replacement, check ({'|'.join(KINDS)} ...), "
                                  "tab-separated")
        kind, *args = fields[3].split()
        if kind == "gpu":
            try:
                gpu_check.parse(args)
            except errors.BadInput as e:
                raise errors.BadInput(f"{where}:{n}: {e}") from None
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


@dataclass(frozen=True)
class Workspace:
    """One job's scratch copy of the working tree, and where its checks write."""
    root: Path
    build_dir: Path


class Checks:
    """How a check runs, and what the gpu checks need (found before anything is copied or built)."""

    def __init__(self, a, gpu: bool):
        self.gpu_lock = threading.Lock()  # one test binary on the GPU at a time
        self.timeout = a.timeout
        if gpu:
            gpu_check.require_gpu()
            self.gtest = gpu_check.GTest.at(Path(a.gtest_root))
            self.cuda = toolchain.find_toolchain(a.cuda_root)

    def failure(self, check: str, ws: Workspace, unmutated=False):
        """Why the check fails in ws, in a few words; None where it passes. Unmutated, a gpu check
        also fails when it runs no test or skips one (gpu_check.run), and says why it does not build."""
        kind, *args = check.split()
        if kind == "gpu":
            c = gpu_check.parse(args)
            binary, log = gpu_check.build(c, ws.root, ws.build_dir / "gpu", self.gtest, self.cuda.nvcc)
            if binary is None:
                return "does not build" + (":\n" + "\n".join(log.splitlines()[-20:]) if unmutated else "")
            with self.gpu_lock:
                return gpu_check.run(c, binary, self.cuda.root, self.timeout, strict=unmutated)
        env = lit_suite.environment(ws.root / "tools")
        env.setdefault("PTXW_DEPS_DIR", str(toolchain.deps_dir()))  # the checkout's, not the copy's (none)
        cwd = ws.root / "tests" / "tools" if kind == "tools" else ws.root
        r = subprocess.run(command(check, ws.root, ws.build_dir), cwd=cwd, env=env, capture_output=True)
        return None if r.returncode == 0 else "fails"


def source_files() -> list:
    """The working tree's files: tracked and untracked, not ignored, in a git checkout; otherwise (a
    copied tree, as on a machine without the repository) every file but build outputs and deps."""
    try:
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=REPO, capture_output=True, text=True)
        checkout = top.returncode == 0 and Path(top.stdout.strip()).resolve() == REPO
    except OSError:
        checkout = False
    if checkout:
        files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO, capture_output=True,
                               check=True).stdout.decode().split("\0")
        return [f for f in files if f and (REPO / f).is_file()]
    skip = {".git", ".deps", "build", "__pycache__"}
    return [str(p.relative_to(REPO)) for p in REPO.rglob("*")
            if p.is_file() and not skip & set(p.relative_to(REPO).parts)]


def scratch_copy(files, dest: Path):
    for f in files:
        (dest / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / f, dest / f)


def in_workspaces(workspaces, tasks):
    """task(workspace) for each task, as many at once as there are workspaces; results in order."""
    free = queue.SimpleQueue()
    for ws in workspaces:
        free.put(ws)

    def one(task):
        ws = free.get()
        try:
            return task(ws)
        finally:
            free.put(ws)

    with ThreadPoolExecutor(len(workspaces)) as pool:
        yield from pool.map(one, tasks)


def mutated(m: Mutant, checks: Checks):
    """The mutant's check on its workspace, the mutant applied; the file restored after."""
    def task(ws: Workspace):
        target = ws.root / m.path
        text = target.read_text()
        target.write_text(text.replace(m.original, m.replacement))
        try:
            return checks.failure(m.check, ws)
        finally:
            target.write_text(text)
    return task


def run(a) -> ExitCode:
    path = Path(a.mutants)
    if not path.is_file():
        raise errors.BadInput(f"no such file: {path}")
    kinds = a.kind or KINDS
    mutants = [m for m in parse(path.read_text(), str(path)) if fnmatch.fnmatch(m.path, a.only) and m.kind in kinds]
    for m in mutants:
        if not applies(m):
            raise errors.BadInput(f"{path}:{m.line}: '{m.original}' is not in {m.path} exactly once")
    if a.jobs < 1:
        raise errors.BadInput(f"--jobs {a.jobs}: want at least 1")
    checks = Checks(a, gpu=any(m.kind == "gpu" for m in mutants))
    build_dir = options.build_dir_of(a, "mutate")
    files = source_files()
    with tempfile.TemporaryDirectory(prefix="ptxw-mutate-") as tmp:
        jobs = max(1, min(a.jobs, len(mutants)))
        workspaces = [Workspace(Path(tmp) / f"job{k}", build_dir / f"job{k}") for k in range(jobs)]
        for ws in workspaces:
            scratch_copy(files, ws.root)
        unique = list(dict.fromkeys(m.check for m in mutants))
        baseline = in_workspaces(workspaces, [lambda ws, c=c: checks.failure(c, ws, unmutated=True) for c in unique])
        for check, why in zip(unique, baseline):
            if why:
                raise errors.BadInput(f"'{check}' fails without a mutant ({why}): it can kill nothing")
        survivors = []
        for m, why in zip(mutants, in_workspaces(workspaces, [mutated(m, checks) for m in mutants])):
            survivors += [] if why else [m]
            print(f"{'killed  ' if why else 'SURVIVED'} line {m.line}: {m.path}: {m.original.strip()!r} -> "
                  f"{m.replacement.strip()!r}{f' ({why})' if why and m.kind == 'gpu' else ''}", flush=True)
    print(f"\n{len(mutants) - len(survivors)} of {len(mutants)} mutants killed, {len(survivors)} survived")
    return ExitCode.FAILED if survivors else ExitCode.OK


def add_parser(sub):
    p = sub.add_parser("mutate", help="apply one-line mutants to a scratch copy and report which the suite kills",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mutants", default=str(DEFAULT_MUTANTS), help="the mutant list (default: tools/mutation/mutants.txt)")
    p.add_argument("--only", default="*", metavar="PATTERN", help="only the mutants of matching files ('include/*')")
    p.add_argument("--kind", action="append", choices=KINDS, help="only the mutants of this check kind (repeatable)")
    p.add_argument("-j", "--jobs", type=int, default=1, help="mutants checked at once, each in its own scratch copy "
                   "(default 1)")
    p.add_argument("--timeout", type=float, default=120, metavar="SECONDS",
                   help="a gpu check's run that takes longer is killed and fails (default 120, as CTest's)")
    p.add_argument("--gtest-root", default="/usr", metavar="PREFIX",
                   help="GoogleTest for the gpu checks: PREFIX/include/gtest, "
                   "PREFIX/lib[/x86_64-linux-gnu]/libgtest*.a (default /usr)")
    options.add_cuda_root(p, help="the nvcc of the gpu checks: " + options.CUDA_ROOT_HELP)
    options.add_build_dir(p, "lit's outputs and the gpu checks' binaries go to BUILD_DIR/mutate/jobK")
    p.set_defaults(run=run)
