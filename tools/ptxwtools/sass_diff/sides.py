"""`ptxw sass-diff`: the same sources compiled for the same targets on two sides, compared kernel by
kernel. A side is a toolchain, a git revision of the user's repository, a recorded baseline, or the
records a codegen build left (compile.py writes one beside every listing).

Building a side is build.py (each from its own tree, cached by what the compile read),
comparing two results compare.py (kernels paired by name, SASS normalised, resources);
this module holds the sides, baselines and the run.
"""

import datetime
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..core import cache as cache_, toolchain
from ..core.errors import BadInput
from . import occupancy
from .build import build_side
from .compare import INCOMPARABLE, NEITHER, OK, UnitDiff, compare, in_order


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
    keys: dict = field(default_factory=dict)  # (source, target) -> the cache key of its result, where cached
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


def _kept(result: dict) -> dict:
    out = {k: v for k, v in result.items() if k != "commands"}
    if "read_outside_the_tree" in out.get("provenance", {}):
        out["provenance"] = {k: v for k, v in out["provenance"].items() if k != "read_outside_the_tree"}
    return out


def updated_baseline(old: Side, new: Side, root: Path):
    """The units an --update-baseline writes: this run's, and the old baseline's pairs this run did not
    cover -- a source it did not compile or read, or a target it did not -- whose source is still in the
    tree, so that recording part of a suite (one folder's records, one source) keeps the rest. Returns
    (units, kept, dropped): the old pairs kept and those dropped (their source and target were covered
    here and gave nothing, or their source is gone)."""
    sources = {s for s, _ in new.units}
    target_names = {t for _, t in new.units}
    kept, dropped = {}, []
    for (source, target), result in old.units.items():
        if (source, target) in new.units:
            continue
        if (source in sources and target in target_names) or not (root / source).is_file():
            dropped.append((source, target))
        else:
            kept[(source, target)] = result
    return {**kept, **new.units}, kept, sorted(dropped)


def baseline_json(side: Side, units: dict) -> str:
    """Only what a later diff compares: no commands or files read outside the tree (they name this
    machine's folders)."""
    kept = {f"{s} @ {t}": _kept(r) for (s, t), r in sorted(units.items())}
    return json.dumps({"format": BASELINE_FORMAT, "date": datetime.date.today().isoformat(),
                              "side": side.describe() | {"toolchain": None}, "units": kept}, indent=1) + "\n"


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
    problems: list = field(default_factory=list)  # what makes the run a failure whatever changed, in words

    @property
    def changed(self) -> list:
        return [u for u in self.units if u.changed]


def nothing_compiled(units) -> str:
    """Where no unit compiled on either side although a toolchain could do it (a flag nvcc rejects, a
    header missing everywhere): said with the first error, since such a diff checks nothing."""
    tried = [u for u in units if u.status != INCOMPARABLE]
    if tried and all(u.status == NEITHER for u in tried):
        return f"nothing compiled on either side: {tried[0].source} for {tried[0].target}: {tried[0].note}"
    return ""


def _compared(old: Side, new: Side, keys, target_names, rules, dynamic_smem, cache: cache_.Cache) -> list:
    """compare(), each unit's comparison cached by the two results it compares (a rerun of a large diff
    spends its time normalising and diffing listings otherwise)."""
    code = cache_.digest(cache_.code_digest("sass_diff/compare"), old.label, new.label,
                         *(f"{p.pattern}={r}" for p, r in rules), repr(dynamic_smem))

    def key(side, k):
        return side.keys.get(k) or cache_.digest(json.dumps(side.units.get(k, {}), sort_keys=True))

    units, todo = {}, []
    for k in keys:
        hit = cache.get("compared", cache_.digest(code, *k, key(old, k), key(new, k)))
        if hit is None:
            todo.append(k)
        else:
            units[k] = UnitDiff.from_json(hit, old.units.get(k, {}), new.units.get(k, {}))
    for u in compare(old, new, todo, target_names, rules, dynamic_smem):
        k = (u.source, u.target)
        cache.put("compared", cache_.digest(code, *k, key(old, k), key(new, k)), u.to_json())
        units[k] = u
    return [units[k] for k in in_order(units, target_names)]


def run(old: Side, new: Side, work_root: Path, commands: dict, target_names, cache: cache_.Cache, jobs=None,
        progress=None, command="", rules=(), dynamic_smem=occupancy.DynamicSmem()) -> Result:
    """commands: {source: build.Command} for the sides that compile; rules: pairing rules;
    dynamic_smem: the launches' dynamic shared memory, for occupancy."""
    start = time.monotonic()
    built = [side for side in (old, new) if side.kind in ("toolchain", "revision")]
    for side in built:
        build_side(side, work_root, commands, target_names, cache, jobs, progress)
    if built:  # what was asked for
        keys = {(s, t) for s in commands for t in target_names}
    else:  # a baseline against a build folder: all either has, on the targets asked for
        keys = {k for k in set(old.units) | set(new.units) if not target_names or k[1] in target_names}
    units = _compared(old, new, keys, target_names, rules, dynamic_smem, cache)
    problems = [p for p in [nothing_compiled(units)] if p and built]
    return Result(old, new, list(commands), list(target_names), units, command, datetime.date.today().isoformat(),
                  time.monotonic() - start, problems)
