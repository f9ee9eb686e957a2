"""`ptxw sass-diff` results as a person reads them: a terminal summary (at most 120 columns, kernels by
their own name), Markdown, a self-contained HTML page, and the JSON with every result (listings,
resources, provenance, commands and compiler messages) behind them. The Markdown section is also
what the conformance report shows between toolchains."""

import html
import json
from collections import defaultdict
from dataclasses import asdict
from pathlib import Path

from ..core import style
from . import pairing
from .compare import CHANGED, INCOMPARABLE, NEITHER, OK, ONE_SIDE, SAME, first_error

_ARROW = "→"
WIDTH = 120  # the terminal table's
# the kernel table's columns: what each side's facts hold, in order
FACTS = ("instructions", "sync/fence", "REG", "SHARED", "STACK", "LOCAL", "SPILL_STORES", "SPILL_LOADS", "THREADS",
         "OCCUPANCY")


def _opcodes_text(opcodes: dict) -> str:
    return ", ".join(f"{k} {a}{_ARROW}{b}" for k, (a, b) in opcodes.items())


def _resources_text(resources: dict) -> str:
    return ", ".join(f"{k} {a}{_ARROW}{b}" for k, (a, b) in resources.items())


def change_rows(result) -> list:
    """(source, target, kernel, what) for each change, kernel '' for a unit-level one."""
    rows = []
    for u in result.changed:
        if u.note:
            rows.append((u.source, u.target, "", u.note))
        for k in u.kernels:
            what = [k.change if k.change != "changed" else "SASS" if k.diff else ""]
            if k.opcodes:
                what.append(_opcodes_text(k.opcodes))
            if k.resources:
                what.append(_resources_text(k.resources))
            if k.paired in pairing.BY_NAME:
                what.append("renamed")
            rows.append((u.source, u.target, k.kernel, "; ".join(filter(None, what))))
    return rows


def _fit(text: str, width: int, keep_end=False) -> str:
    """text cut to width with an ellipsis: its end kept (a path, from a '/' where it has one), or its start."""
    if len(text) <= width:
        return text
    if not keep_end:
        return text[:width - 1] + "…"
    tail = text[-(width - 1):]
    return "…" + (tail[tail.index("/"):] if "/" in tail[:-1] else tail)


def table(rows, width=WIDTH) -> list:
    """The change rows as terminal lines of at most width columns: kernels by their own name, a long
    source cut at its start, the change cut at its end (the reports have them whole)."""
    head = ("source", "target", "kernel", "change")
    rows = [(s, t, pairing.short_name(k) if k else "", w) for s, t, k, w in rows]
    widths = [min(max(len(r[i]) for r in rows + [head]), cap) for i, cap in enumerate((32, 9, 32))]
    rest = width - 2 - sum(w + 2 for w in widths)
    return ["  " + "  ".join((_fit(r[0], widths[0], keep_end=True).ljust(widths[0]), _fit(r[1], widths[1]).ljust(widths[1]),
                              _fit(r[2], widths[2]).ljust(widths[2]), _fit(r[3], rest))).rstrip() for r in [head] + rows]


def counts(result) -> dict:
    counts = defaultdict(int)
    for u in result.units:
        counts[u.status] += 1
    return counts


def _provenance(side) -> list:
    """The distinct (ptxas version, options) its cubins record, options without the target."""
    seen = {}
    for r in side.units.values():
        p = r.get("provenance") or {}
        if p:
            options = " ".join(w for w in p.get("tki_toolOptions", "").split() if not w.startswith("sm_") and w != "-arch")
            seen[(p.get("tki_toolVersion", "?").rpartition(", ")[2], options)] = True
    return [f"{v} ({o})" if o else v for v, o in seen]


def _side_line(side) -> str:
    p = _provenance(side)
    return side.label + (f"; cubins by ptxas {', '.join(p)}" if p else "")


def kernel_counts(result) -> dict:
    """Over the units that compiled on both sides: kernels paired (of them renamed), added, removed."""
    c = defaultdict(int)
    for u in result.units:
        for row in u.table:
            c["paired" if row["old"] and row["new"] else "added" if row["new"] else "removed"] += 1
            c["renamed"] += row["paired"] in pairing.BY_NAME
            c["changed"] += bool(row.get("changed"))
    return c


def _counts_line(result) -> str:
    c = counts(result)
    return (f"{len(result.units)} source x target pairs: {c[SAME]} same, {c[CHANGED]} changed, {c[ONE_SIDE]} compile on "
            f"one side only, {c[INCOMPARABLE]} not comparable, {c[NEITHER]} compile on neither side")


def _kernels_line(result) -> str:
    k = kernel_counts(result)
    return (f"kernels: {k['paired']} paired ({k['renamed']} renamed), {k['changed']} of them changed, "
            f"{k['added']} added, {k['removed']} removed")


def recorded(side) -> str:
    """What a first baseline records (there is nothing to compare with): its kernels, and each unit that
    did not compile with the compiler's first error."""
    ok = [u for u in side.units.values() if u.get("status") == OK]
    lines = [f"recorded {sum(len(u.get('functions', [])) for u in ok)} kernels of {len(ok)} source x target pairs"]
    lines += [_fit(f"  not recorded: {s} for {t}: {first_error(u.get('message', ''), s) or u.get('status')}", WIDTH)
              for (s, t), u in sorted(side.units.items()) if u.get("status") != OK]
    return "\n".join(lines)


def summary(result, show_diff=False, max_diff_lines=60) -> str:
    lines = [f"ptxw sass-diff, {result.date}: {len(result.sources) or 'recorded'} sources x {len(result.targets) or 'recorded'} targets",
             f"  old: {_fit(_side_line(result.old), WIDTH - 7)}", f"  new: {_fit(_side_line(result.new), WIDTH - 7)}",
             f"  compiled {result.old.compiled + result.new.compiled} (the rest from the cache) in {result.seconds:.1f} s", "",
             f"  {_counts_line(result)}", f"  {_kernels_line(result)}"]
    rows = change_rows(result)
    if rows:
        lines += [""] + table(rows)
    if show_diff:
        for u in result.changed:
            for k in u.kernels:
                if k.diff:
                    diff = k.diff.splitlines()[2:]
                    lines += ["", f"{u.source} for {u.target}: {k.kernel}"] + diff[:max_diff_lines]
                    lines += [f"... {len(diff) - max_diff_lines} more lines in the reports"] if len(diff) > max_diff_lines else []
    unknown = [u for u in result.units if u.status == INCOMPARABLE]
    if unknown:
        lines += ["", "not comparable (a target or nvcc a toolchain lacks):"] + \
            [_fit(f"  {u.source} {u.target}: {u.note}", WIDTH) for u in unknown[:10]]
        lines += [f"  ... and {len(unknown) - 10} more (see the reports)"] if len(unknown) > 10 else []
    if result.problems:
        lines += ["", "failed:"] + [f"  {p}" for p in result.problems]
    return "\n".join(lines)


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown_section(result, unit_name="source", max_diff_lines=80) -> list:
    """The changes as Markdown: a table, then each kernel's diff (folded)."""
    rows = change_rows(result)
    if not rows:
        return ["No difference in any kernel's normalised SASS or resources."]
    out = [f"| {unit_name} | target | kernel | change |", "|---|---|---|---|"]
    merged = defaultdict(list)  # the same change on several targets: one row
    for source, target, kernel, what in rows:
        merged[(source, kernel, what)].append(target)
    order = {t: i for i, t in enumerate(result.targets)}
    for (source, kernel, what), ts in merged.items():
        ts = sorted(ts, key=lambda t: (order.get(t, len(order)), t))
        out.append(f"| `{source}` | {', '.join(ts)} | `{kernel}` | {_md_escape(what)} |" if kernel else
                   f"| `{source}` | {', '.join(ts)} | | {_md_escape(what)} |")
    shown = set()
    for u in result.changed:
        for k in u.kernels:
            if not k.diff or (u.source, k.kernel, k.diff) in shown:
                continue
            shown.add((u.source, k.kernel, k.diff))
            lines = k.diff.splitlines()[2:]  # the ---/+++ header names the sides, said above
            same = sorted((x.target for x in result.changed for y in x.kernels if x.source == u.source
                           and y.kernel == k.kernel and y.diff == k.diff), key=lambda t: (order.get(t, len(order)), t))
            out += ["", f"<details><summary><code>{html.escape(k.kernel)}</code> in <code>{html.escape(u.source)}</code> "
                        f"on {', '.join(same)}</summary>", "", "```diff", *lines[:max_diff_lines]]
            if len(lines) > max_diff_lines:
                out.append(f"... {len(lines) - max_diff_lines} more lines in the HTML and JSON reports")
            out += ["```", "", "</details>"]
    return out


def kernel_table_md(result, changed_only=False) -> list:
    """Every kernel of the units that compiled on both sides (or those that changed), one row each: its
    own name and what tells it from its namesakes, how it was paired, and its facts old → new."""
    facts = ("instructions", "sync/fence", "REG", "SHARED", "STACK", "SPILL_STORES", "OCCUPANCY")
    out = ["| source | target | kernel | paired | " + " | ".join(facts) + " |", "|---|---|---|---|" + "---|" * len(facts)]
    for u in result.units:
        which = pairing.distinguishing([row["kernel"] for row in u.table])
        for row in u.table:
            if changed_only and row["old"] and row["new"] and not row.get("changed"):
                continue
            name = row["short"] + (f" ({which[row['kernel']]})" if which.get(row["kernel"]) else "")
            cells = [f"{(row['old'] or {}).get(k, '–')}{_ARROW}{(row['new'] or {}).get(k, '–')}" for k in facts]
            out.append(f"| `{u.source.rsplit('/', 1)[-1]}` | {u.target} | `{_md_escape(name)}` | "
                       f"{row['paired'] or ('added' if row['new'] else 'removed')} | " + " | ".join(cells) + " |")
    return out if len(out) > 2 else []


def markdown(result) -> str:
    out = ["# ptxw sass-diff", "", f"Generated {result.date} by `{result.command}`.", "",
           f"- old: {_side_line(result.old)}", f"- new: {_side_line(result.new)}",
           f"- {_counts_line(result)}", f"- {_kernels_line(result)}", "",
           "SASS is compared after normalisation (registers numbered by first use, code addresses as labels, alignment "
           "NOPs dropped, kernels paired by demangled name, through versioned inline namespaces, then by kernel name); "
           "opcode counts are by instruction class.", "", "## Changes", ""]
    out += markdown_section(result)
    table = kernel_table_md(result)
    if table:
        out += ["", "## Every kernel", "", "Instructions, sync/fence instructions, resources (`cuobjdump -res-usage`, "
                "ptxas -v's spill stores) and the theoretical occupancy at the kernel's launch bound with the dynamic "
                "shared memory --dynamic-smem gives (none if not given), old → new "
                "(the JSON report has the full names of both sides, the HTML the other resources).", ""] + table
    if result.problems:
        out += ["", "## Failed", ""] + [f"- {p}" for p in result.problems]
    return "\n".join(out) + "\n"




def _diff_html(diff: str) -> str:
    out = []
    for line in diff.splitlines():
        cls = "add" if line.startswith("+") and not line.startswith("+++") else \
              "del" if line.startswith("-") and not line.startswith("---") else ""
        out.append(f"<span class='{cls}'>{html.escape(line)}</span>" if cls else html.escape(line))
    return "<pre class='diff'>" + "\n".join(out) + "</pre>"


def _result_html(label, r) -> str:
    e = html.escape
    if not r:
        return f"<b>{e(label)}</b>: not built"
    parts = [f"<b>{e(label)}</b>: {e(r.get('status', '?'))}"]
    if r.get("provenance"):
        parts.append(f" · {e(r['provenance'].get('tki_toolVersion', ''))} · options <code>"
                     f"{e(r['provenance'].get('tki_toolOptions', ''))}</code>")
    if r.get("message"):
        parts.append(f"<pre>{e(r['message'][:3000])}</pre>")
    if r.get("commands"):
        parts.append("<pre>" + e("\n".join(r["commands"])) + "</pre>")
    return "".join(parts)


def html_section(result) -> str:
    """The changes: a table, then per unit its kernels' diffs and both sides' provenance, commands and messages."""
    e = html.escape
    rows = change_rows(result)
    if not rows:
        return "<p>No difference in any kernel's normalised SASS or resources.</p>"
    parts = ["<table><tr><th>source</th><th>target</th><th>kernel</th><th>change</th></tr>" + "".join(
        f"<tr><td><code>{e(s)}</code></td><td>{e(t)}</td><td><code>{e(k)}</code></td><td>{e(w)}</td></tr>"
        for s, t, k, w in rows) + "</table>"]
    for u in result.changed:
        parts.append(f"<h3><code>{e(u.source)}</code> on {e(u.target)}</h3>")
        if u.note:
            parts.append(f"<p class='bad'>{e(u.note)}</p>")
        for k in u.kernels:
            parts.append(f"<h4><code>{e(k.kernel)}</code>: {e(k.change)}</h4>")
            if k.old_name:
                parts.append(f"<p>paired by {e(k.paired)} with the old side's <code>{e(k.old_name)}</code></p>")
            if k.opcodes or k.resources:
                parts.append(f"<p>{e('; '.join(filter(None, (_opcodes_text(k.opcodes), _resources_text(k.resources)))))}</p>")
            if k.diff:
                parts.append(_diff_html(k.diff))
        parts.append(f"<details><summary>provenance, commands and messages</summary>{_result_html(result.old.label, u.old)}"
                     f"<br>{_result_html(result.new.label, u.new)}</details>")
    return "".join(parts)


def html_page(result) -> str:
    e = html.escape
    parts = [f"<!doctype html><meta charset=utf-8><title>ptxw sass-diff {e(result.date)}</title><style>{style.CSS}</style>",
             f"<h1>ptxw sass-diff</h1><p>Generated {e(result.date)} by <code>{e(result.command)}</code>.</p><ul>",
             f"<li>old: {e(_side_line(result.old))}</li><li>new: {e(_side_line(result.new))}</li></ul>",
             "<h2>Changes</h2>", html_section(result)]
    others = [u for u in result.units if u.status in (INCOMPARABLE, NEITHER)]
    if others:
        parts.append("<h2>Not compared</h2><table><tr><th>source</th><th>target</th><th>why</th></tr>" + "".join(
            f"<tr><td><code>{e(u.source)}</code></td><td>{e(u.target)}</td><td class='unk'>{e(u.status)}: {e(u.note)}"
            f"<details><summary>why</summary>{_result_html(result.old.label, u.old)}<br>"
            f"{_result_html(result.new.label, u.new)}</details></td></tr>" for u in others) + "</table>")
    tables = [u for u in result.units if u.table]
    if tables:
        parts.append("<h2>Every kernel</h2><p>old → new; the full names of both sides in the JSON report</p>")
    for u in tables:
        parts.append(f"<details><summary><code>{e(u.source)}</code> on {e(u.target)}: {len(u.table)} kernels</summary>"
                     "<table><tr><th>kernel</th><th>paired</th>" + "".join(f"<th>{e(k)}</th>" for k in FACTS) + "</tr>")
        for row in u.table:
            cells = "".join(f"<td>{e(str((row['old'] or {}).get(k, '–')))} {_ARROW} {e(str((row['new'] or {}).get(k, '–')))}</td>"
                            for k in FACTS)
            parts.append(f"<tr><td><code title='{e(row['kernel'])}'>{e(row['short'])}</code></td>"
                         f"<td>{e(row['paired'] or 'unpaired')}</td>{cells}</tr>")
        parts.append("</table></details>")
    if result.problems:
        parts.append("<h2>Failed</h2><ul>" + "".join(f"<li>{e(p)}</li>" for p in result.problems) + "</ul>")
    return "".join(parts) + "\n"


def to_json(result) -> str:
    return json.dumps({
        "command": result.command, "date": result.date, "seconds": round(result.seconds, 2),
        "old": result.old.describe(), "new": result.new.describe(), "sources": result.sources, "targets": result.targets,
        "compiled": result.old.compiled + result.new.compiled, "problems": result.problems,
        "units": [asdict(u) for u in result.units]}, indent=1)


def write_all(result, out_dir: Path, markdown_path: Path = None):
    style.write_reports(out_dir, "sass-diff", {"json": to_json(result), "md": markdown(result), "html": html_page(result)},
                        markdown_path)
