"""`ptxw conformance` end to end on a small grid: measured cells with their commands and outputs,
gate verdicts, and bad input (an unknown target, a missing toolchain, a crashing ptxas) marked in
the grid with why, the rest still measured, and a non-zero exit."""

import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from test_cli import PTXW, REAL, fake_root

VARIANTS = ("clusterlaunchcontrol.try_cancel", "mbarrier.init")


def conformance(tmp, *args):
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
        cls.proc, cls.report = conformance(cls.tmp.name, "--toolchain", str(REAL.root), "--targets", "sm_90a", "sm_100a",
                                          "sm_9x")

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

    def test_unknown_target_is_marked_and_fails_the_run(self):
        self.assertEqual(self.proc.returncode, 1, self.proc.stdout + self.proc.stderr)
        c = cell(self.report, "sm_9x", "mbarrier.init")
        self.assertIn("unknown target 'sm_9x'", " ".join(c["problems"]))
        self.assertIn("unknown target 'sm_9x'", self.proc.stdout)

    def test_reports_written(self):
        for name in ("conformance.md", "conformance.html"):
            text = Path(self.tmp.name, "report", name).read_text()
            self.assertIn("UGETNEXTWORKID.SELFCAST", text)


class BrokenToolchainTest(unittest.TestCase):
    def test_missing_toolchain_and_crashing_ptxas(self):
        with tempfile.TemporaryDirectory() as tmp:
            crashing = fake_root(tmp, 'exec {real}/nvcc "$@"\n', """\
                case "$1" in --help|--version) exec {real}/ptxas "$@";; esac
                kill -SEGV $$
                """)
            run, report = conformance(tmp, "--toolchain", str(Path(tmp, "nowhere")), "--toolchain", str(crashing),
                                      "--targets", "sm_100a")
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertIn("nowhere", run.stdout)
        self.assertIn("no CUDA toolchain at", run.stdout)
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
            run, report = conformance(tmp, "--toolchain", str(bin_dir.parent), "--targets", "sm_90a", "sm_100a")
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("ptxas only: no nvcc", run.stdout)
        c = cell(report, "sm_100a", "clusterlaunchcontrol.try_cancel")
        self.assertEqual(c["ptxas"]["verdict"], "accept")
        self.assertIn("UGETNEXTWORKID.SELFCAST", "\n".join(c["kernel"]["listing"]))
        self.assertEqual((c["ptxw"]["verdict"], c["cccl"]["verdict"]), ("no nvcc", "no nvcc"))
        self.assertEqual(c["problems"], [])
