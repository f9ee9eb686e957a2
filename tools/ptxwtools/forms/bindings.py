"""The inline-PTX bindings of the forms cuda::ptx lacks (Form.binding), generated from each form's PTX
line: include/ptxw/isa/<file>.h, a function per form (two where an operand is optional), each
headed by its PTX line and `PTX ISA NN, SM_XX` as CCCL's generated bindings are.

The forms of one binding name that differ in one qualifier alone, their tags that qualifier's
(mbarrier_complete_tx's scope_cta_t and scope_cluster_t), are one family: its function is written
once, as a macro of the qualifier (PTXW_ISA_<NAME>(scope)) that the header expands once per form,
each expansion headed by its form's PTX lines."""

import re
import textwrap
from pathlib import Path

ISA_DIR = Path("include/ptxw/isa")
_OPTIONAL = re.compile(r"\{, (\w+)\}")
_COLUMNS = 120  # the column limit of ptxw's headers
_ESCAPE = 118  # the column of a macro's line-continuing backslashes, as in ptxw/isa/global.h
_PREDICATE = ("// A predicate leaves inline PTX as a 32-bit value. Not volatile: a result unread may go (ptxas drops",
              "// one too); the memory clobber keeps it after the writes it reads.")


def _cpp_name(operand: str) -> str:
    """txCount -> tx_count."""
    return re.sub(r"(?<!^)([A-Z])", r"_\1", operand).lower()


def _lines(ptx: str) -> list:
    """The form's PTX line once per overload: without its optional operand, then with it."""
    m = _OPTIONAL.search(ptx)
    return [ptx] if not m else [_OPTIONAL.sub("", ptx), _OPTIONAL.sub(r", \1", ptx)]


def function(b, line: str, columns: int = _COLUMNS, tag: str = None, mnemonic: str = None) -> str:
    """The function of binding b for one PTX line, formatted to `columns`; tag and mnemonic, where
    given, replace b.tag and the line's instruction (a family's macro gives its qualifier's)."""
    instruction, operands = line.rstrip(";").split(" ", 1)
    mnemonic, tag = mnemonic or instruction, tag or b.tag
    operands = operands.split(", ")
    params, inputs, rendered = [tag] if tag else [], [], []
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
    returns = "bool" if b.predicate else "void"
    signature = f"__device__ inline {returns} {b.name}({', '.join(params)})"
    if len(signature) > columns:  # as clang-format breaks it
        signature = signature.replace(f"{returns} {b.name}(", f"{returns}\n{b.name}(")
    if not b.predicate:
        call = f'  asm volatile("{text}" : : {", ".join(inputs)} : "memory");'
        if len(call) > columns:
            call = "\n".join([f'  asm volatile("{text}"', "               :", f"               : {', '.join(inputs)}",
                              '               : "memory");'])
        return "\n".join([signature, "{", call, "}"])
    return "\n".join([
        signature, "{", "  ::cuda::std::uint32_t p;",
        '  asm("{\\n\\t.reg .pred p;\\n\\t"', f'      "{text}\\n\\t"', '      "selp.b32 %0, 1, 0, p;\\n\\t}"',
        '      : "=r"(p)', f"      : {', '.join(inputs)}", '      : "memory");', "  return p != 0;", "}"])


def _head(form, line: str, version) -> str:
    return f"// {line}  // {version(form)}"


def _family(forms):
    """The qualifier the forms of one binding name differ in, as their tags name it (scope_cta_t: the
    scope cta), each form's value of it, and spelled(value): the family's tag and instruction with that
    value, what the macro's parameter stands for. The forms' PTX lines must differ in it alone."""
    b = forms[0].binding
    ns, _, leaf = b.tag.rpartition("::")
    qualifier = leaf.split("_", 1)[0]
    tag = f"{ns}::{qualifier}_{{}}_t" if ns else f"{qualifier}_{{}}_t"
    values = [f.binding.tag[tag.index("{}"):-2] for f in forms]
    instruction, operands = forms[0].ptx.split(" ", 1)
    words, other = instruction.split("."), forms[1].ptx.split(" ", 1)[0].split(".")
    at = next((i for i, (w, o) in enumerate(zip(words, other)) if w != o), 0)  # the qualifier's word
    stem = words[at][:-len(values[0])]  # `layout::` of layout::v0, nothing of cta

    def spelled(value):
        return tag.format(value), ".".join([*words[:at], stem + value, *words[at + 1:]])
    for f, value in zip(forms, values):
        tag_, instruction_ = spelled(value)
        if (f.binding.tag, f.ptx, f.binding.predicate) != (tag_, f"{instruction_} {operands}", b.predicate):
            raise ValueError(f"{f.ptx}: the forms of binding {b.name} must differ in their .{qualifier} alone, "
                             "the qualifier their tags name")
    return qualifier, values, spelled


def _macro(forms, version) -> str:
    """A family's functions, once, as a macro of the qualifier its forms differ in; an expansion a form,
    headed by its PTX lines."""
    b = forms[0].binding
    qualifier, values, spelled = _family(forms)
    name = f"PTXW_ISA_{b.name.upper()}"
    tag, mnemonic = spelled(f"##{qualifier}##")[0], spelled(f'" #{qualifier} "')[1]
    body = "\n".join(function(b, line, _ESCAPE - 4, tag, mnemonic) for line in _lines(forms[0].ptx))
    lines = [f"#define {name}({qualifier})", *("  " + line for line in body.splitlines())]
    escape = max(_ESCAPE, max(len(line) for line in lines) + 2)  # past a line the body could not break
    about = (f"// {b.name} of the forms below, which differ in their .{qualifier} alone: the macro's parameter, "
             f"in the tag {spelled(f'<{qualifier}>')[0]} and in the PTX.")
    expansions = [text for f, value in zip(forms, values)
                  for text in [*(_head(f, line, version) for line in _lines(f.ptx)), f"{name}({value})"]]
    return "\n".join([*textwrap.wrap(about, 100, subsequent_indent="// "), *(_PREDICATE if b.predicate else ()),
                      *(line.ljust(escape - 1) + "\\" for line in lines[:-1]), lines[-1],
                      *expansions, f"#undef {name}"])


def _plain(form, version) -> str:
    """A form's function, once per overload, headed by its PTX line."""
    b = form.binding
    return "\n\n".join("\n".join([*(_PREDICATE if b.predicate else ()), _head(form, line, version),
                                  function(b, line)]) for line in _lines(form.ptx))


def headers(forms, files: dict, generated: str, version) -> dict:
    """{path: text} of each binding header: files {name: what it holds}; version(form) its `PTX ISA NN, SM_XX`."""
    out = {}
    for name, about in files.items():
        families = {}
        for f in forms:
            if f.binding and f.binding.file == name:
                families.setdefault(f.binding.name, []).append(f)
        functions = [_plain(fs[0], version) if len(fs) == 1 else _macro(fs, version) for fs in families.values()]
        out[ISA_DIR / f"{name}.h"] = "\n".join([
            f"// {generated}.", *("// " + w for w in textwrap.wrap(f"ptxw/isa/{name}.h: {about}", 100)),
            "#pragma once", "",
            "#include <ptxw/isa/qualifiers.h>", "#include <cuda/std/cstdint>", "", "PTXW_NAMESPACE_BEGIN",
            "namespace detail::isa {", "\n\n".join(functions), "} // namespace detail::isa", "PTXW_NAMESPACE_END"]) + "\n"
    return out
