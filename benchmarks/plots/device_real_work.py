"""Draws the CSV of ptxw_bench_device_real_work (--out FILE) as SVG.

    benchmarks/plot.py device_real_work tables.csv real_work.svg              # the default run's tables
    benchmarks/plot.py device_real_work sweep.csv real_work_sweep.svg         # a --sweep run
    benchmarks/plot.py device_real_work both.csv real_work.svg sweep.svg      # a file with both (e.g. concatenated)

Tables ("one" and "b2b" rows): one panel per workload, CUB's time over ptxw's default against n
(log2), from the best of the rounds: CUB Bulk, CUB ForEachN and thrust for one call, and CUB Bulk
back to back where it was measured. Above 1, ptxw is faster; the band marks 0.98 to 1.

Sweep ("sweep" rows): a heat map of CUB Bulk / ptxw for every policy (rows) and cell (workload and
n, columns), with each policy's geometric mean and worst case.

Needs matplotlib (pip install matplotlib).
"""
import csv
import math
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.colors import TwoSlopeNorm  # noqa: E402


def read(path):
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r.get("mode") == "mode":  # a header repeated by concatenation
                continue
            r["log2n"] = int(r["log2n"])
            r["min_us"] = float(r["min_us"])
            rows.append(r)
    if not rows:
        sys.exit(f"real_work_plot: no rows in {path}")
    return rows


def tables(rows, out):
    best = {}  # (mode, workload, log2n, contender) -> min us
    for r in rows:
        if r["mode"] in ("one", "b2b"):
            best[(r["mode"], r["workload"], r["log2n"], r["contender"])] = r["min_us"]
    workloads = list(dict.fromkeys(r["workload"] for r in rows if r["mode"] in ("one", "b2b")))
    if not workloads:
        return False
    cols = 3
    nrows = math.ceil(len(workloads) / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(4.2 * cols, 3.0 * nrows), squeeze=False, sharex=True)
    series = [
        ("one", "cub_bulk", "CUB Bulk", "-", "o"),
        ("one", "cub_foreachn", "CUB ForEachN", "--", "s"),
        ("one", "thrust", "thrust", ":", "^"),
        ("b2b", "cub_bulk", "CUB Bulk, back to back", "-.", "x"),
    ]
    for i, wl in enumerate(workloads):
        ax = axes[i // cols][i % cols]
        ax.axhspan(0.98, 1.0, color="#dddddd", zorder=0)
        ax.axhline(1.0, color="black", linewidth=0.8)
        for mode, contender, label, style, marker in series:
            pts = []
            for (m, w, k, c), us in best.items():
                if m == mode and w == wl and c == contender and (m, w, k, "ptxw") in best:
                    pts.append((k, us / best[(m, w, k, "ptxw")]))
            pts.sort()
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker=marker, markersize=3, label=label)
        ax.set_title(wl, fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.set_xlabel("log2 n")
        if i % cols == 0:
            ax.set_ylabel("CUB time / ptxw time")
    for j in range(len(workloads), nrows * cols):
        axes[j // cols][j % cols].axis("off")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.suptitle("ptxw::device::for_each_canceled (default policy) against CUB and thrust: above 1, ptxw is faster",
                 y=0.995, fontsize=11)
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.965), ncol=4, fontsize=9)
    fig.tight_layout(rect=(0, 0, 1, 0.93))
    fig.savefig(out, format="svg")
    plt.close(fig)
    return True


def sweep(rows, out):
    cub = {}
    ptxw = defaultdict(dict)
    for r in rows:
        if r["mode"] != "sweep":
            continue
        cell = (r["workload"], r["log2n"])
        if r["contender"] == "cub_bulk":
            cub[cell] = r["min_us"]
        else:
            ptxw[r["policy"]][cell] = r["min_us"]
    if not cub or not ptxw:
        return False
    cells = list(dict.fromkeys((r["workload"], r["log2n"]) for r in rows if r["mode"] == "sweep"))
    policies = list(dict.fromkeys(r["policy"] for r in rows if r["mode"] == "sweep" and r["contender"] == "ptxw"))
    grid, gm, worst = [], [], []
    for p in policies:
        line = [cub[c] / ptxw[p][c] if c in ptxw[p] and c in cub else float("nan") for c in cells]
        vals = [v for v in line if not math.isnan(v)]
        grid.append(line)
        gm.append(math.exp(sum(math.log(v) for v in vals) / len(vals)) if vals else float("nan"))
        worst.append(min(vals) if vals else float("nan"))
    flat = [v for line in grid for v in line if not math.isnan(v)]
    lo, hi = min(flat + [0.99]), max(flat + [1.01])
    fig, ax = plt.subplots(figsize=(max(8, 0.32 * len(cells) + 4), max(6, 0.2 * len(policies) + 2)))
    im = ax.imshow(grid, aspect="auto", cmap="RdBu", norm=TwoSlopeNorm(vcenter=1.0, vmin=lo, vmax=hi))
    ax.set_xticks(range(len(cells)))
    ax.set_xticklabels([f"{w} 2^{k}" for w, k in cells], rotation=90, fontsize=7)
    ax.set_yticks(range(len(policies)))
    ax.set_yticklabels([f"{p}  gm {g:.3f}  worst {w:.3f}" for p, g, w in zip(policies, gm, worst)], fontsize=7,
                       family="monospace")
    fig.colorbar(im, ax=ax, label="CUB Bulk time / ptxw time (above 1: ptxw faster)")
    ax.set_title("ptxw policy sweep: threads x rounds / shared rounds, per workload and n")
    fig.tight_layout()
    fig.savefig(out, format="svg")
    plt.close(fig)
    return True


def main(argv):
    if len(argv) not in (3, 4):
        sys.exit(__doc__)
    rows = read(argv[1])
    drew = tables(rows, argv[2])
    sweep_out = argv[3] if len(argv) == 4 else (argv[2] if not drew else None)
    if sweep_out is not None:
        drew = sweep(rows, sweep_out) or drew
    if not drew:
        sys.exit("real_work_plot: neither table nor sweep rows in the input")

