"""`ptxw gate`: ptxw's R9 gate of every wrapped form (variants.py) against ptxas, per target, in two
compiles -- the codegen suite's gate/ test on every target it runs.

    ptxw gate --targets sm_90a

A form must compile for a target where ptxas accepts its one-instruction probe (probes.py) and the
PTX ISA gives the form to the target (Variant.sm, the form's row of forms/table.py); elsewhere it must
be an R9 error -- also where ptxas accepts more than the ISA promises (ptxas 13.0 takes
mbarrier.arrive.release.cta on sm_80), which the summary names. Then
  compile   one translation unit with a kernel per form that must compile, each running ptxw's
            statement of the form, compiles to PTX without a diagnostic, each kernel's PTX holds
            its instruction, and ptxas assembles the PTX;
  refuse    one translation unit with a kernel per form that must not compile fails with `ptxw: R9`
            static assertions only, each naming (in its instantiation notes) a line of one kernel,
            and every kernel named: the R9 diagnostics of the whole table in one compile. A
            static_assert fires once per instantiation, so the kernels that share one with an earlier
            kernel (the same backend's check) compile again, together while that leaves fewer silent,
            then each alone.
Exit status: 0 the gate is as expected on every form; 1 it is not (each problem printed); 2 bad
input; 77 ptxas knows none of the targets.
"""

import argparse
import re
import tempfile
from pathlib import Path

from . import compile as compile_, options, probes, targets, toolchain, variants
from .errors import ExitCode

_ERROR = re.compile(r"[^\n]*?(?:\((\d+)\))?: error: ([^\n]*)")
_R9 = 'static assertion failed with "ptxw: R9 '
_AT_LINE = re.compile(r"at line (\d+) of \S*statements\.cu")


def compile_statements(tc: toolchain.Toolchain, target: str, sources: dict, tmp: Path, *mode):
    """nvcc (-ptx unless `mode`) of one translation unit with a kernel (variants.KERNEL) per {name:
    statement}. Returns (returncode, command, output, PTX text, errors), errors being one
    (message, kernel names its location and instantiation notes point at) per error nvcc printed."""
    text, lines = variants.PRELUDE, {}
    for name, statement in sources.items():
        first = text.count("\n") + 1
        text += variants.KERNEL.format(name=name, statement=statement)
        lines[name] = (first, text.count("\n"))
    src, out = tmp / "statements.cu", tmp / "statements.ptx"
    src.write_text(text)
    cmd = [*compile_.nvcc_command(tc, target, src, [compile_.INCLUDE], (), *(mode or ("-ptx",))), "-o", out]
    run = toolchain.run(cmd)
    output = (run.stdout + run.stderr).strip()
    found = []
    for block in re.split(r"\n(?=\S[^\n]*: error: )", output):
        m = _ERROR.match(block)
        if not m:
            continue
        at = [int(n) for n in _AT_LINE.findall(block)]
        if m.group(1) and "statements.cu(" in block.split(": error: ")[0]:
            at.append(int(m.group(1)))
        found.append((m.group(2), {n for n, (a, b) in lines.items() if any(a <= line <= b for line in at)}))
    ptx = out.read_text() if run.returncode == 0 and out.exists() else ""
    return run.returncode, " ".join(map(str, cmd)), output, ptx, found


def kernel_ptx(ptx: str, name: str) -> str:
    start = ptx.find(f".entry {name}(")
    if start < 0:
        return ""
    end = ptx.find(".entry ", start + 1)
    return ptx[start:] if end < 0 else ptx[start:end]


def same_form(ptx: str) -> str:
    """.shared and .shared::cta are one state space (nvcc writes the short form for mbarrier.init)."""
    return ptx.replace(".shared::cta", ".shared")


def must_compile(v: variants.Variant, target: str, accepted_by_ptxas: bool) -> bool:
    """What "ptxw's gate agrees" means, for `ptxw gate` and the conformance grid alike: a form compiles
    where ptxas accepts its instruction and the PTX ISA gives the form to the target (Variant.sm, the
    form's row of forms/table.py); elsewhere it is an R9 error. Refusing what ptxas takes beyond the ISA
    (ptxas 13.0 assembles mbarrier.arrive.release.cta for sm_80) is agreeing."""
    return accepted_by_ptxas and targets.parse(target).sm >= v.sm


def check(tc: toolchain.Toolchain, target: str, selected=variants.VARIANTS) -> tuple:
    """Ids of the forms that compile, that are R9 errors though ptxas accepts them, that are R9 errors as
    ptxas rejects them; and the problems found, in words."""
    by_ptxas = [v for v in selected if probes.assemble(tc, target, v.ptx).accepted]
    accepted = [v for v in by_ptxas if must_compile(v, target, True)]
    rejected = [v for v in selected if v not in accepted]
    name = {v.id: f"v_{probes.kernel_name(v.id)}" for v in selected}
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        if accepted:
            rc, cmd, output, ptx, found = compile_statements(tc, target, {name[v.id]: v.ptxw for v in accepted}, tmp)
            if rc != 0 or output:
                blamed = {n for _, kernels in found for n in kernels}
                ids = [v.id for v in accepted if name[v.id] in blamed] or ["(no kernel named)"]
                problems.append(f"{target}: ptxas accepts, ptxw does not compile without a word: {', '.join(ids)}\n"
                                f"  {cmd}\n{_indent(output)}")
            else:
                problems += [f"{target} {v.id}: compiled, but its PTX lacks {v.mnemonic}" for v in accepted
                             if same_form(v.mnemonic) not in same_form(kernel_ptx(ptx, name[v.id]))]
                assembled = toolchain.run(tc.ptxas_command(target, tmp / "statements.ptx", tmp / "statements.cubin"))
                if assembled.returncode != 0:
                    problems.append(f"{target}: ptxas rejects the PTX ptxw emits for the forms it accepts\n"
                                    f"{_indent(assembled.stdout + assembled.stderr)}")
        # A static_assert fires once per instantiation: a form that shares one with an earlier kernel
        # (the same backend's check) is silent in the batch.
        def refused(batch):
            rc, cmd, output, _, found = compile_statements(tc, target, {name[v.id]: v.ptxw for v in batch}, tmp)
            silent = []
            for v in batch:
                mine = [msg for msg, kernels in found if kernels == {name[v.id]}]
                if not mine and len(batch) > 1:
                    silent.append(v)
                elif not mine or not all(m.startswith(_R9) for m in mine):
                    problems.append(f"{target} {v.id}: must fail with `ptxw: R9` errors at its line, and gave "
                                    f"{'; '.join(mine) or 'none'}\n  {cmd}")
            stray = [msg for msg, kernels in found if len(kernels) != 1]
            if rc == 0 or stray:
                problems.append(f"{target}: {'it compiled' if rc == 0 else 'errors at no one form'}: "
                                f"{'; '.join(stray)}\n  {cmd}")
            return silent

        # The silent ones compile again together, as often as that leaves fewer silent (each time the first
        # kernel of a shared instantiation speaks), and those still silent then alone: a round where none
        # spoke says nothing the compiles alone do not say by form.
        silent = refused(rejected) if rejected else []
        while len(silent) > 1:
            said = len(problems)
            again = refused(silent)
            if len(again) == len(silent):
                del problems[said:]
                break
            silent = again
        for v in silent:
            refused([v])
    return [v.id for v in accepted], [v.id for v in by_ptxas if v not in accepted], \
        [v.id for v in selected if v not in by_ptxas], problems


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.strip().splitlines()[:40])


def run(a) -> ExitCode:
    names = options.targets_of(a)
    for t in names:
        targets.parse(t)
    tc = toolchain.find_toolchain(a.cuda_root)
    known = [t for t in names if t in tc.targets]
    for t in names:
        if t not in known:
            print(f"{t}: unsupported (ptxas {tc.version} does not know it)")
    problems = []
    for t in known:
        accepted, stricter, rejected, found = check(tc, t)
        print(f"{t}: {len(accepted)} forms compile, {len(rejected)} are R9 errors as ptxas rejects them"
              + (f", {len(stricter)} are R9 errors where ptxas accepts them but the PTX ISA gives a newer target "
                 f"({', '.join(stricter)})" if stricter else "")
              + (": ptxw's gate as expected on every form" if not found else f": {len(found)} problems"))
        problems += found
    for p in problems:
        print("  " + p)
    if problems:
        return ExitCode.FAILED
    return ExitCode.OK if known else ExitCode.SKIPPED


def add_parser(sub):
    p = sub.add_parser("gate", help="ptxw's R9 gate of every wrapped form against ptxas, per target",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    options.add_targets(p, required=True)
    options.add_cuda_root(p)
    p.set_defaults(run=run)
