"""The conformance grid as a person reads it: a terminal summary, Markdown, and a self-contained
HTML page in which disagreements stand out. (The JSON, with every command and output, is
grid.to_json.) What changed between toolchains is `ptxw sass-diff`'s comparison of the
probe kernels (sass_diff.compare), shown as sass-diff shows it."""

import html
from collections import defaultdict
from pathlib import Path

from ..core import style, toolchain
from ..sass_diff import report as sass_diff_report
from ..sass_diff.compare import ERROR, OK, UNKNOWN_TARGET, compare
from ..sass_diff.sides import Result, Side
from . import grid as grid_
from .grid import Concern, Verdict

MARK = {Verdict.ACCEPT: "✓", Verdict.REJECT: "✗", Verdict.TARGET_UNKNOWN: "–"}
_GATE = {Verdict.ACCEPT: "✓", Verdict.REJECT: "✗", Verdict.NO_BINDING: "n/a", Verdict.REJECT_LINK_TIME: "✗link",
         Verdict.REJECT_COMPILE_TIME: "✗", Verdict.NO_NVCC: "no nvcc"}


def _ptxas_text(c) -> str:
    if c.ptxas is None:
        return "?"
    if c.ptxas.verdict is Verdict.ACCEPT:
        key = grid_.key_opcodes(c.sass)
        return "✓ " + (" ".join(key) if key else "(no SASS of its own)" if not c.sass else "(ALU only)")
    return MARK.get(c.ptxas.verdict) or "⚠ " + c.ptxas.text


def _gate(step) -> str:
    return "" if step is None else _GATE.get(step.verdict, "⚠")


def _by(grid):
    cells = defaultdict(dict)
    for c in grid.cells:
        cells[(c.toolchain, c.variant)][c.target] = c
    return cells


def _toolchain_line(t) -> str:
    if "error" in t:
        return f"{t['root']}: NOT MEASURED ({t['error']})"
    root, deps = Path(t["root"]), toolchain.deps_dir().resolve()
    shown = root.relative_to(toolchain.REPO) if root.is_relative_to(toolchain.REPO) else \
        Path(".deps", root.relative_to(deps)) if root.is_relative_to(deps) else root  # where `ptxw setup` put it
    what = f"CCCL {t['cccl']}" if t.get("cccl") else "ptxas only: no nvcc, so no gate columns"
    return f"CUDA {t['version']} (PTX ISA {t['ptx_isa']}, {what}) at {shown}"


def summary(grid) -> str:
    lines = [f"ptxw conformance, {grid.date}: {len(grid.variants)} variants x {len(grid.targets)} targets"]
    for t in grid.toolchains:
        lines.append("  " + _toolchain_line(t))
    lines.append(f"  runtime results: {grid.runtime_source}")
    lines.append("")
    head = ("toolchain", "target", "accepted", "ptxw disagrees", "cccl disagrees", "cccl at link time", "unmeasured")
    rows = [head]
    stats = defaultdict(lambda: [0, 0, 0, 0, 0])
    for c in grid.cells:
        s = stats[(c.toolchain, c.target)]
        s[0] += c.ptxas is not None and c.ptxas.verdict is Verdict.ACCEPT
        s[1] += any(p.concern is Concern.PTXW for p in c.problems)
        s[2] += any(p.concern is Concern.CCCL for p in c.problems)
        s[3] += c.cccl is not None and c.cccl.verdict is Verdict.REJECT_LINK_TIME
        s[4] += c.unmeasured
    for (tc, target), s in stats.items():
        rows.append((tc, target, f"{s[0]}/{len(grid.variants)}", *map(str, s[1:])))
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines += ["  ".join(x.ljust(w) if i < 2 else x.rjust(w) for i, (x, w) in enumerate(zip(r, widths))) for r in rows]
    grouped = _findings(grid)
    if grouped:
        lines.append("")
        lines.append("where a gate or a run disagrees:")
        for (tc, problem), per_variant in grouped.items():
            targets = {t for ts in per_variant.values() for t in ts}
            lines.append(f"  {tc}: {problem}: {len(per_variant)} variants on {_ranges(targets, grid.targets)} "
                         f"({', '.join(list(per_variant)[:3])}{', ...' if len(per_variant) > 3 else ''})")
    if grid.errors:
        lines.append("")
        lines.append("could not be measured:")
        lines += [f"  {e}" for e in grid.errors[:40]]
    return "\n".join(lines)


def _gate_changes(grid):
    """(variant, target, {toolchain: text}) where a gate's verdict differs between toolchains that have nvcc."""
    with_nvcc = {t["version"] for t in grid.toolchains if t.get("cccl")}
    if len(with_nvcc) < 2:
        return []
    by = defaultdict(dict)
    for c in grid.cells:
        if c.toolchain in with_nvcc and c.ptxw:
            by[(c.variant, c.target)][c.toolchain] = f"ptxw {_gate(c.ptxw)} · cccl {_gate(c.cccl)}"
    return [(v, t, per_tc) for (v, t), per_tc in by.items() if len(set(per_tc.values())) > 1]


def _as_unit(c) -> dict:
    """A grid cell as sass-diff's result for the unit (variant, target)."""
    if c.ptxas is None or c.ptxas.verdict is Verdict.ERROR:
        return {"status": ERROR, "message": c.ptxas.text if c.ptxas else "not measured"}
    if c.ptxas.verdict is Verdict.TARGET_UNKNOWN:
        return {"status": UNKNOWN_TARGET, "message": c.ptxas.output}
    if c.ptxas.verdict is not Verdict.ACCEPT:
        return {"status": ERROR, "message": c.ptxas.output, "commands": [c.ptxas.command]}
    return {"status": OK, "functions": [c.kernel] if c.kernel else []}


def _version_key(version: str):
    return tuple(int(x) for x in version.split("."))


def toolchain_diffs(grid) -> list:
    """sass-diff's Result for each toolchain and the next newer one, over the probe kernels."""
    versions = sorted((t["version"] for t in grid.toolchains if "error" not in t), key=_version_key)
    out = []
    for old, new in zip(versions, versions[1:]):
        sides = [Side(f"CUDA {v}", "toolchain") for v in (old, new)]
        for c in grid.cells:
            for side, v in zip(sides, (old, new)):
                if c.toolchain == v:
                    side.units[(c.variant, c.target)] = _as_unit(c)
        units = compare(*sides, target_order=grid.targets)
        out.append(Result(*sides, list(grid.variants), list(grid.targets), units, grid.command, grid.date, 0.0))
    return out


def _verdict_mark(c) -> str:
    """A Markdown grid cell: ptxas's verdict, then the gates only where they disagree with it."""
    if c.ptxas is None or c.ptxas.verdict is Verdict.ERROR:
        return "⚠"
    mark = MARK.get(c.ptxas.verdict, "⚠")
    if mark == "–":
        return mark
    accepted = c.ptxas.verdict is Verdict.ACCEPT
    extra = [f"{name} {_gate(step)}" for name, step in (("ptxw", c.ptxw), ("cccl", c.cccl))
             if step and _gate(step) not in ("n/a", "⚠", "no nvcc") and (_gate(step) == "✓") != accepted]
    if extra[:1] == ["ptxw ✗"] and not any(p.concern is Concern.PTXW for p in c.problems):
        extra[0] = "ptxw ✗ (ISA)"  # refuses what ptxas takes beyond the PTX ISA: agreeing (gate.must_compile)
    if c.runtime:
        extra.append(f"GPU {c.runtime.text}")
    text = " ".join([mark, *extra])
    return f"**{text}**" if any(p.concern is not Concern.UNMEASURED for p in c.problems) else text


def _findings(grid) -> dict:
    """{(toolchain, problem): {variant: {targets}}} for the disagreements (not the unmeasured cells)."""
    grouped = defaultdict(lambda: defaultdict(set))
    for c in grid.cells:
        for p in c.problems:
            if p.concern is not Concern.UNMEASURED:
                grouped[(c.toolchain, str(p))][c.variant].add(c.target)
    return grouped


def _ranges(names, order) -> str:
    """'sm_90, sm_90a, sm_100' from a set of targets, in grid order."""
    return ", ".join(sorted(names, key=order.index))


def markdown(grid) -> str:
    out = ["# ptxw conformance report", "",
           f"Generated {grid.date} by `{grid.command}`.", ""]
    for t in grid.toolchains:
        out.append(f"- {_toolchain_line(t)}")
    out.append(f"- Runtime results: {grid.runtime_source}")
    out += ["", "Grid cells: ✓ ptxas accepts the instruction for the target, ✗ it rejects it, – the toolchain "
            "does not know the target, ⚠ not measured. A gate is named only where its verdict is not ptxas's, and in "
            "**bold** where it disagrees: `ptxw ✗` rejects what ptxas accepts, `ptxw ✗ (ISA)` what ptxas accepts "
            "but the PTX ISA gives only to newer targets (which is agreeing), `cccl ✗link` rejects it only at link time "
            "(an undefined `__cuda_ptx_*_is_not_supported_*` stub), `cccl ✓` emits what ptxas rejects. `GPU pass`: "
            "the runtime tests that run the form passed on the GPU named above. The SASS tables list the opcodes "
            "each accepted form adds to an empty kernel; the JSON keeps every command and tool output, the "
            "HTML report shows them per cell.", ""]
    by = _by(grid)
    families = list(dict.fromkeys(c.family for c in grid.cells))
    for t in grid.toolchains:
        if "error" in t:
            continue
        tc = t["version"]
        out += [f"## CUDA {tc}", ""]
        for family in families:
            rows = [(v, by[(tc, v)]) for v in grid.variants if (tc, v) in by and next(iter(by[(tc, v)].values())).family == family]
            if not rows:
                continue
            out += [f"### {family}: accepted where", "", "| variant | " + " | ".join(grid.targets) + " |",
                    "|---|" + "---|" * len(grid.targets)]
            for v, row in rows:
                out.append(f"| `{v}` | " + " | ".join(_verdict_mark(row[x]) if x in row else "" for x in grid.targets) + " |")
            out += ["", f"### {family}: SASS", "", "| variant | opcodes: targets |", "|---|---|"]
            for v, row in rows:
                groups = defaultdict(set)
                for target, c in row.items():
                    if c.ptxas is not None and c.ptxas.verdict is Verdict.ACCEPT:
                        groups[_ptxas_text(c)[2:]].add(target)
                text = "<br>".join(f"{ops.replace('|', chr(92) + '|')}: {_ranges(ts, grid.targets)}" for ops, ts in groups.items())
                out.append(f"| `{v}` | {text or 'accepted nowhere'} |")
            out.append("")
    diffs = toolchain_diffs(grid)
    if diffs:
        out += ["## Between toolchains", "", "Each toolchain against the next newer one, by `ptxw sass-diff` over the probe "
                "kernels ([docs/sass-diff.md](sass-diff.md)): a form whose SASS (normalised) or resources changed, "
                "a form one ptxas accepts and the other rejects, and a target one of them does not know. The same change "
                "on several targets is one row.", ""]
        for result in diffs:
            c = sass_diff_report.counts(result)
            out += [f"### {result.old.label} → {result.new.label}", "",
                    f"{len(result.units)} forms x targets: {c['same']} same, {c['changed'] + c['compiles on one side only']} changed, "
                    f"{c['not comparable']} on a target one of them does not know, "
                    f"{c['compiles on neither side']} rejected by both.", ""]
            out += sass_diff_report.markdown_section(result, unit_name="variant") + [""]
    gates = _gate_changes(grid)
    if gates:
        names = [t["version"] for t in grid.toolchains if t.get("cccl")]
        out += ["### Gates", "", "Where ptxw's or CCCL's gate verdict differs between toolchains with nvcc (cells with "
                "the same difference on several targets are merged).", "",
                "| variant | targets | " + " | ".join(names) + " |", "|---|---|" + "---|" * len(names)]
        merged = defaultdict(set)
        for variant, target, per_tc in gates:
            merged[(variant, tuple(per_tc.get(n, "") for n in names))].add(target)
        for (variant, texts), ts in merged.items():
            out.append(f"| `{variant}` | {_ranges(ts, grid.targets)} | " + " | ".join(x.replace("|", "\\|") for x in texts) + " |")
        out.append("")
    out += ["## Findings", ""]
    grouped = _findings(grid)
    if grouped:
        for (tc, problem), per_variant in grouped.items():
            out.append(f"- CUDA {tc}: {problem}:")
            out += [f"  - `{v}` on {_ranges(ts, grid.targets)}" for v, ts in per_variant.items()]
    else:
        out.append("None: every gate agrees with ptxas on every measured cell.")
    if grid.errors:
        out += ["", "## Not measured", ""] + [f"- {e}" for e in grid.errors]
    return "\n".join(out) + "\n"


def html_page(grid) -> str:
    e = html.escape
    parts = [f"<!doctype html><meta charset=utf-8><title>ptxw conformance {e(grid.date)}</title>"
             f"<style>{style.CSS}</style>",
             f"<h1>ptxw conformance</h1><p>Generated {e(grid.date)} by <code>{e(grid.command)}</code>.</p><ul>"]
    parts += [f"<li>{e(_toolchain_line(t))}</li>" for t in grid.toolchains]
    parts.append(f"<li>Runtime results: {e(grid.runtime_source)}</li></ul>")
    parts.append("<p>Red cells: a gate disagrees with ptxas, or a runtime test failed. Yellow: not measured. "
                 "Click a cell for the commands and outputs behind it.</p>")
    by = _by(grid)
    for t in grid.toolchains:
        if "error" in t:
            continue
        tc = t["version"]
        parts.append(f"<h2>CUDA {e(tc)}</h2><table><tr><th>variant</th>" + "".join(f"<th>{e(x)}</th>" for x in grid.targets) + "</tr>")
        for v in grid.variants:
            row = by.get((tc, v), {})
            parts.append(f"<tr><th><code>{e(v)}</code></th>")
            for target in grid.targets:
                c = row.get(target)
                if c is None:
                    parts.append("<td></td>")
                    continue
                cls = "bad" if c.problems and not c.unmeasured else "err" if c.unmeasured else \
                      "unk" if c.ptxas.verdict is Verdict.TARGET_UNKNOWN else "rej" if c.ptxas.verdict is not Verdict.ACCEPT \
                      else ""
                detail = "".join(
                    f"<b>{name}</b>: {e(s.text)}<pre>{e(s.command)}\n{e(s.output[:1500])}</pre>"
                    for name, s in (("ptxas", c.ptxas), ("ptxw", c.ptxw), ("cccl", c.cccl), ("runtime", c.runtime)) if s)
                text = e(_ptxas_text(c))
                if c.ptxw or c.cccl:
                    text += f"<br>ptxw {e(_gate(c.ptxw))} · cccl {e(_gate(c.cccl))}"
                if c.runtime:
                    text += f"<br>GPU: {e(c.runtime.text)}"
                if c.problems:
                    text += "<br>" + e("; ".join(map(str, c.problems)))
                parts.append(f"<td class='{cls}'>{text}<details><summary>why</summary>{detail}</details></td>")
            parts.append("</tr>")
        parts.append("</table>")
    for result in toolchain_diffs(grid):
        parts.append(f"<h2>{e(result.old.label)} → {e(result.new.label)} (ptxw sass-diff of the probe kernels)</h2>")
        parts.append(sass_diff_report.html_section(result))
    if grid.errors:
        parts.append("<h2>Not measured</h2><ul>" + "".join(f"<li>{e(x)}</li>" for x in grid.errors) + "</ul>")
    return "".join(parts) + "\n"


def write_all(grid, out_dir, markdown_path=None):
    style.write_reports(out_dir, "conformance", {"json": grid_.to_json(grid), "md": markdown(grid),
                                                 "html": html_page(grid)}, markdown_path)
