"""Per-SM timelines of a scheduling benchmark run, as PNG pictures (no plotting library needed).

    benchmarks/plot.py scheduling RUN_DIR OUT_DIR

RUN_DIR holds what ptxw_bench_scheduling --out wrote (timelines.txt or timelines.txt.gz,
scheduling.json). For each workload and strategy OUT_DIR gets one picture, all strategies of a
workload on one time scale:

  - top: every CTA slot of the first SMs, one row each, time left to right -- grey while a CTA is
    resident, orange for its prologue, its blocks coloured by block index (blue for the first of
    the grid through green to yellow for the last: own blocks and stolen ones tell apart), red for a
    CTA that was launched and ran nothing (canceled);
  - bottom: all SMs, one row each, darker where more blocks were running at that time.

and timelines.md, the Markdown that shows them next to the run's ratios and the median gap between
two blocks of a slot (docs/scheduling.md shows one of the pictures).
"""

import gzip
import json
import re
import struct
import sys
import zlib
from collections import defaultdict
from pathlib import Path

WIDTH = 640
ROW = 3  # pixels per CTA slot row
UTIL_ROW = 1
SLOTS_PER_SM = 16

WHITE = (255, 255, 255)
RESIDENT = (221, 221, 221)
PROLOGUE = (242, 142, 43)
CANCELED = (225, 87, 89)
SEPARATOR = (120, 120, 120)


def block_colour(fraction):
    """Blue (first blocks of the grid) through green to yellow (last ones)."""
    stops = [(68, 1, 84), (49, 104, 142), (53, 183, 121), (253, 231, 37)]
    x = min(max(fraction, 0.0), 1.0) * (len(stops) - 1)
    i = min(int(x), len(stops) - 2)
    t = x - i
    return tuple(int(a + (b - a) * t) for a, b in zip(stops[i], stops[i + 1]))


def write_png(path, pixels, width, height):
    raw = b"".join(b"\x00" + bytes(v for px in pixels[y * width:(y + 1) * width] for v in px) for y in range(height))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    Path(path).write_bytes(png)


def read_runs(run_dir):
    path = Path(run_dir, "timelines.txt")
    opener = open if path.exists() else gzip.open
    path = path if path.exists() else Path(run_dir, "timelines.txt.gz")
    runs, current = [], None
    with opener(path, "rt") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if fields[0] == "run":
                current = {"workload": fields[1], "strategy": fields[2], "group": int(fields[3]),
                           "span": int(fields[4]), "ctas": [], "items": [], "util": {}}
                runs.append(current)
            elif fields[0] == "cta":
                current["ctas"].append(tuple(map(int, fields[1:])))
            elif fields[0] == "item":
                current["items"].append(tuple(map(int, fields[1:])))
            elif fields[0] == "util":
                current["util"][int(fields[1])] = [int(v) for v in fields[2:]]
    return runs


def draw(run, span, items_total):
    """The picture of one run: (pixels, width, height)."""
    rows = defaultdict(int)  # sm -> rows used
    for sm, row, *_ in run["ctas"]:
        rows[sm] = max(rows[sm], row + 1)
    sms = sorted(rows)
    detail_height = sum(max(rows[sm], SLOTS_PER_SM) * ROW + 1 for sm in sms)
    util_sms = sorted(run["util"])
    height = detail_height + 2 + len(util_sms) * UTIL_ROW
    px = [WHITE] * (WIDTH * height)

    def x_of(t):
        return min(WIDTH - 1, int(t * WIDTH / span))

    def fill(x0, x1, y0, y1, colour):
        for y in range(y0, y1):
            base = y * WIDTH
            for x in range(x0, max(x0 + 1, x1)):
                px[base + x] = colour

    top = {}
    y = 0
    for sm in sms:
        top[sm] = y
        y += max(rows[sm], SLOTS_PER_SM) * ROW
        fill(0, WIDTH, y, y + 1, SEPARATOR)
        y += 1
    for sm, row, enter, prologue_ns, leave, _ in run["ctas"]:
        y0 = top[sm] + row * ROW
        fill(x_of(enter), x_of(leave), y0, y0 + ROW - 1, RESIDENT)
        if prologue_ns:
            fill(x_of(enter), x_of(enter + prologue_ns), y0, y0 + ROW - 1, PROLOGUE)
    for sm, row, start, end, index in run["items"]:
        y0 = top[sm] + row * ROW
        fill(x_of(start), x_of(end), y0, y0 + ROW - 1, block_colour(index / max(1, items_total - 1)))
    # Canceled: launched, left again, ran nothing (drawn last so that a one-pixel life shows).
    for sm, row, enter, prologue_ns, leave, blocks in run["ctas"]:
        if blocks == 0:
            y0 = top[sm] + row * ROW
            fill(x_of(enter), x_of(leave), y0, y0 + ROW - 1, CANCELED)
    y = detail_height + 2
    bins = len(next(iter(run["util"].values()), []))
    for sm in util_sms:
        for b, busy in enumerate(run["util"][sm]):
            shade = int(255 - 200 * min(1.0, busy / 100.0 / SLOTS_PER_SM))
            x0, x1 = int(b * WIDTH * run["span"] / span / bins), int((b + 1) * WIDTH * run["span"] / span / bins)
            fill(min(x0, WIDTH - 1), min(x1, WIDTH), y, y + UTIL_ROW, (shade, shade, 255 if busy else 255))
        y += UTIL_ROW
    return px, WIDTH, height


def median_gap(run):
    """Median time from the end of one block to the start of the next in the same CTA slot (ns):
    what scheduling costs per block on the critical path, a CTA's exit and the next one's launch
    included where a slot changes hands."""
    by_slot = defaultdict(list)
    for sm, row, start, end, _ in run["items"]:
        by_slot[sm, row].append((start, end))
    gaps = sorted(b[0] - a[1] for spans in by_slot.values() for a, b in zip(sorted(spans), sorted(spans)[1:]))
    return gaps[len(gaps) // 2] if gaps else 0


def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    run_dir, out_dir = Path(argv[1]), Path(argv[2])
    out_dir.mkdir(parents=True, exist_ok=True)
    results = json.loads(Path(run_dir, "scheduling.json").read_text())
    items_total = results["items"]
    ratio = {(w["name"], w["group"], r["strategy"]): r["best_ms"] / w["bound_ms"]
             for w in results["workloads"] for r in w["runs"]}
    runs = [r for r in read_runs(run_dir) if r["group"] == 1]
    by_workload = defaultdict(list)
    for r in runs:
        by_workload[r["workload"]].append(r)
    md = ["Per-SM timelines of the run above (one untimed launch per strategy): on top one row per CTA slot "
          "of the first SMs -- grey resident, orange its prologue, its blocks coloured by block index (blue "
          "the grid's first, yellow its last), red a CTA that was launched and ran nothing; below, every SM's "
          "occupancy. All strategies of a workload share one time scale, its full width given with it.", ""]
    for workload, group in by_workload.items():
        span = max(r["span"] for r in group)
        md += [f"#### {workload} (full width {span / 1e6:.2f} ms)", "", "| strategy | time / bound | median gap between blocks (ns) | timeline |",
               "|---|---:|---:|---|"]
        for r in group:
            name = f"{slug(workload)}--{slug(r['strategy'])}.png"
            pixels, width, height = draw(r, span, items_total)
            write_png(out_dir / name, pixels, width, height)
            md.append(f"| {r['strategy']} | {ratio.get((workload, 1, r['strategy']), 0):.2f} | {median_gap(r)} | "
                      f"![{r['strategy']}, {workload}]({name}) |")
        md.append("")
    Path(out_dir, "timelines.md").write_text("\n".join(md) + "\n")
    print(f"{len(runs)} timelines in {out_dir}")
    return 0

