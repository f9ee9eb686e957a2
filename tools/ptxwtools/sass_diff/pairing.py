"""Which kernel of one side is which kernel of the other (`ptxw sass-diff`), by demangled name.

A library's kernels change names between its releases without changing what they are. CUB puts
them in a versioned inline namespace (`cub::CUB_300001_SM_900::` in CCCL 3.0, `cub::_V_300500_SM_900::`
in 3.5), libcu++ in `cuda::std::__4::`, and a release may rename the policy types in the template
arguments (`policy_hub<...>::Policy1000` became `policy_selector_from_types<...>`) or add a
parameter. Kernels are paired in rounds, each on the kernels the rounds before left unpaired:

  1. "same name": the same demangled name;
  2. "inline namespace": the same name once the user's --match rules (REGEX=REPLACEMENT, applied in
     order) are applied and versioned inline namespaces and ABI tags are dropped;
  3. "name and parameters": the same kernel name (without namespaces and template arguments: a
     release may move a kernel to another namespace, as CCCL 3.5 did DeviceSegmentedReduceKernel
     from detail::reduce to detail::segmented_reduce) and the same parameter types;
  4. "name": the same kernel name.

Rounds 3 and 4 pair kernels whose full names differ: a report calls them "renamed". Where a round finds several kernels with one
key on each side (a kernel instantiated for int and for float), the most similar names pair first.
"""

import math
import re
from collections import Counter
from dataclasses import dataclass

from ..core.errors import BadInput

# Versioned inline namespaces of CCCL (CUB_300001_SM_900, _V_300500_SM_900, THRUST_300001_SM_900_NS,
# libcu++'s __4) and ABI tags.
_INLINE_NAMESPACES = re.compile(r"\b(?:CUB_\d+(?:_SM_[\d_]+)?|_V_\d+(?:_SM_[\d_]+)?|THRUST_\d+(?:_SM_[\d_]+)?(?:_NS)?|"
                                r"__\d+)::")
_ABI_TAG = re.compile(r"\s*\[abi:[^\]]*\]")
ROUNDS = ("same name", "inline namespace", "name and parameters", "name")
BY_NAME = ("name and parameters", "name")  # rounds whose pairs a report marks "renamed"


def parse_rules(specs) -> list:
    """[(compiled regex, replacement)] of --match REGEX=REPLACEMENT arguments."""
    rules = []
    for spec in specs:
        pattern, sep, replacement = spec.partition("=")
        if not sep or not pattern:
            raise BadInput(f"--match {spec!r}: expected REGEX=REPLACEMENT")
        try:
            rules.append((re.compile(pattern), replacement))
        except re.error as e:
            raise BadInput(f"--match {spec!r}: {e}") from None
    return rules


def canonical(name: str, rules=()) -> str:
    for pattern, replacement in rules:
        name = pattern.sub(replacement, name)
    return _ABI_TAG.sub("", _INLINE_NAMESPACES.sub("", name))


def _closing(text: str, start: int, open_: str, close: str) -> int:
    """The index of the bracket that closes text[start] (an open_), or -1."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == open_:
            depth += 1
        elif text[i] == close:
            depth -= 1
            if depth == 0:
                return i
    return -1


def _without_templates(text: str) -> str:
    out, i = [], 0
    while i < len(text):
        if text[i] == "<" and not text[max(0, i - 8):i].endswith("operator"):
            end = _closing(text, i, "<", ">")
            if end > 0:
                i = end + 1
                continue
        out.append(text[i])
        i += 1
    return "".join(out)


def split(name: str):
    """(qualified name without template arguments, parameter list) of a demangled function name such
    as 'void ns::kernel<int, 4>(int*, int)'; a name that is not a C++ signature is its own name."""
    if not name.endswith(")"):
        return name, ""
    depth, start = 0, -1
    for i in range(len(name) - 1, -1, -1):  # the parameter list's opening parenthesis
        depth += {")": 1, "(": -1}.get(name[i], 0)
        if depth == 0:
            start = i
            break
    if start <= 0:
        return name, ""
    qualified = _without_templates(name[:start]).strip()
    qualified = qualified.rsplit(" ", 1)[-1]  # the return type ('void') and other words before the name
    return qualified, name[start:]


def short_name(name: str) -> str:
    """The kernel's own name: no namespaces, template arguments or parameters ('DeviceScanKernel')."""
    qualified, _ = split(name)
    return qualified.rsplit("::", 1)[-1] or name


def distinguishing(names) -> dict:
    """{name: the words of its template arguments that tell it from the other names with its own kernel
    name ('int, maximum'); '' for a name without such siblings}, for tables that show kernels by their
    own name."""
    groups = {}
    for n in names:
        groups.setdefault(short_name(n), []).append(n)
    out = {}
    for group in groups.values():
        words = {n: re.findall(r"\w+", re.sub(r"\w+::", "", canonical(n).removeprefix("void "))) for n in group}
        counts = {n: Counter(w) for n, w in words.items()}
        least = {w: min(c[w] for c in counts.values()) for w in set().union(*counts.values())}
        out.update({n: ", ".join([w for w in dict.fromkeys(words[n]) if counts[n][w] > least[w]][:4])
                    if len(group) > 1 else "" for n in group})
    return out


def _keys(name: str, rules) -> tuple:
    c = canonical(name, rules)
    qualified, params = split(c)
    own = qualified.rsplit("::", 1)[-1]
    return name, c, (own, params), own


def _similarity(a: str, b: str) -> float:
    """The cosine of the two names' words (identifiers and numbers, counted): what two instantiations of
    one kernel differ in (int against float, 0 against 256) decides, whatever else a release renamed."""
    ca, cb = Counter(re.findall(r"\w+", a)), Counter(re.findall(r"\w+", b))
    dot = sum(n * cb[w] for w, n in ca.items())
    return dot / math.sqrt(sum(n * n for n in ca.values()) * sum(n * n for n in cb.values()) or 1)


@dataclass
class Pair:
    old: str  # demangled name on the old side, or None (added)
    new: str  # on the new side, or None (removed)
    round: str = ""  # which of ROUNDS paired them; "" for an unpaired kernel

    @property
    def by_name(self) -> bool:
        return self.round in BY_NAME


def pair(old_names, new_names, rules=()) -> list:
    """Pairs of old and new names (and the unpaired ones, with None on the other side), in the order
    of the old names, then the added ones in the order of the new."""
    old_keys = {n: _keys(n, rules) for n in old_names}
    new_keys = {n: _keys(n, rules) for n in new_names}
    left_old, left_new = list(dict.fromkeys(old_names)), list(dict.fromkeys(new_names))
    found, how_found, taken = {}, {}, set()
    for level, how in enumerate(ROUNDS):
        groups = {}
        for n in left_old:
            groups.setdefault(old_keys[n][level], ([], []))[0].append(n)
        for n in left_new:
            groups.setdefault(new_keys[n][level], ([], []))[1].append(n)
        for olds, news in groups.values():
            if not olds or not news:
                continue
            if len(olds) == 1 and len(news) == 1:
                candidates = [(1.0, olds[0], news[0])]
            else:
                candidates = sorted(((_similarity(old_keys[a][1], new_keys[b][1]), a, b) for a in olds for b in news),
                                    key=lambda c: -c[0])
            for _, a, b in candidates:
                if a not in found and b not in taken:
                    found[a], how_found[a] = b, how
                    taken.add(b)
        left_old = [n for n in left_old if n not in found]
        left_new = [n for n in left_new if n not in taken]
    return [Pair(n, found.get(n), how_found.get(n, "")) for n in dict.fromkeys(old_names)] + \
        [Pair(None, n) for n in left_new]
