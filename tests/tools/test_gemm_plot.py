"""benchmarks/plots/gemm.py's summary of a --timeline CSV: the median tile and the start gaps of
tiles that share an operand, on a timeline whose answers are known."""

import importlib.util
import sys
import tempfile
import unittest
from pathlib import Path

PLOTS = Path(__file__).resolve().parents[2] / "benchmarks" / "plots"


def load():
    sys.path.insert(0, str(PLOTS))
    spec = importlib.util.spec_from_file_location("gemm_plot", PLOTS / "gemm.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class SummaryTest(unittest.TestCase):
    def test_gaps_and_median(self):
        # Two SMs, one group. SM 0 runs (m 0, n 0) at 0 and (m 1, n 1) at 10 us; SM 1 runs (m 0, n 1)
        # at 3 us and (m 1, n 0) at 14 us; each ends 10 us after its last start.
        rows = ["policy,sm,group,m,n,ns",
                "p,0,0,0,0,0", "p,0,0,1,1,10000", "p,0,-1,0,0,20000",
                "p,1,0,0,1,3000", "p,1,0,1,0,14000", "p,1,-1,0,0,24000"]
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "t.csv"
            path.write_text("\n".join(rows) + "\n")
            plot = load()
            (line,) = plot.summary(plot.read(path))
        # Tiles last 10, 10, 11, 10 us. Row sharers: m 0 at 0 and 3 us, m 1 at 10 and 14: gaps 3, 3, 4, 4.
        # Column sharers: n 0 at 0 and 14, n 1 at 3 and 10: gaps 14, 14, 7, 7.
        self.assertEqual(line, "p: 4 tiles, median tile 10.0 us, start gap to the nearest tile sharing A rows "
                               "3.5 us, B columns 10.5 us")


if __name__ == "__main__":
    unittest.main()
