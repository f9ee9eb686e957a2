"""`ptxw conformance` end to end on a small grid: measured cells with their commands and outputs,
gate verdicts, bad input (an unknown target, a missing toolchain: exit 2 before anything is written),
and a crashing ptxas marked in the grid with why, the rest still measured, and exit 1."""

import json
import os
import subprocess
import sys
import tempfile
import unittest
from dataclasses import asdict
from pathlib import Path

from ptxwtools.conformance import grid
from ptxwtools.core import variants
from test_cli import PTXW, REAL, fake_root

VARIANTS = ("clusterlaunchcontrol.try_cancel", "mbarrier.init")


def run_grid(tmp, *args):
    out = Path(tmp, "report")
    cmd = [sys.executable, str(PTXW), "conformance", "--no-default-toolchains", "--no-cache", "--build-dir",
           str(Path(tmp, "build")), "--out", str(out), "--variants", *VARIANTS, *args]
    run = subprocess.run(cmd, capture_output=True, text=True)
    report = json.loads(Path(out, "conformance.json").read_text()) if Path(out, "conformance.json").exists() else None
    return run, report


def cell(report, target, variant):
    (c,) = [c for c in report["cells"] if c["target"] == target and c["variant"] == variant]
    return c


class ConformanceTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.proc, cls.report = run_grid(cls.tmp.name, "--cuda-root", str(REAL.root), "--targets", "sm_90a", "sm_100a")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_clc_accepted_on_blackwell_with_its_opcode(self):
        c = cell(self.report, "sm_100a", "clusterlaunchcontrol.try_cancel")
        self.assertEqual(c["ptxas"]["verdict"], "accept")
        self.assertIn("UGETNEXTWORKID.SELFCAST", c["sass"])
        self.assertEqual(c["ptxw"]["verdict"], "accept")
        self.assertIn("--gpu-name=sm_100a", c["ptxas"]["command"])  # traceable: the command behind it

    def test_clc_rejected_on_hopper_by_ptxas_and_both_gates(self):
        c = cell(self.report, "sm_90a", "clusterlaunchcontrol.try_cancel")
        self.assertEqual(c["ptxas"]["verdict"], "reject")
        self.assertIn("sm_100", c["ptxas"]["output"])  # ptxas's own message
        self.assertEqual(c["ptxw"]["verdict"], "reject")
        self.assertIn("ptxw: R9", c["ptxw"]["output"])
        self.assertTrue(c["cccl"]["verdict"].startswith("reject"), c["cccl"])
        self.assertFalse(c["disagrees"])

    def test_mbarrier_init_everywhere(self):
        for target in ("sm_90a", "sm_100a"):
            c = cell(self.report, target, "mbarrier.init")
            self.assertEqual((c["ptxas"]["verdict"], c["ptxw"]["verdict"], c["cccl"]["verdict"]), ("accept",) * 3)
            self.assertIn("SYNCS.EXCH.64", c["sass"])

    def test_all_agree(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stdout + self.proc.stderr)
        self.assertFalse(any(c["disagrees"] for c in self.report["cells"]))

    def test_reports_written(self):
        for name in ("conformance.md", "conformance.html"):
            text = Path(self.tmp.name, "report", name).read_text()
            self.assertIn("UGETNEXTWORKID.SELFCAST", text)


    def test_compare_names_each_changed_cell_and_only_those(self):
        before = json.loads(Path(self.tmp.name, "report", "conformance.json").read_text())
        cell(before, "sm_90a", "mbarrier.init")["ptxw"]["verdict"] = "reject"  # as if ptxw's gate had changed
        cell(before, "sm_100a", "mbarrier.init")["sass"].append("MEMBAR.ALL.GPU")
        gone = dict(cell(before, "sm_90a", "mbarrier.init"), target="sm_100f")  # a cell the grid lacks now
        before["cells"].append(gone)
        path = Path(self.tmp.name, "before.json")
        path.write_text(json.dumps(before))
        run = subprocess.run([sys.executable, str(PTXW), "conformance", "--no-default-toolchains", "--toolchain",
                              str(REAL.root), "--targets", "sm_90a", "sm_100a", "--variants", *VARIANTS,
                              "--build-dir", str(Path(self.tmp.name, "build")), "--out", str(Path(self.tmp.name, "again")),
                              "--compare", str(path)], capture_output=True, text=True)
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        version = cell(before, "sm_90a", "mbarrier.init")["toolchain"]
        self.assertIn(f"3 of {len(before['cells'])} cells changed", run.stdout)
        self.assertIn(f"{version} sm_90a mbarrier.init: ptxw 'reject' -> 'accept'", run.stdout)
        self.assertIn(f"{version} sm_100a mbarrier.init: sass", run.stdout)
        self.assertIn(f"{version} sm_100f mbarrier.init: not in the grid any more", run.stdout)


class DisagreementTest(unittest.TestCase):
    """Cells where a gate disagrees with ptxas (the conformance report's findings):
    with CUDA 13.0, CCCL refuses mbarrier.arrive.release.cta on sm_80, which ptxas accepts (ptxw refuses it too, but the PTX ISA gives
    the form from sm_90 only: ptxw agrees, as `ptxw gate` says); CCCL 3.0.1 refuses the multicast
    try_cancel on sm_100f (at link time), which ptxas and ptxw accept. The flag is set on exactly those
    cells, and --fail-on-disagreement turns them into exit 1."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.args = ["--no-default-toolchains", "--cuda-root", str(REAL.root), "--build-dir", str(Path(cls.tmp.name, "build")),
                    "--out", str(Path(cls.tmp.name, "report")), "--targets", "sm_80", "sm_100f", "--variants",
                    "mbarrier.arrive.release.cta", "clusterlaunchcontrol.try_cancel.multicast"]
        cls.proc = subprocess.run([sys.executable, str(PTXW), "conformance", *cls.args], capture_output=True, text=True)
        cls.report = json.loads(Path(cls.tmp.name, "report", "conformance.json").read_text())

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_cccl_alone_disagrees_on_sm80(self):
        c = cell(self.report, "sm_80", "mbarrier.arrive.release.cta")
        self.assertEqual((c["ptxas"]["verdict"], c["ptxw"]["verdict"], c["cccl"]["verdict"]),
                         ("accept", "reject", "reject (link time)"))
        self.assertEqual(c["problems"], ["cccl rejects what ptxas accepts (link time)"])
        self.assertTrue(c["disagrees"])
        self.assertIn("ptxw ✗ (ISA) cccl ✗link", Path(self.tmp.name, "report", "conformance.md").read_text())

    def test_the_gate_command_agrees_with_the_grid(self):
        out = subprocess.run([sys.executable, str(PTXW), "gate", "--targets", "sm_80", "--cuda-root", str(REAL.root)],
                             capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertIn("R9 errors where ptxas accepts them but the PTX ISA gives a newer target", out.stdout)
        self.assertIn("mbarrier.arrive.release.cta", out.stdout)
        ptxw_problems = [p for c in self.report["cells"] for p in c["problems"] if p.startswith("ptxw")]
        self.assertEqual(ptxw_problems, [])

    def test_cccl_alone_disagrees_on_sm100f(self):
        c = cell(self.report, "sm_100f", "clusterlaunchcontrol.try_cancel.multicast")
        self.assertEqual((c["ptxas"]["verdict"], c["ptxw"]["verdict"], c["cccl"]["verdict"]),
                         ("accept", "accept", "reject (link time)"))
        self.assertEqual(c["problems"], ["cccl rejects what ptxas accepts (link time)"])
        self.assertTrue(c["disagrees"])

    def test_agreeing_cells_are_not_flagged(self):
        self.assertFalse(cell(self.report, "sm_80", "clusterlaunchcontrol.try_cancel.multicast")["disagrees"])
        self.assertFalse(cell(self.report, "sm_100f", "mbarrier.arrive.release.cta")["disagrees"])

    def test_exit_status(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stdout + self.proc.stderr)
        self.assertIn("where a gate or a run disagrees:", self.proc.stdout)
        failing = subprocess.run([sys.executable, str(PTXW), "conformance", *self.args, "--fail-on-disagreement"],
                                 capture_output=True, text=True)  # the cached grid again
        self.assertEqual(failing.returncode, 1, failing.stdout + failing.stderr)


class ProblemTest(unittest.TestCase):
    """Each concern on its own, from the verdicts of one cell (grid._cell)."""

    def problems(self, ptxas, ptxw, cccl):
        steps = [asdict(grid.Step(grid.Verdict(v))) for v in (ptxas, ptxw, cccl)]
        c = grid._cell(REAL, "sm_100a", variants.BY_ID["mbarrier.init"], {"step": steps[0]}, steps[1], steps[2], None)
        return [p.concern for p in c.problems], c.disagrees

    def test_each_gate(self):
        C = grid.Concern
        self.assertEqual(self.problems("accept", "accept", "accept"), ([], False))
        self.assertEqual(self.problems("accept", "reject", "accept"), ([C.PTXW], True))
        self.assertEqual(self.problems("reject", "accept", "reject (link time)"), ([C.PTXW], True))
        self.assertEqual(self.problems("accept", "accept", "reject (compile time)"), ([C.CCCL], True))
        self.assertEqual(self.problems("reject", "reject", "accept"), ([C.CCCL], True))
        self.assertEqual(self.problems("accept", "no nvcc", "no nvcc"), ([], False))
        self.assertEqual(self.problems("accept", "accept", "no binding"), ([], False))

    def test_refusing_what_the_isa_gives_only_to_newer_targets_is_agreeing(self):
        arrive = variants.BY_ID["mbarrier.arrive.release.cta"]  # sm_90 in the PTX ISA; ptxas 13.0 takes it on sm_80
        steps = [asdict(grid.Step(grid.Verdict(v))) for v in ("accept", "reject", "no binding", "accept")]
        c = grid._cell(REAL, "sm_80", arrive, {"step": steps[0]}, steps[1], steps[2], None)
        self.assertEqual((c.problems, c.disagrees), ([], False))
        c = grid._cell(REAL, "sm_80", arrive, {"step": steps[0]}, steps[3], steps[2], None)
        self.assertEqual([str(p) for p in c.problems], ["ptxw accepts what the PTX ISA gives only from sm_90"])

    def test_unmeasured_is_no_disagreement(self):
        error = asdict(grid.Step(grid.Verdict.ERROR, why="ptxas killed by signal 11"))
        accept = asdict(grid.Step(grid.Verdict.ACCEPT))
        c = grid._cell(REAL, "sm_100a", variants.BY_ID["mbarrier.init"], {"step": error}, accept, accept, None)
        self.assertEqual([str(p) for p in c.problems], ["unmeasured: error: ptxas killed by signal 11"])
        self.assertTrue(c.unmeasured)
        self.assertFalse(c.disagrees)


class BadInputTest(unittest.TestCase):
    """Bad arguments exit 2 before anything is installed or written."""

    def check(self, *args, message):
        with tempfile.TemporaryDirectory() as tmp:
            deps = Path(tmp, "deps")
            out = Path(tmp, "report")
            cmd = [sys.executable, str(PTXW), "conformance", "--build-dir", str(Path(tmp, "build")), "--out", str(out), *args]
            run = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, PTXW_DEPS_DIR=str(deps)))
            self.assertEqual(run.returncode, 2, run.stdout + run.stderr)
            self.assertIn(f"ptxw conformance: {message}", run.stderr)
            self.assertEqual(sorted(p.name for p in Path(tmp).iterdir()), [])

    def test_unknown_target(self):
        self.check("--targets", "sm_90a", "sm_99x", message="unknown target 'sm_99x'")

    def test_unknown_variant(self):
        self.check("--variants", "mbarrier.nope*", message="no variant matches mbarrier.nope*")

    def test_missing_toolchain(self):
        self.check("--cuda-root", "/nowhere/cuda", message="no CUDA toolchain at /nowhere/cuda")

    def test_unreadable_grid_to_compare(self):
        self.check("--compare", "/nowhere.json", message="cannot read a grid from /nowhere.json")

    def test_missing_runtime_results(self):
        self.check("--runtime-results", "/nowhere.xml", message="cannot read runtime results /nowhere.xml")


class BrokenToolchainTest(unittest.TestCase):
    def test_crashing_ptxas(self):
        with tempfile.TemporaryDirectory() as tmp:
            crashing = fake_root(tmp, 'exec {real}/nvcc "$@"\n', """\
                case "$1" in --help|--version) exec {real}/ptxas "$@";; esac
                kill -SEGV $$
                """)
            run, report = run_grid(tmp, "--cuda-root", str(crashing), "--targets", "sm_100a")
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertIn("ptxas killed by signal 11", run.stdout)
        c = cell(report, "sm_100a", "mbarrier.init")
        self.assertEqual(c["ptxas"]["verdict"], "error: ptxas killed by signal 11")
        self.assertIn("unmeasured", " ".join(c["problems"]))
        # the gates do not need ptxas: still measured
        self.assertEqual(c["ptxw"]["verdict"], "accept")


if __name__ == "__main__":
    unittest.main()


class AssemblerOnlyToolchainTest(unittest.TestCase):
    """A toolchain with ptxas but no nvcc (CUDA 12.9 from PyPI): ptxas columns measured, gates 'no nvcc',
    and neither a disagreement nor a failure."""

    def test_ptxas_only(self):
        with tempfile.TemporaryDirectory() as tmp:
            bin_dir = Path(tmp, "cuda", "bin")
            bin_dir.mkdir(parents=True)
            bin_dir.joinpath("ptxas").symlink_to(REAL.ptxas)
            run, report = run_grid(tmp, "--cuda-root", str(bin_dir.parent), "--targets", "sm_90a", "sm_100a")
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("ptxas only: no nvcc", run.stdout)
        c = cell(report, "sm_100a", "clusterlaunchcontrol.try_cancel")
        self.assertEqual(c["ptxas"]["verdict"], "accept")
        self.assertIn("UGETNEXTWORKID.SELFCAST", "\n".join(c["kernel"]["listing"]))
        self.assertEqual((c["ptxw"]["verdict"], c["cccl"]["verdict"]), ("no nvcc", "no nvcc"))
        self.assertEqual(c["problems"], [])
