"""What a cubin says about itself besides its SASS: which ptxas made it with which options (the ELF
note .note.nv.tkinfo, the record `nvdisasm --emit-json` prints), and what each function uses
(`cuobjdump -res-usage`: registers, stack, shared and local memory; ptxas -v: spill bytes).

The note is read straight from the ELF file: nvdisasm --emit-json takes about 0.7 s a cubin, which
over a suite of ~1500 cubins would cost more than the compiles it describes."""

import re
import struct

_RES_FUNCTION = re.compile(r"^\s*Function\s+(\S+?):?\s*$")
_RES_FIELD = re.compile(r"([A-Z]+(?:\[\d+\])?):(\d+)")
_PTXAS_FUNCTION = re.compile(r"Function properties for (\S+)")
_PTXAS_SPILLS = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")

# The resources a diff reports, as cuobjdump names them, what ptxas -v adds, and the launch bound
# (THREADS, from the PTX; compile.py).
RESOURCES = ("REG", "SHARED", "STACK", "LOCAL", "SPILL_STORES", "SPILL_LOADS", "THREADS")


def _sections(data: bytes):
    """{name: bytes} of a 64-bit little-endian ELF file (what ptxas writes)."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("not a 64-bit little-endian ELF file")
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names_at = headers[shstrndx][4]

    def name(offset):
        start = names_at + offset
        return data[start:data.index(b"\0", start)].decode()

    return {name(h[0]): data[h[4]:h[4] + h[5]] for h in headers if h[1] != 8}  # 8: SHT_NOBITS


def provenance(data: bytes) -> dict:
    """The tool, version and options of .note.nv.tkinfo, under nvdisasm --emit-json's key names;
    {} when the cubin has no such note (older ptxas)."""
    note = _sections(data).get(".note.nv.tkinfo")
    if not note:
        return {}
    namesz, descsz, _ = struct.unpack_from("<III", note, 0)
    desc = note[12 + (namesz + 3) // 4 * 4:][:descsz]
    # desc: version, then offsets of five strings into the string block that follows them
    _, *offsets = struct.unpack_from("<6I", desc, 0)
    strings = desc[24:]

    def text(offset):
        return strings[offset:strings.index(b"\0", offset)].decode(errors="replace").strip()

    keys = ("tki_objFname", "tki_toolName", "tki_toolVersion", "tki_toolBranch", "tki_toolOptions")
    return {k: text(o) for k, o in zip(keys, offsets) if k != "tki_objFname"}


def resources(res_usage: str, ptxas_verbose: str = "") -> dict:
    """{function: {"REG": n, "SHARED": n, ...}} from a `cuobjdump -res-usage` listing (it may be
    interleaved with the -sass listing of the same call) and, where given, ptxas -v's spills."""
    out, current = {}, None
    for line in res_usage.splitlines():
        m = _RES_FUNCTION.match(line)
        if m and "Resource" not in line:
            current = out.setdefault(m.group(1), {})
            continue
        if current is not None and line.strip().startswith("REG:"):
            current.update({k: int(v) for k, v in _RES_FIELD.findall(line) if k in RESOURCES})
            current = None
    function = None
    for line in ptxas_verbose.splitlines():
        m = _PTXAS_FUNCTION.search(line)
        if m:
            function = m.group(1)
            continue
        m = _PTXAS_SPILLS.search(line)
        if m and function:
            out.setdefault(function, {}).update(SPILL_STORES=int(m.group(2)), SPILL_LOADS=int(m.group(3)))
            function = None
    return out
