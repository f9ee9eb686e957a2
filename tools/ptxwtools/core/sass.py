"""SASS listings: parse cuobjdump -sass output, write the canonical listing tests check, and
normalise instruction sequences for the zero-overhead comparison.

Canonical listing (what FileCheck sees in a .sass file):

    Function : ptxw_arrive
      /*0000*/ LDC R1, c[0x0][0x28] ;
      ...

Functions appear in PTX definition order (cuobjdump prints them in reverse), instruction encodings
are dropped and so is the padding ptxas puts after the last instruction (a branch to itself and
NOPs), which carries no meaning and differs in length between functions.

normalise() is what two listings are compared by (the zero-overhead check, `ptxw sass-diff`): no
alignment NOPs, every code address a label, registers numbered in order of first use.
"""

import collections
import difflib
import functools
import math
import re
import shutil
import subprocess
from dataclasses import dataclass, field

_FUNCTION = re.compile(r"^\s*Function\s*:\s*(\S+)\s*$")
_INSTR = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;?\s*(?:/\*\s*0x[0-9a-f]+\s*\*/)?\s*$")
_PTX_FUNC = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+|\.extern\s+)*\.(?:entry|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)")
_LISTING_LINE = re.compile(r"^/\*([0-9a-f]+)\*/ (.*)$")
# A SASS register operand: its file (group 1) and number (group 2).
REGISTER = re.compile(r"\b(UR|R|UP|P|B)(\d+)\b")
_BRANCH_SELF = re.compile(r"^BRA\s+(0x[0-9a-f]+)$")
_PREDICATE = re.compile(r"^@!?U?P(?:\d+|T|%\d+)\s+")  # normalise() renames P0 to P%0
# Opcodes whose last hex operand is a code address in the function: branches and jumps (BRA.DIV too),
# a relative call, the reconvergence point of BSSY (and of the older SSY/PBK/PCNT), a return
# address (LEPC) and the point where WARPSYNC.COLLECTIVE's warp reconverges. Not CALL.ABS: its
# operand is another function, filled in by the linker.
_CODE_ADDRESS_OPS = ("BRA", "BRX", "JMP", "JMX", "CALL", "BSSY", "LEPC", "SSY", "PBK", "PCNT", "WARPSYNC")
_CODE_ADDRESS = re.compile(r"(?<![-+\w.])(0x[0-9a-f]+)(\s*)$")
_LABEL = re.compile(r"^\.L\d+:$")


@dataclass
class Instruction:
    offset: int
    text: str  # e.g. "@!P0 BRA 0x70" -- whitespace collapsed, no trailing ';'


@dataclass
class Function:
    name: str
    instructions: list = field(default_factory=list)


class SassError(ValueError):
    pass


def parse_cuobjdump(text: str) -> list:
    """Functions of a cuobjdump -sass listing, in the order cuobjdump prints them."""
    functions = []
    current = None
    for line in text.splitlines():
        m = _FUNCTION.match(line)
        if m:
            current = Function(m.group(1))
            functions.append(current)
            continue
        m = _INSTR.match(line)
        if m and current is not None:
            body = " ".join(m.group(2).split()).rstrip(" ;")
            current.instructions.append(Instruction(int(m.group(1), 16), body))
    for f in functions:
        _strip_padding(f)
    return functions


def _strip_padding(f: Function) -> None:
    ins = f.instructions
    while ins and ins[-1].text == "NOP":
        ins.pop()
    if ins:
        m = _BRANCH_SELF.match(ins[-1].text)
        if m and int(m.group(1), 16) == ins[-1].offset:
            ins.pop()


def ptx_function_order(ptx: str) -> list:
    """Names of the .entry/.func definitions of a PTX module, in order."""
    return [m.group(1) for m in map(_PTX_FUNC.match, ptx.splitlines()) if m]


def launch_bounds(ptx: str) -> dict:
    """{kernel: threads per block} of the .entry definitions with a .maxntid or .reqntid directive."""
    out, current = {}, None
    for line in ptx.splitlines():
        m = _PTX_FUNC.match(line)
        if m:
            current = m.group(1)
            continue
        words = line.split()
        if current and words and words[0] in (".maxntid", ".reqntid"):
            out[current] = math.prod(int(w) for w in " ".join(words[1:]).replace(",", " ").split())
        elif words[:1] == ["{"]:
            current = None
    return out


def order_like_ptx(functions: list, ptx: str) -> list:
    rank = {name: i for i, name in enumerate(ptx_function_order(ptx))}
    return sorted(functions, key=lambda f: rank.get(f.name, len(rank)))


def format_listing(functions: list, header: str = "") -> str:
    out = [f"// {header}"] if header else []
    for f in functions:
        out.append(f"Function : {f.name}")
        out.extend(f"  /*{i.offset:04x}*/ {i.text} ;" for i in f.instructions)
    return "\n".join(out) + "\n"


def listing_lines(f: Function) -> list:
    """The instructions of one function as canonical listing lines ('/*0040*/ BRA 0x40')."""
    return [f"/*{i.offset:04x}*/ {i.text}" for i in f.instructions]


def from_listing_lines(name: str, lines) -> Function:
    """The inverse of listing_lines."""
    f = Function(name)
    for line in lines:
        m = _LISTING_LINE.match(line)
        if not m:
            raise SassError(f"malformed listing line: {line!r}")
        f.instructions.append(Instruction(int(m.group(1), 16), m.group(2)))
    return f


def parse_listing(text: str) -> list:
    """Read back a canonical listing written by format_listing."""
    functions = []
    for line in text.splitlines():
        if line.startswith("Function : "):
            functions.append(Function(line[len("Function : "):].strip()))
        elif line.startswith("  /*") and functions:
            functions[-1].instructions += from_listing_lines("", [line.strip().removesuffix(" ;")]).instructions
    return functions


def _symmetric_lut(lut: int) -> bool:
    """Whether a LOP3 truth table (bit a*4 + b*2 + c) ignores the order of its inputs."""
    return all(((lut >> i) & 1) == ((lut >> j) & 1) for i in range(8) for j in range(8)
               if bin(i).count("1") == bin(j).count("1"))


def _sort_symmetric_sources(text: str) -> str:
    """LOP3.LUT with a symmetric table (OR, AND, XOR, majority of three): its three sources in a
    fixed order, since the allocator's order of them carries no meaning."""
    if not text.startswith("LOP3.LUT "):
        return text
    ops = [o.strip() for o in text[len("LOP3.LUT "):].split(",")]
    if len(ops) < 5 or not re.fullmatch(r"0x[0-9a-f]+", ops[-2]) or not _symmetric_lut(int(ops[-2], 16)):
        return text
    return "LOP3.LUT " + ", ".join(ops[:-5] + sorted(ops[-5:-2]) + ops[-2:])


def opcode(text: str) -> str:
    """'SYNCS.ARRIVE.TRANS64.A1T0' of '@!P0 SYNCS.ARRIVE.TRANS64.A1T0 RZ, [UR5], RZ'."""
    return _PREDICATE.sub("", text).split(" ", 1)[0]


def _has_code_address(op: str) -> bool:
    base = op.split(".")[0]
    if base not in _CODE_ADDRESS_OPS or (base == "CALL" and ".ABS" in op):
        return False
    return base != "WARPSYNC" or ".COLLECTIVE" in op  # WARPSYNC 0xffffffff: a mask


def is_label(line: str) -> bool:
    """Whether a line of normalise()'s output is a label ('.L3:'), not an instruction."""
    return bool(_LABEL.match(line))


def _labelled(instructions: list) -> list:
    """Texts with unpredicated NOPs dropped and every code address a label: '.L<n>' in the operand
    and a line '.L<n>:' before the instruction it names, labels numbered in the order of their
    place in the code. Where ptxas put the code (an alignment NOP more, a block moved) then changes
    nothing; which instruction a branch, BSSY or WARPSYNC.COLLECTIVE names still does."""
    kept = [i for i in instructions if i.text != "NOP"]
    offsets = [i.offset for i in kept]
    index = {o: n for n, o in enumerate(offsets)}

    def at(address):  # the first kept instruction at or after an address (NOPs are skipped)
        return index[address] if address in index else next((n for n, o in enumerate(offsets) if o >= address), len(kept))

    targets = {}  # the instructions some address names, in the order found
    texts = []
    for i in kept:
        m = _CODE_ADDRESS.search(i.text) if _has_code_address(opcode(i.text)) else None
        texts.append((i.text, m, at(int(m.group(1), 16)) if m else None))
        if m:
            targets[texts[-1][2]] = None
    names = {n: f".L{k}" for k, n in enumerate(sorted(targets))}
    out = []
    for n, (text, m, target) in enumerate(texts):
        if n in names:
            out.append(names[n] + ":")
        out.append(text[:m.start(1)] + names[target] + text[m.end(1):] if m else text)
    if len(kept) in names:  # an address past the last instruction
        out.append(names[len(kept)] + ":")
    return out


def normalise(instructions: list) -> list:
    """Instruction texts with alignment NOPs dropped, code addresses made labels (_labelled), register
    numbers renamed in order of first use, per register file (R, UR, P, UP, B), reuse flags dropped
    and the sources of symmetric LOP3s ordered. Two functions normalise equal when they run the same
    instructions on the same data flow, whatever registers the allocator picked and wherever the
    code sits."""
    names = {}

    def rename(m):
        key = (m.group(1), m.group(2))
        if key not in names:
            names[key] = sum(1 for k in names if k[0] == m.group(1))
        return f"{m.group(1)}%{names[key]}"

    return [_sort_symmetric_sources(REGISTER.sub(rename, text.replace(".reuse", "")))
            for text in _labelled(instructions)]


def demangle(names) -> dict:
    """{mangled: demangled} for the C++ names among names (c++filt; names it cannot read stay)."""
    mangled = sorted({n for n in names if n.startswith("_Z")})
    tool = shutil.which("c++filt") or shutil.which("cu++filt")
    if not mangled or not tool:
        return {n: n for n in names}
    out = subprocess.run([tool], input="\n".join(mangled), capture_output=True, text=True).stdout.splitlines()
    table = dict(zip(mangled, out)) if len(out) == len(mangled) else {}
    return {n: table.get(n, n) for n in names}


# Instruction classes of a diff's opcode counts: the first prefix that matches the opcode names it.
_CLASSES = (
    ("nop", ("NOP",)),
    ("async copy/CLC", ("UBLKCP", "UBLKRED", "UBLKPF", "UTMALDG", "UTMASTG", "UTMAPF", "UTMACCTL", "UTMAREDG",
                        "UGETNEXTWORKID", "LDGSTS", "LDGDEPBAR")),
    ("sync/fence", ("SYNCS", "MEMBAR", "FENCE", "ERRBAR", "CGAERRBAR", "UCGABAR", "BAR", "DEPBAR", "CCTL", "WARPSYNC",
                    "NANOSLEEP")),
    ("control", ("BRA", "BRX", "JMP", "JMX", "CALL", "RET", "EXIT", "BSSY", "BSYNC", "BREAK", "BMOV", "LEPC", "KILL",
                 "YIELD", "BPT")),
    ("tensor", ("HMMA", "IMMA", "DMMA", "HGMMA", "IGMMA", "QGMMA", "UTC")),
    ("memory", ("LDS", "LDG", "LDL", "LDSM", "LD", "STS", "STG", "STL", "ST", "ATOM", "RED", "SULD", "SUST", "TEX")),
    ("constant", ("LDC", "ULDC", "LDCU")),
    ("warp", ("VOTE", "SHFL", "MATCH", "ELECT", "REDUX", "UVOTE")),
    ("float", ("F", "H", "D", "MUFU", "I2F", "I2FP")),
    ("uniform ALU", ("U", "S2UR", "R2UR")),
)


@functools.lru_cache(maxsize=None)
def opcode_class(op: str) -> str:
    base = op.split(".")[0]
    for name, prefixes in _CLASSES:
        if any(base.startswith(p) for p in prefixes):
            return name
    return "integer/move"


@dataclass
class Mismatch:
    wrapper: str
    reference: str
    diff: str


# What no_more() holds equal between a wrapper and its reference: the protocol's instructions and
# every memory access (an LDL/STL more is state that left the registers).
_NO_MORE_CLASSES = ("async copy/CLC", "sync/fence", "memory", "warp")


def no_more(a: list, b: list):
    """None if normalised SASS `a` has the same synchronisation, async-copy, warp and memory
    instructions as `b` (as multisets of opcodes) and no more instructions in all; else why not.
    For wrappers whose twin is the same protocol written by hand, where ptxas allocates registers
    (uniform or not) and schedules differently for reasons of its own."""
    def counts(lines):
        ops = [opcode(t) for t in lines if not is_label(t)]
        kept = collections.Counter(o for o in ops if opcode_class(o) in _NO_MORE_CLASSES)
        return len(ops), kept
    na, ca = counts(a)
    nb, cb = counts(b)
    reasons = []
    if ca != cb:
        more, fewer = ca - cb, cb - ca
        reasons.append(f"protocol/memory opcodes differ: more {dict(more)}, fewer {dict(fewer)}")
    if na > nb:
        reasons.append(f"{na} instructions against the reference's {nb}")
    return "; ".join(reasons) or None


def compare_pairs(functions: list, wrapper_prefix="ptxw_", reference_prefix="ref_", at_most=False):
    """Pair every <wrapper_prefix>X with <reference_prefix>X and compare their normalised SASS:
    equal, or with at_most the weaker no_more(). Returns (pairs compared, mismatches). Raises
    SassError when there is nothing to compare or a wrapper kernel has no reference: zero overhead
    is claimed per kernel, never by default."""
    by_name = {f.name: f for f in functions}
    wrappers = [f for f in functions if f.name.startswith(wrapper_prefix)]
    if not wrappers:
        raise SassError(f"no '{wrapper_prefix}*' function in the listing")
    mismatches = []
    for w in wrappers:
        ref_name = reference_prefix + w.name[len(wrapper_prefix):]
        r = by_name.get(ref_name)
        if r is None:
            raise SassError(f"'{w.name}' has no reference function '{ref_name}'")
        a, b = normalise(w.instructions), normalise(r.instructions)
        if at_most and a != b:
            why = no_more(a, b)
            if why:
                mismatches.append(Mismatch(w.name, ref_name, why))
        elif a != b:
            diff = "\n".join(difflib.unified_diff(b, a, ref_name, w.name, lineterm=""))
            mismatches.append(Mismatch(w.name, ref_name, diff))
    return len(wrappers), mismatches
