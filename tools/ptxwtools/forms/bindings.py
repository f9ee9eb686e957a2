"""The inline-PTX bindings of the forms cuda::ptx lacks (Form.binding), generated from each form's PTX
line: include/ptxw/isa/<file>.h, a function per form (two where an operand is optional), each
headed by its PTX line and `PTX ISA NN, SM_XX` as CCCL's generated bindings are."""

import re
import textwrap
from pathlib import Path

ISA_DIR = Path("include/ptxw/isa")
_OPTIONAL = re.compile(r"\{, (\w+)\}")
_COLUMNS = 120  # the column limit of ptxw's headers


def _cpp_name(operand: str) -> str:
    """txCount -> tx_count."""
    return re.sub(r"(?<!^)([A-Z])", r"_\1", operand).lower()


def _lines(ptx: str) -> list:
    """The form's PTX line once per overload: without its optional operand, then with it."""
    m = _OPTIONAL.search(ptx)
    return [ptx] if not m else [_OPTIONAL.sub("", ptx), _OPTIONAL.sub(r", \1", ptx)]


def function(form, line: str, version: str) -> str:
    b = form.binding
    mnemonic, operands = line.rstrip(";").split(" ", 1)
    operands = operands.split(", ")
    params, inputs, rendered = [b.tag] if b.tag else [], [], []
    first = 1 if b.predicate else 0
    for i, operand in enumerate(operands):
        name = operand.strip("[]")
        if operand == "_" or (b.predicate and i == 0):
            rendered.append("p" if b.predicate and i == 0 else operand)
            continue
        at = f"%{first + len(inputs)}"
        rendered.append(f"[{at}]" if operand.startswith("[") else at)
        params.append(f"::cuda::std::uint32_t {_cpp_name(name)}")
        inputs.append(f'"r"({_cpp_name(name)})')
    text = f"{mnemonic} {', '.join(rendered)};"
    head = f"// {line}  // {version}"
    returns = "bool" if b.predicate else "void"
    signature = f"__device__ inline {returns} {b.name}({', '.join(params)})"
    if len(signature) > _COLUMNS:  # as clang-format breaks it
        signature = signature.replace(f"{returns} {b.name}(", f"{returns}\n{b.name}(")
    if not b.predicate:
        call = f'  asm volatile("{text}" : : {", ".join(inputs)} : "memory");'
        if len(call) > _COLUMNS:
            call = "\n".join([f'  asm volatile("{text}"', "               :", f"               : {', '.join(inputs)}",
                              '               : "memory");'])
        return "\n".join([head, signature, "{", call, "}"])
    return "\n".join([
        "// A predicate leaves inline PTX as a 32-bit value. Not volatile: a result unread may go (ptxas drops",
        "// one too); the memory clobber keeps it after the writes it reads.",
        head, signature, "{", "  ::cuda::std::uint32_t p;",
        '  asm("{\\n\\t.reg .pred p;\\n\\t"', f'      "{text}\\n\\t"', '      "selp.b32 %0, 1, 0, p;\\n\\t}"',
        '      : "=r"(p)', f"      : {', '.join(inputs)}", '      : "memory");', "  return p != 0;", "}"])


def headers(forms, files: dict, generated: str, version) -> dict:
    """{path: text} of each binding header: files {name: what it holds}; version(form) its `PTX ISA NN, SM_XX`."""
    out = {}
    for name, about in files.items():
        functions = [function(f, line, version(f)) for f in forms if f.binding and f.binding.file == name
                     for line in _lines(f.ptx)]
        out[ISA_DIR / f"{name}.h"] = "\n".join([
            f"// {generated}.", *("// " + w for w in textwrap.wrap(f"ptxw/isa/{name}.h: {about}", 100)),
            "#pragma once", "",
            "#include <ptxw/isa/qualifiers.h>", "#include <cuda/std/cstdint>", "", "PTXW_NAMESPACE_BEGIN",
            "namespace detail::isa {", "\n\n".join(functions), "} // namespace detail::isa", "PTXW_NAMESPACE_END"]) + "\n"
    return out
