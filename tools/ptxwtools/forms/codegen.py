"""Which codegen tests check each form of the table, and the skeleton test of a form none checks.

A codegen test checks a form where its text names the form's instruction with its qualifiers (the
first word of each probe's PTX): literally, or with the [[SEM]], [[SCOPE]], ... of its checks replaced
by the values one of its %ptxw-compile RUN lines gives them (-DSEM=relaxed), as the files that
compile one operation once per qualifier set write them (tests/codegen/README.md).
"""

import re
import shlex
from pathlib import Path

from ..core import gate, probes, variants
from . import table

CODEGEN = Path("tests/codegen")
_COMPILE = re.compile(r"//\s*RUN:\s*%ptxw-compile\s+(.*)$", re.M)


def _texts(text: str) -> list:
    """The test's text, and that text once per %ptxw-compile line with its -D values substituted."""
    out = [text]
    for line in _COMPILE.findall(text):
        defines = dict(d[2:].split("=", 1) for d in shlex.split(line) if d.startswith("-D") and "=" in d)
        if defines:
            out.append(re.sub(r"\[\[(\w+)\]\]", lambda m: defines.get(m.group(1), m.group(0)), text))
    return [gate.same_form(t) for t in out]


def tests(repo: Path) -> dict:
    """{path: its texts} of the codegen tests that compile wrappers (not the diagnostics, not Inputs/)."""
    root = repo / CODEGEN
    return {p.relative_to(repo): _texts(p.read_text()) for p in sorted(root.rglob("*.cu"))
            if not {"diagnostics", "Inputs"} & set(p.relative_to(root).parts)}


def checking(form, found: dict) -> list:
    """The tests (of `tests`) that check every probe of the form."""
    words = [gate.same_form(p.ptx.split()[0]) for p in form.probes]
    return [path for path, texts in found.items() if all(any(w in t for t in texts) for w in words)]


def skeleton_path(form) -> Path:
    return CODEGEN / form.family / f"{probes.kernel_name(form.probes[0].id)}.cu"


def skeleton(form) -> str:
    """A test of the form's first probe: ptxw's statement, CCCL's as its ref_ twin where CCCL has a
    binding, and checks for `tools/ptxw update-checks` to write. Its REQUIRES is the lit feature of a
    form of the same family, first sm and PTX ISA, if one is."""
    p = form.probes[0]
    name = probes.kernel_name(p.id)
    form_of = {q.id: f for f in table.FORMS for q in f.probes}
    same = [f for f, v in probes.FEATURES.items()
            if (form_of[v].family, form_of[v].sm, form_of[v].isa) == (form.family, form.sm, form.isa)]
    lines = [f"// {form.ptx}  // PTX ISA {form.isa // 10}, SM_{form.sm}",
             "// Written by tools/ptxw generate-forms from the form's row in tools/ptxwtools/forms/table.py, for its",
             "// author to complete as docs/adding-a-form.md says; the checks are tools/ptxw update-checks's.",
             *([f"// REQUIRES: {same[0]}"] if same else []),
             "// RUN: %ptxw-compile %s -o %t",
             "// RUN: %ptx-generated=GEN %s --input-file=%t.ptx",
             "// RUN: %sass-generated=GEN %s --input-file=%t.sass",
             *(["// RUN: %ptxw-sass-equal %t.sass"] if p.cccl else []),
             "", variants.PRELUDE.rstrip("\n"), "",
             variants.KERNEL.format(name=f"ptxw_{name}", statement=p.ptxw).rstrip("\n")]
    if p.cccl:
        lines += ["", variants.KERNEL.format(name=f"ref_{name}", statement=p.cccl).rstrip("\n")]
    return "\n".join(lines) + "\n"


def write_skeletons(repo: Path, forms) -> list:
    """Write the skeleton of each form no codegen test checks, where none is yet; the paths written."""
    found = tests(repo)
    written = []
    for form in forms:
        path = skeleton_path(form)
        if not checking(form, found) and not (repo / path).exists():
            (repo / path).parent.mkdir(parents=True, exist_ok=True)
            (repo / path).write_text(skeleton(form))
            written.append(path)
    return written
