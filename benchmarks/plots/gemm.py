"""Draws the CSV of ptxw_gemm_bench --timeline FILE as SVG: which tile each SM's CTA ran, and when.

    benchmarks/plot.py gemm timeline.csv timeline.svg

It also prints, per policy, the median tile's time and how far apart in time tiles that share an
operand start: for each tile, the gap to the nearest start of another tile of its group with the
same tile row (they read the same rows of A) or the same tile column (the same columns of B), the
median over the tiles. Tiles that share an operand hit in L2 only while they read the same K-slices
at about the same time.

One panel per scheduling policy, on one time scale: a lane per SM, a bar per tile from the moment
its consumers took it to the moment they took the next one (or finished), coloured by the tile's
group (consecutive tiles of one group make one bar); white where an SM's consumers had no tile. Each panel's title gives the time from the first
tile to the last SM's end, and how much of it the SMs spent on tiles.
"""
import csv
import sys
from collections import defaultdict
from statistics import median

from svg import COLOURS, Svg


def read(path):
    """{policy: {sm: [(ns, group, m, n), ...] in time order}}; group -1 is a CTA's end."""
    runs = defaultdict(lambda: defaultdict(list))
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            runs[r["policy"]][int(r["sm"])].append((int(r["ns"]), int(r["group"]), int(r["m"]), int(r["n"])))
    if not runs:
        sys.exit(f"gemm plot: no events in {path}")
    for sms in runs.values():
        for events in sms.values():
            events.sort()
    return runs


def spans(events):
    """(start, end, group) of each tile of one SM: until the SM's next event."""
    return [(t, t_next, g) for (t, g, *_), (t_next, *_) in zip(events, events[1:]) if g >= 0]


def start_gap(by_sm, key):
    """The median over tiles of the gap (ns) to the nearest start of another tile with the same key."""
    starts = defaultdict(list)
    for events in by_sm.values():
        for t, g, m, n in events:
            if g >= 0:
                starts[key(g, m, n)].append(t)
    gaps = []
    for ts in starts.values():
        ts.sort()
        for i, t in enumerate(ts):
            near = [abs(t - ts[j]) for j in (i - 1, i + 1) if 0 <= j < len(ts)]
            if near:
                gaps.append(min(near))
    return median(gaps) if gaps else float("nan")


def summary(runs):
    """One line a policy: tiles, the median tile's time, the median start gaps of operand sharers."""
    lines = []
    for policy, by_sm in runs.items():
        durations = [e - s for events in by_sm.values() for s, e, _ in spans(events)]
        a = start_gap(by_sm, lambda g, m, n: (g, m))
        b = start_gap(by_sm, lambda g, m, n: (g, n))
        lines.append(f"{policy}: {len(durations)} tiles, median tile {median(durations) / 1000:.1f} us, "
                     f"start gap to the nearest tile sharing A rows {a / 1000:.1f} us, B columns {b / 1000:.1f} us")
    return lines


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    runs = read(argv[1])
    for line in summary(runs):
        print(line)
    sms = max(sm for by_sm in runs.values() for sm in by_sm) + 1
    t_max = max(t for by_sm in runs.values() for events in by_sm.values() for t, *_ in events)
    pw, lane, top_pad = 1100, 3, 34
    ph = sms * lane + top_pad + 30
    svg = Svg(pw + 20, len(runs) * ph + 40)
    svg.add("<style>rect{shape-rendering:crispEdges}</style>")
    x0, width = 60, pw - 70
    xs = lambda t: x0 + t / t_max * width  # noqa: E731
    for k, (policy, by_sm) in enumerate(runs.items()):
        y0 = 30 + k * ph
        end = max(events[-1][0] for events in by_sm.values())
        busy = sum(e - s for events in by_sm.values() for s, e, _ in spans(events))
        tiles = sum(len(spans(events)) for events in by_sm.values())
        svg.text(x0, y0 + 12, f"{policy} policy: {tiles} tiles, {end / 1000:.1f} us from the first tile to the "
                 f"last SM's end, SMs busy {100 * busy / (end * sms):.0f}% of it", 12)
        for sm, events in by_sm.items():
            # consecutive tiles of one group are drawn as one bar
            bars = []
            for s, e, g in spans(events):
                if bars and bars[-1][2] == g and bars[-1][1] == s:
                    bars[-1][1] = e
                else:
                    bars.append([s, e, g])
            for s, e, g in bars:
                svg.rect(xs(s), y0 + top_pad + sm * lane, max(xs(e) - xs(s) - 0.5, 0.3), lane - 0.5,
                         COLOURS[g % len(COLOURS)])
        svg.lanes_axis(x0, width, y0 + top_pad, sms * lane, t_max, "us")
    groups = {g for by_sm in runs.values() for events in by_sm.values() for _, g, *_ in events if g >= 0}
    what = f"Grouped GEMM, {len(groups)} groups" if len(groups) > 1 else "GEMM"
    svg.text(10, 18, f"{what}: each SM's tiles, coloured by group", 13)
    svg.save(argv[2])
