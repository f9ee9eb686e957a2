#!/usr/bin/env python3
"""Draws the output of ptxw_bench_device_for_each as an SVG: per cost distribution, each contender's
time over the bound of any schedule (1.0 = the bound), CUB, thrust and ptxw's default first, then the
policy sweep (its times, each measured right after a CUB run).

    benchmarks/device_plot.py docs/runtime/device-for-each.txt docs/device/for_each.svg
"""
import re
import sys
from pathlib import Path

MAIN = re.compile(r"^(uniform|lognormal s=[\d.]+|hot spot)\s+([\d.]+) \|\s+([\d.]+)\s+([\d.]+)\s+([\d.]+) \|")
SWEEP = re.compile(r"^\s+(\d+ x \d+ x \d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$")


def parse(text):
    """[(costs, bound, [(label, us, is_reference)])] in the order of the log."""
    groups = []
    for line in text.splitlines():
        m = MAIN.match(line)
        if m:
            costs, bound, ptxw, cub, thrust = m.group(1), *map(float, m.groups()[1:])
            groups.append((costs, bound, [("CUB ForEachN", cub, True), ("thrust::for_each", thrust, True),
                                          ("ptxw default", ptxw, False)]))
            continue
        m = SWEEP.match(line)
        if m and groups:
            groups[-1][2].append((m.group(1), float(m.group(2)), False))
    if not groups:
        sys.exit("device_plot: no result table in the input (is it ptxw_bench_device_for_each's output?)")
    return groups


def svg(groups, title):
    row, label_w, bar_w, top = 16, 150, 420, 40
    scale_max = max(us / bound for _, bound, rows in groups for _, us, _ in rows) * 1.05
    height = top + sum((len(rows) + 2) * row for _, _, rows in groups) + 30
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{label_w + bar_w + 80}" height="{height}" '
           'font-family="sans-serif" font-size="11">',
           f'<text x="4" y="16" font-size="13" font-weight="bold">{title}</text>',
           f'<text x="4" y="30">time / bound of any schedule (1.0 = the bound; shorter is faster)</text>']
    x0 = label_w
    y = top
    for costs, bound, rows in groups:
        out.append(f'<text x="4" y="{y + 12}" font-weight="bold">{costs} (bound {bound:.1f} us)</text>')
        y += row
        for label, us, reference in rows:
            ratio = us / bound
            w = bar_w * ratio / scale_max
            colour = "#888888" if reference else "#1f77b4"
            out.append(f'<text x="8" y="{y + 11}">{label}</text>')
            out.append(f'<rect x="{x0}" y="{y + 2}" width="{w:.1f}" height="{row - 4}" fill="{colour}"/>')
            out.append(f'<text x="{x0 + w + 4:.1f}" y="{y + 11}">{ratio:.2f} ({us:.0f} us)</text>')
            y += row
        one = x0 + bar_w / scale_max
        out.append(f'<line x1="{one:.1f}" y1="{y - len(rows) * row}" x2="{one:.1f}" y2="{y}" stroke="black" '
                   'stroke-dasharray="3,2"/>')
        y += row
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: device_plot.py BENCH_OUTPUT OUT.svg")
    text = Path(argv[1]).read_text()
    first = text.splitlines()[0] if text else ""
    Path(argv[2]).parent.mkdir(parents=True, exist_ok=True)
    Path(argv[2]).write_text(svg(parse(text), f"for_each_canceled against CUB and thrust -- {first.split(',')[0]}"))


if __name__ == "__main__":
    main(sys.argv)
