"""Compiling one side of `ptxw sass-diff`: the sources of a git revision or the working tree, with
each source's own command, through a cache.

Each side is built from its own tree. A command (the flags after `--`, or a source's entry in CMake's
compile_commands.json) is read in the folder it was given in: every relative path it names (-I,
-isystem, -include, --include-path, ...) is made absolute there, and every path inside the
repository then moves to the same place in the side's tree; nvcc runs in that tree too, so quoted
includes resolve beside the side's own sources. A path that is not part of the repository (a build
folder's generated header) stays where it is. What a compile read from outside the side's tree and
the toolchain is named in its result's provenance with a digest of its content.

Compiles are cached by their inputs, ccache's "direct mode": a manifest keyed by toolchain, target,
flags and the source's content lists the files nvcc read; the result is keyed by the manifest and
the content of those files. A rerun with nothing changed compiles nothing.
"""

import concurrent.futures
import os
import shlex
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..core import cache as cache_, compile as compile_, targets, toolchain
from ..core.errors import BadInput
from .compare import ERROR, NO_NVCC, OK, UNKNOWN_TARGET

# nvcc's options that name a path, separate (-I inc) or joined (-Iinc, --include-path=inc); nvcc also
# takes comma-separated lists for them.
_PATH_OPTIONS = ("--include-path", "--system-include", "--pre-include", "-isystem", "-include", "-iquote", "-idirafter",
                 "-imacros", "-I")


# ---- revisions ---------------------------------------------------------------------------------------


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


# ---- commands ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    """How one source is compiled besides its target: nvcc flags, and the folder they were given in."""

    flags: tuple
    directory: Path
    ptxw_include: bool = True  # also -I ptxw's own include/ (the flags after --; not a CMake command)


def _map_paths(flags, change) -> list:
    """flags with change(path) applied to every path an include option names."""
    out, flags, i = [], list(flags), 0
    while i < len(flags):
        f = flags[i]
        option = next((o for o in _PATH_OPTIONS if f == o or f.startswith(o)), None)
        if option is None:
            out.append(f)
        elif f == option:  # -I inc
            out.append(f)
            if i + 1 < len(flags):
                i += 1
                out.append(",".join(change(p) for p in flags[i].split(",")))
        else:  # -Iinc, --include-path=inc
            rest = f[len(option):]
            eq = "=" if rest.startswith("=") else ""
            out.append(option + eq + ",".join(change(p) for p in rest[len(eq):].split(",")))
        i += 1
    return out


def absolute_flags(flags, directory: Path) -> list:
    return _map_paths(flags, lambda p: str((directory / p).resolve()) if p else p)


def paths_in(flags) -> list:
    found = []
    _map_paths(flags, lambda p: found.append(p) or p)
    return found


class Reroot:
    """Paths of the working tree moved to the same place in a side's tree, where the repository has
    them: a path git does not track (a build folder) stays in the working tree."""

    def __init__(self, work_root: Path, tree: Path):
        self.work_root, self.tree = work_root, tree
        self._tracked = {}

    def _is_tracked(self, rel: str) -> bool:
        if rel not in self._tracked:
            out = toolchain.run(["git", "-C", self.work_root, "ls-files", "--", rel or "."])
            self._tracked[rel] = out.returncode == 0 and bool(out.stdout.strip())
        return self._tracked[rel]

    def path(self, p: str) -> str:
        if self.tree == self.work_root or not Path(p).is_absolute() or not Path(p).is_relative_to(self.work_root):
            return p
        rel = str(Path(p).relative_to(self.work_root))
        moved = self.tree / rel
        return str(moved) if moved.exists() or self._is_tracked(rel) else p

    def flags(self, flags) -> list:
        return _map_paths(flags, self.path)


def _parse_deps(text: str) -> list:
    """The files of a make rule as nvcc -M/-MD writes it."""
    _, _, deps = text.replace("\\\n", " ").partition(": ")
    return [d.replace("\0", " ") for d in deps.replace("\\ ", "\0").split()]


# ---- compiling -------------------------------------------------------------------------------------


class Compiler:
    """Compiles units for one side, through the cache."""

    def __init__(self, side, work_root: Path, commands: dict, cache: cache_.Cache):
        self.side, self.work_root, self.cache, self.commands = side, work_root, cache, commands
        self.reroot = Reroot(work_root, side.tree)
        self.includes = [self.reroot.path(str(compile_.INCLUDE))] if compile_.INCLUDE.is_dir() else []
        self.identity = cache_.digest(cache_.code_digest("sass_diff/build"), side.tc.root, side.tc.version,
                                      side.tc.has_nvcc)
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

    def _directory(self, command: Command) -> Path:
        moved = Path(self.reroot.path(str(command.directory)))
        return moved if moved.is_dir() else self.side.tree

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
        command = self.commands[source]
        flags, includes = self.reroot.flags(command.flags), self.includes if command.ptxw_include else []
        manifest = cache_.digest(self.identity, target, self._portable(shlex.join(includes + flags)),
                                 self._content(src), src.suffix)
        deps = self.cache.get("manifest", manifest)
        if deps is not None:
            key = self._dep_key(manifest, deps)
            hit = self.cache.get("unit", key)
            if hit is not None:
                self.side.keys[(source, target)] = key
                return hit
        result, deps = self._compile(src, target, flags, includes, self._directory(command))
        self.side.compiled += 1
        if deps is None:
            return result
        self.cache.put("manifest", manifest, deps)
        key = self._dep_key(manifest, deps)
        self.side.keys[(source, target)] = key
        return self.cache.put("unit", key, result)

    def _dependencies(self, src: Path, target: str, flags, includes, cwd: Path):
        """What nvcc reads for a source that failed to compile (it writes no depfile then); None if
        even that fails (a missing header): such a result is not cached."""
        if src.suffix == ".ptx":
            return [str(src)]
        out = toolchain.run(compile_.nvcc_command(self.side.tc, target, src, includes, flags, "-M"), cwd=cwd)
        return _parse_deps(out.stdout) if out.returncode == 0 else None

    def _outside(self, deps) -> dict:
        """{file: content digest} of what a compile read outside the side's tree and the toolchain."""
        inside = (self.side.tree, self.side.tc.root.resolve())
        return {d: self._content(Path(d)) for d in deps if not d.startswith("$TREE/")
                and not any(Path(d).is_relative_to(r) for r in inside)}

    def _compile(self, src: Path, target: str, flags, includes, cwd: Path):
        with tempfile.TemporaryDirectory() as tmp:
            depfile = Path(tmp, "deps.d") if src.suffix != ".ptx" else None
            try:
                record = compile_.compile_source(src, targets.parse(target), Path(tmp, "unit"), self.side.tc,
                                                 flags, include_dirs=includes, depfile=depfile, cwd=cwd)
                result = {"status": OK, **{k: record[k] for k in ("provenance", "commands", "functions")}}
                found = _parse_deps(depfile.read_text()) if depfile else [str(src)]
            except compile_.CompileError as e:
                result = {"status": ERROR, "message": e.output.strip()[-4000:], "commands": [e.command]}
                found = self._dependencies(src, target, flags, includes, cwd)
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
        deps = sorted({self._portable(str((cwd / d).resolve())) for d in found
                       if not (cwd / d).resolve().is_relative_to(self.side.tc.root.resolve())})
        outside = self._outside(deps)
        if outside and result["status"] == OK:
            result["provenance"] = {**result.get("provenance", {}), "read_outside_the_tree": outside}
        return result, deps


def build_side(side, work_root: Path, commands: dict, target_names, cache: cache_.Cache, jobs=None, progress=None):
    """side.units[(source, target)] for every source of commands ({source: Command}) and target."""
    compiler = Compiler(side, work_root, commands, cache)
    todo = [(s, t) for s in commands for t in target_names]
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 2) as pool:
        futures = {pool.submit(compiler.unit, s, t): (s, t) for s, t in todo}
        for n, f in enumerate(concurrent.futures.as_completed(futures), 1):
            side.units[futures[f]] = f.result()
            if progress:
                progress(n, len(todo), side.label)
