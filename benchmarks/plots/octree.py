"""Draws the CSV of ptxw_bench_octree (--csv FILE) as SVG, with no plotting library.

    benchmarks/plot.py octree table.csv table.svg     # the table: every builder's time per problem
    benchmarks/plot.py octree sweep.csv sweep.svg     # a --sweep run: time against blocks per threads
    benchmarks/plot.py octree timeline.csv t.svg      # a --timeline run (.csv or .csv.gz): what each SM ran,
                                                      # and each kind of task's busy time per SM (printed)

Table: one panel per problem (shape, N, T), a bar per baseline and one per method (its best row:
any C, threads and levels a split; every row is in the CSV), best-of time in ms on a log scale,
the bounds (passes x the copy's time, for 1, 2 and 3 levels a split) as dashed lines. Sweep: one panel per shape and method, the dynamic builder's time
against blocks (log2) for each thread count, the baselines of the same run as dashed lines.
"""
import csv
import gzip
import math
import sys

from svg import COLOURS, Svg

# The rows of the builders other than the dynamic one (their names: examples/octree).
BASELINES = ("level loop", "level graph", "sort-based", "cdp")


def read(path):
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["mode"] != "mode"]
    if not rows:
        sys.exit(f"octree plot: no rows in {path}")
    for r in rows:
        r["best_ms"] = float(r["best_ms"])
        r["bound_ms"] = float(r["bound_ms"])
        r["blocks"] = int(r["blocks"])
        r["threads"] = int(r["threads"])
    return rows


class LogAxis:
    """Maps values to pixels on a log10 scale between lo and hi (rounded out to decades)."""

    def __init__(self, lo, hi, p0, p1):
        self.a, self.b = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
        self.p0, self.p1 = p0, p1

    def __call__(self, v):
        return self.p0 + (math.log10(v) - self.a) / (self.b - self.a) * (self.p1 - self.p0)

    def ticks(self):
        return [10.0 ** e for e in range(self.a, self.b + 1)]


def table(rows, out):
    # A bar per baseline, and per method its best row (any C, threads, levels a split; the
    # paper-faithful form, one block a node, stays in the CSV); dashed: each levels' bound.
    rows = [r for r in rows if r["mode"] == "table" and r["method"] != "copy" and "one block a node" not in r["method"]]
    for r in rows:
        r["bar"] = r["method"] if r["method"].startswith(BASELINES) else r["method"].split(",")[0] + " (best)"
    problems = list(dict.fromkeys((r["shape"], r["n"], r["t"]) for r in rows))
    bars = list(dict.fromkeys(r["bar"] for r in rows))
    cols = 4
    pw, ph = 300, 260
    nrows = math.ceil(len(problems) / cols)
    svg = Svg(cols * pw + 20, nrows * ph + 40 + 16 * math.ceil(len(bars) / 3))
    times = [r["best_ms"] for r in rows] + [r["bound_ms"] for r in rows]
    for k, prob in enumerate(problems):
        x0, y0 = 10 + (k % cols) * pw, 30 + (k // cols) * ph
        mine = [r for r in rows if (r["shape"], r["n"], r["t"]) == prob]
        best = {}
        for r in mine:
            if r["bar"] not in best or r["best_ms"] < best[r["bar"]]:
                best[r["bar"]] = r["best_ms"]
        ax = LogAxis(min(times), max(times), y0 + ph - 40, y0 + 20)
        left, right = x0 + 45, x0 + pw - 10
        svg.text((left + right) / 2, y0 + 12, f"{prob[0]}, N={int(prob[1]):.0e}, T={prob[2]}", 12, "middle")
        for tick in ax.ticks():
            y = ax(tick)
            svg.line(left, y, right, y, "#dddddd")
            svg.text(left - 4, y + 4, f"{tick:g}", 9, "end")
        svg.text(x0 + 10, (y0 + ph) / 2 + y0 / 2, "ms (best)", 10, "middle", rotate=-90)
        bw = (right - left) / max(1, len(bars))
        for i, m in enumerate(bars):
            if m in best:
                y = ax(best[m])
                svg.rect(left + i * bw + 1, y, bw - 2, ax.p0 - y, COLOURS[i % len(COLOURS)])
        for bound in sorted({r["bound_ms"] for r in mine}):
            svg.line(left, ax(bound), right, ax(bound), "black", 1, "4,3")
        svg.line(left, ax.p0, right, ax.p0)
    ly = 30 + nrows * ph
    for i, m in enumerate(bars):
        x, y = 20 + (i % 3) * 400, ly + 16 * (i // 3)
        svg.rect(x, y - 9, 10, 10, COLOURS[i % len(COLOURS)])
        svg.text(x + 14, y, m, 11)
    svg.text(10, 18, "Octree builds: best-of time per builder and problem (log scale); dashed: the bounds, "
             "(passes above S + 1) x copy time, for 1, 2 and 3 levels a split", 14)
    svg.save(out)


def sweep(rows, out):
    rows = [r for r in rows if r["mode"] == "sweep" and r["method"] != "copy"]
    shapes = list(dict.fromkeys(r["shape"] for r in rows))
    methods = list(dict.fromkeys(r["method"].rsplit(" ", 1)[0] for r in rows if r["blocks"] > 0))
    pw, ph = 330, 280
    svg = Svg(len(methods) * pw + 20, len(shapes) * ph + 40)
    for k, shape in enumerate(shapes):
        mine = [r for r in rows if r["shape"] == shape]
        base = [r for r in mine if r["blocks"] == 0]
        ax_lo, ax_hi = min(r["best_ms"] for r in mine), max(r["best_ms"] for r in mine)
        for q, method in enumerate(methods):
            dyn = [r for r in mine if r["blocks"] > 0 and r["method"].rsplit(" ", 1)[0] == method]
            x0, y0 = 10 + q * pw, 30 + k * ph
            left, right, bottom, top = x0 + 45, x0 + pw - 10, y0 + ph - 45, y0 + 22
            ax = LogAxis(ax_lo, ax_hi, bottom, top)
            bmax = max(r["blocks"] for r in dyn)
            xs = lambda b: left + math.log2(b) / max(1.0, math.log2(bmax)) * (right - left)  # noqa: E731
            svg.text((left + right) / 2, y0 + 12, f"{method}: {shape}, N={int(mine[0]['n']):.0e}, T={mine[0]['t']}",
                     11, "middle")
            for tick in ax.ticks():
                svg.line(left, ax(tick), right, ax(tick), "#dddddd")
                svg.text(left - 4, ax(tick) + 4, f"{tick:g}", 9, "end")
            for b in sorted({r["blocks"] for r in dyn}):
                svg.line(xs(b), bottom, xs(b), bottom + 4)
                svg.text(xs(b), bottom + 14, str(b), 8, "middle")
            svg.text((left + right) / 2, bottom + 28, "blocks (log2)", 9, "middle")
            svg.text(x0 + 10, (top + bottom) / 2, "ms (best)", 9, "middle", rotate=-90)
            for i, th in enumerate(sorted({r["threads"] for r in dyn})):
                pts = sorted((r["blocks"], r["best_ms"]) for r in dyn if r["threads"] == th)
                c = COLOURS[i % len(COLOURS)]
                svg.polyline([(xs(b), ax(t)) for b, t in pts], c)
                svg.rect(right - 80, top + 12 * i - 2, 7, 7, c)
                svg.text(right - 70, top + 12 * i + 5, f"{th} threads", 9)
            for r in base:
                y = ax(r["best_ms"])
                svg.line(left, y, right, y, "#444444", 1, "5,3")
                svg.text(left + 4, y - 3, f"{r['method']} {r['best_ms']:.2f}", 8)
            svg.line(left, bottom, right, bottom)
            svg.line(left, bottom, left, top)
    svg.text(10, 18, "Dynamic builder per method: threads x blocks (the paper's figures' shape); dashed: the "
             "baselines of the same run", 13)
    svg.save(out)


KIND_COLOURS = {"finish": "#2ca02c", "split": "#1f77b4", "count": "#ff7f0e", "scatter": "#d62728", "range": "#7f7f7f"}


def timelines(path, out):
    with (gzip.open(path, "rt", newline="") if path.endswith(".gz") else open(path, newline="")) as f:
        spans = list(csv.DictReader(f))
    if not spans:
        sys.exit(f"octree plot: no spans in {path}")
    for r in spans:
        r["sm"], r["start_us"], r["end_us"] = int(r["sm"]), float(r["start_us"]), float(r["end_us"])
    panels = list(dict.fromkeys((r["shape"], r["n"], r["t"], r["method"]) for r in spans))
    pw, lane, top_pad = 1100, 2, 34
    sms = max(r["sm"] for r in spans) + 1
    ph = sms * lane + top_pad + 30
    svg = Svg(pw + 20, len(panels) * ph + 60)
    svg.add("<style>rect{shape-rendering:crispEdges}</style>")  # lanes of 2 px: no blur between them
    for k, panel in enumerate(panels):
        mine = [r for r in spans if (r["shape"], r["n"], r["t"], r["method"]) == panel]
        same_shape = [r for r in spans if (r["shape"], r["n"], r["t"]) == panel[:3]]
        t_max = max(r["end_us"] for r in same_shape)  # one time scale per problem: methods side by side
        x0, y0 = 60, 30 + k * ph
        width = pw - 70
        xs = lambda t: x0 + t / t_max * width  # noqa: E731
        busy = sum(r["end_us"] - r["start_us"] for r in mine)
        end = max(r["end_us"] for r in mine)
        # what the SMs were busy with, per kind of task: the time a pass takes on the whole GPU
        by_kind = {}
        for r in mine:
            by_kind.setdefault(r["kind"], []).append(r["end_us"] - r["start_us"])
        print(f"{panel[3]}, {panel[0]} N={panel[1]} T={panel[2]}: {end:.0f} us first task to last; busy per SM: "
              + ", ".join(f"{kind} {sum(d) / sms:.0f} us ({len(d)} tasks)" for kind, d in sorted(by_kind.items())))
        svg.text(x0, y0 + 12, f"{panel[3]}: {panel[0]}, N={int(panel[1]):.0e}, T={panel[2]} -- {len(mine)} tasks, "
                 f"{end / 1000:.3f} ms first task to last, SMs busy {100 * busy / (end * sms):.0f}% of it", 12)
        # consecutive spans of one kind on one SM less than half a pixel apart are drawn as one
        last = {}
        for r in sorted(mine, key=lambda r: (r["sm"], r["start_us"])):
            key = r["sm"]
            x1, x2 = xs(r["start_us"]), xs(r["end_us"])
            prev = last.get(key)
            if prev and prev[0] == r["kind"] and x1 - prev[2] < 0.5:
                prev[2] = max(prev[2], x2)
                continue
            if prev:
                svg.rect(prev[1], y0 + top_pad + key * lane, max(prev[2] - prev[1], 0.3), lane, KIND_COLOURS[prev[0]])
            last[key] = [r["kind"], x1, x2]
        for key, prev in last.items():
            svg.rect(prev[1], y0 + top_pad + key * lane, max(prev[2] - prev[1], 0.3), lane, KIND_COLOURS[prev[0]])
        svg.lanes_axis(x0, width, y0 + top_pad, sms * lane, t_max, "ms")
    ly = 30 + len(panels) * ph + 10
    for i, (kind, colour) in enumerate(KIND_COLOURS.items()):
        svg.rect(60 + i * 160, ly - 9, 10, 10, colour)
        svg.text(60 + i * 160 + 14, ly, kind, 11)
    svg.text(10, 18, "Dynamic builder: what each SM ran (a lane per SM, a bar per task); white: waiting for "
             "a task, a join or a round", 13)
    svg.save(out)


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    with (gzip.open(argv[1], "rt") if argv[1].endswith(".gz") else open(argv[1])) as f:
        if "kind" in f.readline().split(","):
            return timelines(argv[1], argv[2])
    rows = read(argv[1])
    if any(r["mode"] == "sweep" for r in rows):
        sweep(rows, argv[2])
    else:
        table(rows, argv[2])

