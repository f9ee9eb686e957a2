"""Comparing the two results of one source x target ("unit") of `ptxw sass-diff`, kernel by kernel.

A result is the record compile.py writes (its functions' SASS listing and resources, the cubin's
provenance, the commands) or why there is none. Kernels are paired by name (pairing.py: through
versioned inline namespaces, then by kernel name); their SASS is compared as sass.normalise() leaves
it, their resources as cuobjdump and ptxas -v report them.

A unit is "same", "changed", "compiles on one side only" (a change too), "not comparable" (a target
or a .cu source a toolchain cannot do) or "compiles on neither side".
"""

import difflib
import re
from collections import Counter
from dataclasses import asdict, dataclass, field

from ..core import sass
from . import occupancy, pairing

OK, ERROR, UNKNOWN_TARGET, NO_NVCC, MISSING = "ok", "does not compile", "target unknown to this toolchain", \
    "no nvcc in this toolchain", "not built"
NOT_COMPARABLE = (UNKNOWN_TARGET, NO_NVCC)  # shown as such, never a change
SAME, CHANGED, ONE_SIDE, NEITHER, INCOMPARABLE = "same", "changed", "compiles on one side only", \
    "compiles on neither side", "not comparable"
CHANGES = (CHANGED, ONE_SIDE)


@dataclass
class KernelChange:
    kernel: str  # demangled name (the new side's where both have one)
    change: str  # "changed" | "added" | "removed"
    diff: str = ""  # unified diff of the normalised SASS
    opcodes: dict = field(default_factory=dict)  # class -> [old count, new count], changed classes only
    resources: dict = field(default_factory=dict)  # REG, SHARED, ... -> [old, new], changed ones only
    old_name: str = ""  # where the two sides name it differently (pairing.py)
    paired: str = ""  # the pairing round, where it was not "same name"


@dataclass
class UnitDiff:
    source: str
    target: str
    status: str  # SAME, CHANGED, ONE_SIDE, NEITHER or INCOMPARABLE
    note: str = ""  # in words: why not comparable, which side does not compile and its message
    kernels: list = field(default_factory=list)  # KernelChange of the kernels that changed
    table: list = field(default_factory=list)  # every kernel: names, instructions and resources on each side
    old: dict = None
    new: dict = None

    @property
    def changed(self) -> bool:
        return self.status in CHANGES

    def to_json(self) -> dict:
        """What a comparison found, without the two results it compared."""
        return {k: v for k, v in asdict(self).items() if k not in ("old", "new")}

    @classmethod
    def from_json(cls, data: dict, old: dict, new: dict) -> "UnitDiff":
        return cls(**{**data, "kernels": [KernelChange(**k) for k in data["kernels"]]}, old=old, new=new)


def _functions(result) -> dict:
    return {f["demangled"]: f for f in result.get("functions", [])}


def _normalised(f) -> list:
    return sass.normalise(sass.from_listing_lines(f["name"], f["listing"]).instructions)


def class_counts(lines) -> Counter:
    return Counter(sass.opcode_class(sass.opcode(line)) for line in lines if not sass.is_label(line))


def _facts(f, target: str, lines, dynamic_smem: occupancy.DynamicSmem) -> dict:
    """What the table shows of one kernel on one side: instructions, sync/fence count, resources."""
    counts = class_counts(lines)
    facts = {"instructions": sum(counts.values()), "sync/fence": counts["sync/fence"], **f.get("resources", {})}
    demangled = f.get("demangled", f["name"])
    occ = occupancy.of(target, f.get("resources", {}),
                       dynamic_smem.of(f["name"], demangled, pairing.short_name(demangled)))
    if occ is not None:
        facts["OCCUPANCY"] = occ
    return facts


def compare_kernels(a: dict, b: dict, labels, target="", rules=(), dynamic_smem=occupancy.DynamicSmem()):
    """(changes, table) of two results that compiled: KernelChange per kernel that changed, was added
    or removed, and a row per kernel with its facts on each side (its occupancy with dynamic_smem)."""
    changes, table = [], []
    fa, fb = _functions(a), _functions(b)
    for p in pairing.pair(list(fa), list(fb), rules):
        name = p.new or p.old
        la = _normalised(fa[p.old]) if p.old else None
        lb = _normalised(fb[p.new]) if p.new else None
        row = {"kernel": name, "short": pairing.short_name(name), "old_name": p.old, "new_name": p.new,
               "paired": p.round, "old": _facts(fa[p.old], target, la, dynamic_smem) if p.old else None,
               "new": _facts(fb[p.new], target, lb, dynamic_smem) if p.new else None}
        table.append(row)
        if not p.new:
            changes.append(KernelChange(name, "removed", opcodes={k: [v, 0] for k, v in class_counts(la).items()}))
            continue
        if not p.old:
            changes.append(KernelChange(name, "added", opcodes={k: [0, v] for k, v in class_counts(lb).items()}))
            continue
        # a resource one side's record lacks was not measured there (a baseline recorded before ptxw
        # recorded it): compared only where both have it
        ra, rb = fa[p.old].get("resources", {}), fb[p.new].get("resources", {})
        resources = {k: [ra[k], rb[k]] for k in sorted(set(ra) & set(rb)) if ra[k] != rb[k]}
        row["changed"] = la != lb or bool(resources)
        if not row["changed"]:
            continue
        ca, cb = class_counts(la), class_counts(lb)
        diff = "\n".join(difflib.unified_diff(la, lb, f"{labels[0]}: {p.old}", f"{labels[1]}: {p.new}", lineterm=""))
        changes.append(KernelChange(name, "changed", diff,
                                    {k: [ca[k], cb[k]] for k in sorted(set(ca) | set(cb)) if ca[k] != cb[k]}, resources,
                                    old_name=p.old if p.old != p.new else "",
                                    paired=p.round if p.round != "same name" else ""))
    return changes, table


_ERROR_LINE = re.compile(r"error|fatal", re.IGNORECASE)
_AT_LINE = re.compile(r"at line (\d+) of (\S+)")


def first_error(message: str, source: str = "") -> str:
    """The compiler's first error, without the folder a side's tree is in ($TREE/) or the file name
    ptxas puts first (a temporary one); where the error is in a header, also the line of the source
    it was reached from (nvcc's "detected during instantiation ... at line N of k.cu")."""
    text = message.replace("$TREE/", "")
    lines = text.splitlines()
    at = next((n for n, x in enumerate(lines) if _ERROR_LINE.search(x)), None)
    first = re.sub(r"^ptxas \S+, line \d+; ", "ptxas: ", (lines[at] if at is not None else lines[0] if lines else "").strip())
    name = source.rsplit("/", 1)[-1]
    if at is None or not name or first.startswith((source + "(", name + "(")):
        return first
    for x in lines[at + 1:]:
        if _ERROR_LINE.search(x) and not x.startswith(" "):
            break  # the next error
        m = _AT_LINE.search(x)
        if m and m.group(2).endswith(name):
            return f"{first} (reached from {source}:{m.group(1)})"
    return first


def compare_unit(source, target, a: dict, b: dict, labels, rules=(), dynamic_smem=occupancy.DynamicSmem()) -> UnitDiff:
    d = UnitDiff(source, target, SAME, old=a, new=b)
    sa, sb = a.get("status", MISSING), b.get("status", MISSING)
    if sa in NOT_COMPARABLE or sb in NOT_COMPARABLE:
        d.status = INCOMPARABLE
        d.note = "; ".join(f"{label}: {s}" for label, s in zip(labels, (sa, sb)) if s in NOT_COMPARABLE)
    elif sa == OK and sb == OK:
        d.kernels, d.table = compare_kernels(a, b, labels, target, rules, dynamic_smem)
        d.status = CHANGED if d.kernels else SAME
    elif {sa, sb} <= {ERROR, MISSING}:  # a build skips what does not compile: "not built" is no change then
        d.status = NEITHER
        d.note = first_error(b.get("message", "") or a.get("message", ""), source)
    else:
        d.status = ONE_SIDE
        failing = [(label, r) for label, r in zip(labels, (a, b)) if r.get("status", MISSING) != OK]
        d.note = "; ".join(f"{label}: {r.get('status', MISSING)}: {first_error(r.get('message', ''), source)}".rstrip(": ")
                           for label, r in failing)
    return d


def in_order(keys, target_order=()) -> list:
    """(source, target) keys by source, then targets in target_order."""
    rank = {t: i for i, t in enumerate(target_order)}
    return sorted(keys, key=lambda k: (k[0], rank.get(k[1], len(rank)), k[1]))


def compare(old, new, keys=None, target_order=(), rules=(), dynamic_smem=occupancy.DynamicSmem()) -> list:
    """Every unit of keys (default: of either side), by source, then targets in target_order."""
    labels = (old.label, new.label)
    keys = in_order(keys if keys is not None else set(old.units) | set(new.units), target_order)
    return [compare_unit(s, t, old.units.get((s, t), {}), new.units.get((s, t), {}), labels, rules, dynamic_smem)
            for s, t in keys]
