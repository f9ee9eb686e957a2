"""SVG drawing for the benchmarks' plots, with no plotting library."""
import math

COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
           "#17becf", "#000000", "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94", "#f7b6d2",
           "#c7c7c7", "#dbdb8d", "#9edae5", "#393b79"]


class Svg:
    def __init__(self, width, height):
        self.w, self.h, self.parts = width, height, []

    def add(self, s):
        self.parts.append(s)

    def text(self, x, y, s, size=11, anchor="start", rotate=None):
        tr = f' transform="rotate({rotate} {x:.1f} {y:.1f})"' if rotate is not None else ""
        s = s.replace("&", "&amp;").replace("<", "&lt;")
        self.add(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" font-family="sans-serif" '
                 f'text-anchor="{anchor}"{tr}>{s}</text>')

    def line(self, x1, y1, x2, y2, colour="black", width=1, dash=None):
        d = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
                 f'stroke-width="{width}"{d}/>')

    def rect(self, x, y, w, h, colour):
        self.add(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" fill="{colour}"/>')

    def polyline(self, pts, colour):
        p = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        self.add(f'<polyline points="{p}" fill="none" stroke="{colour}" stroke-width="1.5"/>')
        for x, y in pts:
            self.add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="{colour}"/>')

    def lanes_axis(self, x0, width, top, height, t_max, unit):
        """Below lanes of SMs drawn from `top` for `height` pixels: a time axis from 0 to t_max
        (in thousandths of `unit`) over `width` pixels from x0, and the SM label."""
        bottom = top + height
        self.line(x0, bottom, x0 + width, bottom)
        step = 10 ** math.floor(math.log10(t_max / 4))
        for i in range(0, int(t_max / step) + 1):
            x = x0 + i * step / t_max * width
            self.line(x, bottom, x, bottom + 4)
            self.text(x, bottom + 15, f"{i * step / 1000:g}", 9, "middle")
        self.text(x0 - 8, top + height / 2, "SM", 10, "middle", rotate=-90)
        self.text(x0 + width, bottom + 26, unit, 10, "end")

    def save(self, path):
        with open(path, "w") as f:
            f.write(f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.w}" height="{self.h}" '
                    f'viewBox="0 0 {self.w} {self.h}">\n<rect width="100%" height="100%" fill="white"/>\n')
            f.write("\n".join(self.parts))
            f.write("\n</svg>\n")
