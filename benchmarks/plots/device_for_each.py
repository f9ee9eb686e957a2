"""Draws the output of ptxw_bench_device_for_each as SVGs: per cost distribution, each contender's
time back to back over the bound of any schedule (1.0 = the bound), CUB and ptxw's default first,
then the policy sweep (each measured right after a CUB run); and, given a second file name, CUB's
time over ptxw's against n (the tables of other n: uniform waits and none, and uniform beyond one
wave).

    benchmarks/plot.py device_for_each build/device-for-each.txt build/for_each.svg build/for_each_sizes.svg
"""
import math
import re
import sys
from pathlib import Path

# The main table's rows (a bound in us, with a decimal point); the tables of other n give n instead.
MAIN = re.compile(r"^(uniform|lognormal s=[\d.]+|hot spot)\s+(\d+\.\d+) \|.*\|\s+([\d.]+)\s+([\d.]+)\s+[\d.]+$")
SWEEP = re.compile(r"^\s+(\d+ x \d+ \(\d+\) x \d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$")
SIZE = re.compile(r"^(uniform|no wait)\s+(\d+) \|\s+[\d.]+\s+[\d.]+\s+([\d.]+) \|\s+[\d.]+\s+[\d.]+\s+([\d.]+)$")


def parse(text):
    """[(costs, bound, [(label, us, is_reference)])] in the order of the log."""
    groups = []
    for line in text.splitlines():
        m = MAIN.match(line)
        if m:
            costs, bound, ptxw, cub = m.group(1), *map(float, m.groups()[1:])
            groups.append((costs, bound, [("CUB ForEachN", cub, True), ("ptxw default", ptxw, False)]))
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
           f'<text x="4" y="30">time back to back / bound of any schedule (1.0 = the bound; shorter is faster)</text>']
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


def sizes_svg(text, title):
    """CUB/ptxw against log2(n), one call and back to back, for each cost of the sizes table."""
    series = {}
    for line in text.splitlines():
        m = SIZE.match(line)
        if m:
            costs, n, one, b2b = m.group(1), int(m.group(2)), float(m.group(3)), float(m.group(4))
            series.setdefault(f"{costs}, one call", []).append((math.log2(n), one))
            series.setdefault(f"{costs}, back to back", []).append((math.log2(n), b2b))
    if not series:
        sys.exit("device_plot: no table of smaller n in the input")
    xs = [x for pts in series.values() for x, _ in pts]
    ys = [y for pts in series.values() for _, y in pts] + [1.0]
    x_lo, x_hi = math.floor(min(xs)), math.ceil(max(xs))
    y_lo, y_hi = math.floor(min(ys) * 10) / 10, math.ceil(max(ys) * 10) / 10
    left, top, w, h = 50, 40, 420, 240
    px = lambda x: left + w * (x - x_lo) / (x_hi - x_lo)
    py = lambda y: top + h * (y_hi - y) / (y_hi - y_lo)
    colours = ["#1f77b4", "#aec7e8", "#d62728", "#ff9896"]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + w + 190}" height="{top + h + 40}" '
           'font-family="sans-serif" font-size="11">',
           f'<text x="4" y="16" font-size="13" font-weight="bold">{title}</text>',
           f'<text x="4" y="30">CUB time / ptxw time (above 1: ptxw faster) against n</text>']
    for k in range(x_lo, x_hi + 1):
        out.append(f'<line x1="{px(k):.1f}" y1="{top + h}" x2="{px(k):.1f}" y2="{top + h + 4}" stroke="black"/>')
        out.append(f'<text x="{px(k) - 10:.1f}" y="{top + h + 16}">2^{k}</text>')
    y = y_lo
    while y <= y_hi + 1e-9:
        out.append(f'<line x1="{left - 4}" y1="{py(y):.1f}" x2="{left + w}" y2="{py(y):.1f}" stroke="#dddddd"/>')
        out.append(f'<text x="{left - 32}" y="{py(y) + 4:.1f}">{y:.1f}</text>')
        y += 0.1
    out.append(f'<line x1="{left}" y1="{py(1.0):.1f}" x2="{left + w}" y2="{py(1.0):.1f}" stroke="black" '
               'stroke-dasharray="3,2"/>')
    for i, (name, pts) in enumerate(series.items()):
        colour = colours[i % len(colours)]
        path = " ".join(f"{px(x):.1f},{py(v):.1f}" for x, v in pts)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for x, v in pts:
            out.append(f'<circle cx="{px(x):.1f}" cy="{py(v):.1f}" r="2.5" fill="{colour}"/>')
        out.append(f'<rect x="{left + w + 12}" y="{top + 14 * i}" width="10" height="10" fill="{colour}"/>')
        out.append(f'<text x="{left + w + 26}" y="{top + 14 * i + 9}">{name}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) not in (3, 4):
        sys.exit("usage: benchmarks/plot.py device_for_each BENCH_OUTPUT OUT.svg [SIZES.svg]")
    text = Path(argv[1]).read_text()
    first = text.splitlines()[0] if text else ""
    device = first.split(",")[0]
    Path(argv[2]).parent.mkdir(parents=True, exist_ok=True)
    Path(argv[2]).write_text(svg(parse(text), f"for_each_canceled against CUB -- {device}"))
    if len(argv) == 4:
        Path(argv[3]).write_text(sizes_svg(text, f"for_each_canceled against CUB by n -- {device}"))

