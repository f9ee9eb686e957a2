"""The conformance grid as a person reads it: a terminal summary, Markdown, and a self-contained
HTML page in which disagreements stand out. (The JSON, with every command and output, is
conformance.to_json.)"""

import html
from collections import defaultdict

from . import conformance

MARK = {"accept": "✓", "reject": "✗", "target unknown to this ptxas": "–"}


def _ptxas_text(c) -> str:
    if c.ptxas is None:
        return "?"
    if c.ptxas.verdict == "accept":
        key = conformance.key_opcodes(c.sass)
        return "✓ " + (" ".join(key) if key else "(no SASS of its own)" if not c.sass else "(ALU only)")
    if c.ptxas.verdict == "reject":
        return "✗"
    if c.ptxas.verdict.startswith("target unknown"):
        return "–"
    return "⚠ " + c.ptxas.verdict


def _gate(step) -> str:
    if step is None:
        return ""
    v = step.verdict
    return {"accept": "✓", "reject": "✗", "no binding": "n/a", "reject (link time)": "✗link",
            "reject (compile time)": "✗"}.get(v, "⚠")


def _by(grid):
    cells = defaultdict(dict)
    for c in grid.cells:
        cells[(c.toolchain, c.variant)][c.target] = c
    return cells


def _toolchain_line(t) -> str:
    if "error" in t:
        return f"{t['root']}: NOT MEASURED ({t['error']})"
    return f"CUDA {t['version']} (PTX ISA {t['ptx_isa']}, CCCL {t['cccl']}) at {t['root']}"


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
        s[0] += c.ptxas is not None and c.ptxas.verdict == "accept"
        s[1] += any(p.startswith("ptxw") for p in c.problems)
        s[2] += any(p.startswith("cccl") for p in c.problems)
        s[3] += c.cccl is not None and c.cccl.verdict == "reject (link time)"
        s[4] += c.unmeasured
    for (tc, target), s in stats.items():
        rows.append((tc, target, f"{s[0]}/{len(grid.variants)}", *map(str, s[1:])))
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines += ["  ".join(x.ljust(w) if i < 2 else x.rjust(w) for i, (x, w) in enumerate(zip(r, widths))) for r in rows]
    findings = [(c, [p for p in c.problems if not p.startswith("unmeasured")]) for c in grid.cells]
    findings = [(c, ps) for c, ps in findings if ps]
    if findings:
        lines.append("")
        lines.append(f"{len(findings)} cells where a gate or a run disagrees:")
        for c, ps in findings[:60]:
            lines.append(f"  {c.toolchain} {c.target} {c.variant}: {'; '.join(ps)}")
        if len(findings) > 60:
            lines.append(f"  ... and {len(findings) - 60} more (see the JSON or HTML report)")
    if grid.errors:
        lines.append("")
        lines.append("could not be measured:")
        lines += [f"  {e}" for e in grid.errors[:40]]
    return "\n".join(lines)


def _changes(grid):
    """(variant, target) pairs whose acceptance or SASS differs between toolchains."""
    if len({c.toolchain for c in grid.cells}) < 2:
        return []
    by = defaultdict(dict)
    for c in grid.cells:
        by[(c.variant, c.target)][c.toolchain] = c
    out = []
    for (variant, target), per_tc in by.items():
        texts = {tc: _ptxas_text(c) for tc, c in per_tc.items()}
        gates = {tc: (_gate(c.ptxw), _gate(c.cccl)) for tc, c in per_tc.items()}
        if len(set(texts.values())) > 1 or len(set(gates.values())) > 1:
            out.append((variant, target, {tc: f"{texts[tc]} · ptxw {gates[tc][0]} · cccl {gates[tc][1]}" for tc in per_tc}))
    return out


def markdown(grid) -> str:
    out = [f"# ptxw conformance report", "",
           f"Generated {grid.date} by `{grid.command}`.", ""]
    for t in grid.toolchains:
        out.append(f"- {_toolchain_line(t)}")
    out.append(f"- Runtime results: {grid.runtime_source}")
    out += ["", "Each cell: what ptxas does with the instruction for the target (✓ accepted, with the SASS "
            "opcodes it adds to an empty kernel; ✗ rejected; – the toolchain does not know the target), "
            "then whether ptxw's and CCCL's gates agree (`ptxw ✓/✗`, `cccl ✓/✗/✗link/n/a`: accepted, rejected at "
            "compile time, rejected only at link time through an undefined stub, no binding). **Bold** cells "
            "disagree with ptxas. Every verdict's command and output are in the JSON.", ""]
    by = _by(grid)
    for t in grid.toolchains:
        if "error" in t:
            continue
        tc = t["version"]
        out += [f"## CUDA {tc}", ""]
        for family in dict.fromkeys(c.family for c in grid.cells):
            out += [f"### {family}", ""]
            out.append("| variant | " + " | ".join(grid.targets) + " |")
            out.append("|---|" + "---|" * len(grid.targets))
            for v in grid.variants:
                row = by.get((tc, v), {})
                if not row or next(iter(row.values())).family != family:
                    continue
                cells = []
                for target in grid.targets:
                    c = row.get(target)
                    if c is None:
                        cells.append("")
                        continue
                    text = _ptxas_text(c).replace("|", "\\|")
                    if c.ptxw or c.cccl:
                        text += f"<br>ptxw {_gate(c.ptxw)} · cccl {_gate(c.cccl)}"
                    if c.runtime:
                        text += f"<br>GPU: {c.runtime.verdict}"
                    cells.append(f"**{text}**" if c.problems else text)
                out.append(f"| `{v}` | " + " | ".join(cells) + " |")
            out.append("")
    changes = _changes(grid)
    if changes:
        out += ["## Between toolchains", "", "Cells whose ptxas verdict, SASS or gates differ between toolchains.", "",
                "| variant | target | " + " | ".join(t["version"] for t in grid.toolchains if "error" not in t) + " |",
                "|---|---|" + "---|" * sum("error" not in t for t in grid.toolchains)]
        for variant, target, per_tc in changes:
            out.append(f"| `{variant}` | {target} | " + " | ".join(
                per_tc.get(t["version"], "").replace("|", "\\|") for t in grid.toolchains if "error" not in t) + " |")
        out.append("")
    findings = [c for c in grid.cells if c.problems]
    out += ["## Findings", ""]
    if findings:
        for c in findings:
            out.append(f"- CUDA {c.toolchain}, {c.target}, `{c.variant}`: {'; '.join(c.problems)}")
    else:
        out.append("None: every gate agrees with ptxas on every measured cell.")
    if grid.errors:
        out += ["", "## Not measured", ""] + [f"- {e}" for e in grid.errors]
    return "\n".join(out) + "\n"


_CSS = """body{font:14px system-ui,sans-serif;margin:1.5em}table{border-collapse:collapse;margin-bottom:1.5em}
td,th{border:1px solid #ccc;padding:3px 5px;vertical-align:top;font-size:12px}th{background:#f3f3f3}
td.rej{background:#fafafa;color:#777}td.bad{background:#ffd7d7;font-weight:bold}td.unk{background:#eee;color:#999}
td.err{background:#ffe9a8}code{font-size:12px}details{font-size:11px}pre{white-space:pre-wrap;max-width:40em}"""


def html_page(grid) -> str:
    e = html.escape
    parts = [f"<!doctype html><meta charset=utf-8><title>ptxw conformance {e(grid.date)}</title><style>{_CSS}</style>",
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
                      "unk" if c.ptxas.verdict.startswith("target unknown") else "rej" if c.ptxas.verdict != "accept" else ""
                detail = "".join(
                    f"<b>{name}</b>: {e(s.verdict)}<pre>{e(s.command)}\n{e(s.output[:1500])}</pre>"
                    for name, s in (("ptxas", c.ptxas), ("ptxw", c.ptxw), ("cccl", c.cccl), ("runtime", c.runtime)) if s)
                text = e(_ptxas_text(c))
                if c.ptxw or c.cccl:
                    text += f"<br>ptxw {e(_gate(c.ptxw))} · cccl {e(_gate(c.cccl))}"
                if c.runtime:
                    text += f"<br>GPU: {e(c.runtime.verdict)}"
                if c.problems:
                    text += "<br>" + e("; ".join(c.problems))
                parts.append(f"<td class='{cls}'>{text}<details><summary>why</summary>{detail}</details></td>")
            parts.append("</tr>")
        parts.append("</table>")
    if grid.errors:
        parts.append("<h2>Not measured</h2><ul>" + "".join(f"<li>{e(x)}</li>" for x in grid.errors) + "</ul>")
    return "".join(parts) + "\n"


def write_all(grid, out_dir, markdown_path=None):
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "conformance.json").write_text(conformance.to_json(grid))
    (out_dir / "conformance.md").write_text(markdown(grid))
    (out_dir / "conformance.html").write_text(html_page(grid))
    if markdown_path:
        markdown_path.write_text(markdown(grid))
