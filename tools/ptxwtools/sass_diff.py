"""`ptxw sass-diff`: the same sources compiled for the same targets on two sides, compared kernel by
kernel. A side is a toolchain, a git revision of the user's repository, a recorded baseline, or the
records a codegen build left (compile.py writes one beside every listing).

Per source x target ("unit") each side has a result: the record compile.py writes (its functions'
SASS listing and resources, the cubin's provenance, the commands) or why there is none: the source
does not compile (with the compiler's message), the toolchain does not know the target, or it has
no nvcc. Kernels are matched by name, so their order does not matter; their SASS is compared as
sass.normalise() leaves it.

Compiles are cached by their inputs, ccache's "direct mode": a manifest keyed by toolchain, target,
flags and the source's content lists the files nvcc read; the result is keyed by the manifest and
the content of those files. A rerun with nothing changed compiles nothing.
"""

import concurrent.futures
import datetime
import difflib
import json
import os
import re
import shlex
import subprocess
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from . import cache as cache_, compile as compile_, sass, targets, toolchain
from .errors import BadInput

OK, ERROR, UNKNOWN_TARGET, NO_NVCC, MISSING = "ok", "does not compile", "target unknown to this toolchain", \
    "no nvcc in this toolchain", "not built"
_NOT_COMPARABLE = (UNKNOWN_TARGET, NO_NVCC)  # shown as such, never a change
_CODE_FILES = ("compile.py", "cubin.py", "sass.py", "sass_diff.py")  # what a cached result was made by


# ---- sides ----------------------------------------------------------------------------------------


@dataclass
class Side:
    label: str  # how reports name it: "CUDA 13.5.37", "rev main (1a2b3c4)", "baseline sass.json"
    kind: str  # "toolchain" | "revision" | "baseline" | "built"
    tc: toolchain.Toolchain = None
    tree: Path = None  # where its sources are read from (the working tree or an extracted revision)
    rev: str = ""
    path: Path = None  # the baseline file or the build folder
    units: dict = field(default_factory=dict)  # (source, target) -> result
    compiled: int = 0  # results not taken from the cache

    def describe(self) -> dict:
        d = {"label": self.label, "kind": self.kind}
        if self.tc:
            d.update(toolchain=str(self.tc.root), ptxas=self.tc.version, nvcc=self.tc.has_nvcc)
        if self.rev:
            d["revision"] = self.rev
        if self.path:
            d["path"] = str(self.path)
        return d


def git(root: Path, *args, check=True) -> str:
    out = toolchain.run(["git", "-C", root, *args])
    if check and out.returncode != 0:
        raise BadInput(f"git {' '.join(args)} in {root}: {out.stderr.strip() or out.stdout.strip()}")
    return out.stdout.strip()


def working_root(cwd: Path = None) -> Path:
    """The top of the git checkout around cwd, else cwd: sources are named relative to it."""
    cwd = (cwd or Path.cwd()).resolve()
    out = toolchain.run(["git", "-C", cwd, "rev-parse", "--show-toplevel"])
    return Path(out.stdout.strip()) if out.returncode == 0 else cwd


def resolve_revision(root: Path, rev: str) -> str:
    out = toolchain.run(["git", "-C", root, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"])
    if out.returncode != 0:
        raise BadInput(f"'{rev}' is not a revision of the git repository at {root}")
    return out.stdout.strip()


def in_revision(root: Path, sha: str, name: str) -> bool:
    return toolchain.run(["git", "-C", root, "cat-file", "-e", f"{sha}:{name}"]).returncode == 0


def revision_tree(root: Path, sha: str, folder: Path) -> Path:
    """The files of one commit, extracted once (git archive) into folder/<sha>."""
    dest = folder / sha
    if dest.is_dir():
        return dest
    folder.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=folder, prefix=f".{sha[:12]}."))
    archive = subprocess.run(["git", "-C", str(root), "archive", "--format=tar", sha], capture_output=True)
    unpack = subprocess.run(["tar", "-x", "-C", str(tmp)], input=archive.stdout, capture_output=True)
    if archive.returncode != 0 or unpack.returncode != 0:
        raise toolchain.ToolError(f"cannot extract {sha} of {root}: {(archive.stderr or unpack.stderr).decode()}")
    try:
        tmp.rename(dest)
    except OSError:  # another run extracted it first
        subprocess.run(["rm", "-rf", str(tmp)])
    return dest


# ---- compiling one side -----------------------------------------------------------------------------


def reroot(flags, old: Path, new: Path) -> list:
    """nvcc flags with paths inside the working tree moved to the same place in another tree."""
    out = []
    for f in flags:
        m = re.match(r"^(-I|-isystem|-include|--include-path=|--pre-include=)?(.*)$", f)
        prefix, path = m.group(1) or "", m.group(2)
        p = Path(path)
        if p.is_absolute() and p.is_relative_to(old):
            f = prefix + str(new / p.relative_to(old))
        out.append(f)
    return out


def _parse_deps(text: str) -> list:
    """The files of a make rule as nvcc -M/-MD writes it."""
    _, _, deps = text.replace("\\\n", " ").partition(": ")
    return [d.replace("\0", " ") for d in deps.replace("\\ ", "\0").split()]


class Compiler:
    """Compiles units for one side, through the cache."""

    def __init__(self, side: Side, work_root: Path, flags, cache: cache_.Cache):
        self.side, self.work_root, self.cache = side, work_root, cache
        self.flags = reroot(flags, work_root, side.tree)
        self.includes = reroot([str(compile_.INCLUDE)], work_root, side.tree) if compile_.INCLUDE.is_dir() else []
        here = Path(__file__).parent
        code = cache_.digest(*(here.joinpath(f).read_text() for f in _CODE_FILES))
        self.identity = cache_.digest(code, side.tc.root, side.tc.version, side.tc.has_nvcc)
        self._digests = {}

    def _content(self, path: Path) -> str:
        if path not in self._digests:
            try:
                self._digests[path] = cache_.digest(path.read_bytes())
            except OSError:
                self._digests[path] = "missing"
        return self._digests[path]

    def _portable(self, text: str) -> str:
        return text.replace(str(self.side.tree), "$TREE")

    def _dep_key(self, manifest: str, deps) -> str:
        return cache_.digest(manifest, *(f"{d}={self._content(self._located(d))}" for d in deps))

    def _located(self, dep: str) -> Path:
        return self.side.tree / dep[len("$TREE/"):] if dep.startswith("$TREE/") else Path(dep)

    def unit(self, source: str, target: str) -> dict:
        tc = self.side.tc
        if target not in tc.targets:
            return {"status": UNKNOWN_TARGET, "message": f"ptxas {tc.version} ({tc.ptxas}) does not list {target}",
                    "commands": [f"{tc.ptxas} --help"]}
        src = self.side.tree / source if not Path(source).is_absolute() else Path(source)
        if not src.is_file():
            where = f"revision {self.side.rev}" if self.side.rev else str(self.side.tree)
            return {"status": ERROR, "message": f"no file {source} in {where}", "commands": []}
        if src.suffix != ".ptx" and not tc.has_nvcc:
            return {"status": NO_NVCC, "message": f"CUDA {tc.version} at {tc.root} has ptxas but no nvcc", "commands": []}
        manifest = cache_.digest(self.identity, target, self._portable(shlex.join(self.includes + self.flags)),
                                 self._content(src), src.suffix)
        deps = self.cache.get("manifest", manifest)
        if deps is not None:
            hit = self.cache.get("unit", self._dep_key(manifest, deps))
            if hit is not None:
                return hit
        result, deps = self._compile(src, target)
        self.side.compiled += 1
        if deps is None:
            return result
        self.cache.put("manifest", manifest, deps)
        return self.cache.put("unit", self._dep_key(manifest, deps), result)

    def _dependencies(self, src: Path, target: str):
        """What nvcc reads for a source that failed to compile (it writes no depfile then); None if
        even that fails (a missing header): such a result is not cached."""
        if src.suffix == ".ptx":
            return [str(src)]
        out = toolchain.run(compile_.nvcc_command(self.side.tc, target, src, self.includes, self.flags, "-M"))
        return _parse_deps(out.stdout) if out.returncode == 0 else None

    def _compile(self, src: Path, target: str):
        with tempfile.TemporaryDirectory() as tmp:
            depfile = Path(tmp, "deps.d") if src.suffix != ".ptx" else None
            try:
                record = compile_.compile_source(src, targets.parse(target), Path(tmp, "unit"), self.side.tc,
                                                 self.flags, include_dirs=self.includes, depfile=depfile)
                result = {"status": OK, **{k: record[k] for k in ("provenance", "commands", "functions")}}
                found = _parse_deps(depfile.read_text()) if depfile else [str(src)]
            except compile_.CompileError as e:
                result = {"status": ERROR, "message": e.output.strip()[-4000:], "commands": [e.command]}
                found = self._dependencies(src, target)
            except toolchain.ToolError as e:
                result = {"status": ERROR, "message": str(e), "commands": []}
                found = [str(src)]
            for k in ("message", "commands"):  # names of this compile's folders would differ from run to run
                if k in result:
                    portable = [self._portable(c).replace(tmp, "$OUT") for c in ([result[k]] if k == "message" else result[k])]
                    result[k] = portable[0] if k == "message" else portable
        if found is None:
            return result, None
        # files of the toolchain are covered by its identity; the rest are hashed on every lookup
        deps = sorted({self._portable(str(Path(d).resolve())) for d in found
                       if not Path(d).resolve().is_relative_to(self.side.tc.root.resolve())})
        return result, deps


def build_side(side: Side, work_root: Path, sources, target_names, flags, cache: cache_.Cache, jobs=None, progress=None):
    compiler = Compiler(side, work_root, flags, cache)
    todo = [(s, t) for s in sources for t in target_names]
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 2) as pool:
        futures = {pool.submit(compiler.unit, s, t): (s, t) for s, t in todo}
        for n, f in enumerate(concurrent.futures.as_completed(futures), 1):
            side.units[futures[f]] = f.result()
            if progress:
                progress(n, len(todo), side.label)


def load_built(side: Side, work_root: Path, target_names=None):
    """Results from the <out>.sass.json records under a build folder (e.g. build/codegen after
    `ptxw codegen`): no compile at all. A record whose source no longer exists is left out."""
    for path in sorted(side.path.rglob("*.sass.json")):
        record = json.loads(path.read_text())
        src = Path(record["source"])
        if not src.is_file():
            continue
        name = str(src.resolve().relative_to(work_root)) if src.resolve().is_relative_to(work_root) else str(src)
        if target_names and record["target"] not in target_names:
            continue
        side.units[(name, record["target"])] = {"status": OK, **{k: record[k] for k in ("provenance", "commands", "functions")}}


# ---- baselines ----------------------------------------------------------------------------------------


BASELINE_FORMAT = "ptxw sass-diff baseline 1"


def load_baseline(side: Side):
    try:
        data = json.loads(side.path.read_text())
    except (OSError, ValueError) as e:
        raise BadInput(f"cannot read baseline {side.path}: {e}") from None
    if data.get("format") != BASELINE_FORMAT:
        raise BadInput(f"{side.path} is not a ptxw sass-diff baseline (format {data.get('format')!r})")
    side.label = f"baseline {side.path.name} ({data['side']['label']}, {data['date']})"
    for key, result in data["units"].items():
        source, _, target = key.rpartition(" @ ")
        side.units[(source, target)] = result
    return data


def baseline_json(side: Side, units: dict) -> str:
    """Only what a later diff compares: no commands (they name this machine's folders)."""
    kept = {f"{s} @ {t}": {k: v for k, v in r.items() if k != "commands"} for (s, t), r in sorted(units.items())}
    return json.dumps({"format": BASELINE_FORMAT, "date": datetime.date.today().isoformat(),
                              "side": side.describe() | {"toolchain": None}, "units": kept}, indent=1) + "\n"


# ---- comparing ---------------------------------------------------------------------------------------


@dataclass
class KernelChange:
    kernel: str  # demangled name
    change: str  # "changed" | "added" | "removed"
    diff: str = ""  # unified diff of the normalised SASS
    opcodes: dict = field(default_factory=dict)  # class -> [old count, new count], changed classes only
    resources: dict = field(default_factory=dict)  # REG, SHARED, ... -> [old, new], changed ones only


@dataclass
class UnitDiff:
    source: str
    target: str
    status: str  # "same" | "changed" | "not comparable" | "compiles on neither side"
    note: str = ""  # in words: why not comparable, which side does not compile and its message
    kernels: list = field(default_factory=list)
    old: dict = None
    new: dict = None

    @property
    def changed(self) -> bool:
        return self.status == "changed"


def _functions(result) -> dict:
    return {f["demangled"]: f for f in result.get("functions", [])}


def _normalised(f) -> list:
    return sass.normalise(sass.from_listing_lines(f["name"], f["listing"]).instructions)


def class_counts(lines) -> Counter:
    return Counter(sass.opcode_class(sass.opcode(line)) for line in lines if not sass.is_label(line))


def compare_kernels(a: dict, b: dict, labels) -> list:
    changes = []
    fa, fb = _functions(a), _functions(b)
    for name in sorted(set(fa) | set(fb)):
        if name not in fb:
            changes.append(KernelChange(name, "removed", opcodes={k: [v, 0] for k, v in class_counts(_normalised(fa[name])).items()}))
            continue
        if name not in fa:
            changes.append(KernelChange(name, "added", opcodes={k: [0, v] for k, v in class_counts(_normalised(fb[name])).items()}))
            continue
        la, lb = _normalised(fa[name]), _normalised(fb[name])
        ra, rb = fa[name].get("resources", {}), fb[name].get("resources", {})
        resources = {k: [ra.get(k), rb.get(k)] for k in sorted(set(ra) | set(rb)) if ra.get(k) != rb.get(k)}
        if la == lb and not resources:
            continue
        ca, cb = class_counts(la), class_counts(lb)
        diff = "\n".join(difflib.unified_diff(la, lb, f"{labels[0]}: {name}", f"{labels[1]}: {name}", lineterm=""))
        changes.append(KernelChange(name, "changed", diff,
                                    {k: [ca[k], cb[k]] for k in sorted(set(ca) | set(cb)) if ca[k] != cb[k]}, resources))
    return changes


def _first_error(message: str) -> str:
    """The compiler's first error line, without the file name ptxas puts first (a temporary one)."""
    lines = [x for x in message.splitlines() if "error" in x.lower() or "fatal" in x.lower()]
    return re.sub(r"^ptxas \S+, line \d+; ", "ptxas: ", (lines or message.splitlines() or [""])[0].strip())


def compare_unit(source, target, a: dict, b: dict, labels) -> UnitDiff:
    d = UnitDiff(source, target, "same", old=a, new=b)
    sa, sb = a.get("status", MISSING), b.get("status", MISSING)
    if sa in _NOT_COMPARABLE or sb in _NOT_COMPARABLE:
        d.status = "not comparable"
        d.note = "; ".join(f"{label}: {s}" for label, s in zip(labels, (sa, sb)) if s in _NOT_COMPARABLE)
    elif sa == OK and sb == OK:
        d.kernels = compare_kernels(a, b, labels)
        d.status = "changed" if d.kernels else "same"
    elif {sa, sb} <= {ERROR, MISSING}:  # a build skips what does not compile: "not built" is no change then
        d.status = "compiles on neither side"
        d.note = _first_error(b.get("message", ""))
    else:
        d.status = "changed"
        failing = [(label, r) for label, r in zip(labels, (a, b)) if r.get("status", MISSING) != OK]
        d.note = "; ".join(f"{label}: {r.get('status', MISSING)}: {_first_error(r.get('message', ''))}".rstrip(": ")
                           for label, r in failing)
    return d


def compare(old: Side, new: Side, keys=None, target_order=()) -> list:
    """Every unit of keys (default: of either side), by source, then targets in target_order."""
    labels = (old.label, new.label)
    rank = {t: i for i, t in enumerate(target_order)}
    keys = sorted(keys if keys is not None else set(old.units) | set(new.units),
                  key=lambda k: (k[0], rank.get(k[1], len(rank)), k[1]))
    return [compare_unit(s, t, old.units.get((s, t), {}), new.units.get((s, t), {}), labels) for s, t in keys]


@dataclass
class Result:
    old: Side
    new: Side
    sources: list
    targets: list
    units: list  # UnitDiff
    command: str
    date: str
    seconds: float
    problems: list = field(default_factory=list)  # a side that does not build, in words

    @property
    def changed(self) -> list:
        return [u for u in self.units if u.changed]


def side_problem(side: Side) -> str:
    """A side that compiled none of its units although it could have: bad input (a revision or a
    toolchain that does not build), said with the first error."""
    results = [r for r in side.units.values() if r.get("status") not in _NOT_COMPARABLE]
    if results and not any(r.get("status") == OK for r in results):
        return f"{side.label} does not build: {_first_error(results[0].get('message', ''))}"
    return ""


def run(old: Side, new: Side, work_root: Path, sources, target_names, flags, cache: cache_.Cache, jobs=None,
        progress=None, command="") -> Result:
    start = time.monotonic()
    built = [side for side in (old, new) if side.kind in ("toolchain", "revision")]
    for side in built:
        build_side(side, work_root, sources, target_names, flags, cache, jobs, progress)
    if built:  # what was asked for
        keys = {(s, t) for s in sources for t in target_names}
    else:  # a baseline against a build folder: all either has, on the targets asked for
        keys = {k for k in set(old.units) | set(new.units) if not target_names or k[1] in target_names}
    units = compare(old, new, keys, target_names)
    problems = [p for p in map(side_problem, built) if p]
    return Result(old, new, list(sources), list(target_names), units, command, datetime.date.today().isoformat(),
                  time.monotonic() - start, problems)
