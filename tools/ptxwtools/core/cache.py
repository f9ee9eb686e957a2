"""A folder of JSON values keyed by digests of their inputs, written atomically (temporary file, then
rename) so that an interrupted or concurrent run never leaves half a value behind."""

import ast
import functools
import hashlib
import json
import os
import tempfile
from pathlib import Path


def digest(*parts) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(str(p).encode())
        h.update(b"\0")
    return h.hexdigest()[:24]


def tree_digest(root: Path, pattern: str) -> str:
    """Of the names and contents of the files under root that match pattern."""
    h = hashlib.sha256()
    for p in sorted(root.rglob(pattern)):
        h.update(str(p.relative_to(root)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:24]


def _source(module: str) -> Path:
    """A ptxwtools module's file: 'core/variants' is core/variants.py, 'forms/table' forms/table.py."""
    return Path(__file__).parents[1] / f"{module}.py"


def _imports(module: str) -> set:
    """The ptxwtools modules a module imports ('from . import x', 'from .x import y', 'from ..x import
    y', 'from .pkg import mod'), wherever in it, named as _source names them."""
    tree = ast.parse(_source(module).read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level >= 1:
            package = module.split("/")[:-1]
            base = package[:len(package) - (node.level - 1)] if node.level > 1 else package
            target = base + (node.module.split(".") if node.module else [])
            found.add("/".join(target))
            found |= {"/".join(target + [a.name]) for a in node.names}
    return {m for m in found if m and _source(m).is_file()}


@functools.lru_cache(maxsize=None)
def code_digest(*modules) -> str:
    """Of the source of the ptxwtools modules named and of every one they import, transitively, in
    any package of ptxwtools: what a cached result was made by, derived from the code rather than
    kept by hand."""
    seen, todo = set(), list(modules)
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo += sorted(_imports(m) - seen)
    return digest(*(f"{m}:{_source(m).read_text()}" for m in sorted(seen)))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_MODE = 0o666 & ~_umask()  # what open() would give; mkstemp's 0600 would hide reports from other users


def atomic_write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.chmod(tmp, _MODE)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


class Cache:
    def __init__(self, folder: Path, enabled=True):
        self.folder = folder
        self.enabled = enabled

    def path(self, kind: str, key: str) -> Path:
        return self.folder / kind / f"{key}.json"

    def has(self, kind: str, key: str) -> bool:
        return self.enabled and self.path(kind, key).exists()

    def get(self, kind: str, key: str):
        """The stored value, or None (also when the cache is off)."""
        if not self.enabled:
            return None
        try:
            return json.loads(self.path(kind, key).read_text())
        except (OSError, ValueError):
            return None

    def put(self, kind: str, key: str, value):
        atomic_write(self.path(kind, key), json.dumps(value))
        return value

    def get_or(self, kind: str, key: str, compute):
        value = self.get(kind, key)
        return value if value is not None else self.put(kind, key, compute())
