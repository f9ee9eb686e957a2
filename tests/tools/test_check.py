"""`ptxw check` (what ptxw_add_codegen_test runs): checks that hold pass, checks that do not fail with
FileCheck's message, and bad input or an unsupported target is said, with its own exit status."""

import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

from ptxwtools import toolchain

PTXW = toolchain.REPO / "tools" / "ptxw"
KERNEL = textwrap.dedent("""\
    #include <ptxw/mbarrier.h>
    extern "C" __global__ void k() { __shared__ ptxw::cta_barrier bar; bar.arrive(); }
    """)
HOLDS = "PTX: mbarrier.arrive.release.cta\nSASS-SM90A: SYNCS.ARRIVE.TRANS64.A1T0\n"


def check(tmp, checks_text, *args, target="sm_90a", nvcc=()):
    src, checks = Path(tmp, "k.cu"), Path(tmp, "k.checks")
    src.write_text(KERNEL)
    checks.write_text(checks_text)
    cmd = [sys.executable, str(PTXW), "check", "--target", target, "--checks", str(checks), "--out", str(Path(tmp, "out")),
           *args, str(src), *(("--", *nvcc) if nvcc else ())]
    return subprocess.run(cmd, capture_output=True, text=True)


class CheckTest(unittest.TestCase):
    def test_checks_that_hold(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = check(tmp, HOLDS)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertIn("PTX checks hold for sm_90a", out.stdout)
        self.assertIn("SASS checks hold for sm_90a", out.stdout)

    def test_wrong_qualifier_fails(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = check(tmp, "PTX: mbarrier.arrive.relaxed.cta\n")
        self.assertEqual(out.returncode, 1)
        self.assertIn("expected string not found", out.stderr)
        self.assertIn("PTX checks failed for sm_90a", out.stderr)

    def test_target_prefix_selects_the_target(self):
        # Only SASS-SM90A lines: on sm_100a nothing is left to check, which is an error, not a pass.
        with tempfile.TemporaryDirectory() as tmp:
            out = check(tmp, "SASS-SM90A: SYNCS.ARRIVE\n", target="sm_100a")
        self.assertEqual(out.returncode, 2)
        self.assertIn("no FileCheck directive for sm_100a", out.stderr)

    def test_unknown_target(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = check(tmp, HOLDS, target="sm90")
        self.assertEqual(out.returncode, 2)
        self.assertIn("unknown target 'sm90'", out.stderr)

    def test_target_ptxas_lacks_is_skipped(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = check(tmp, "PTX: mbarrier\n", target="sm_99")
        self.assertEqual(out.returncode, 77)
        self.assertIn("ptxw check: unsupported: ptxas", out.stderr)
        self.assertIn("does not know sm_99", out.stderr)

    def test_requires_a_feature_ptxas_rejects_is_skipped(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = check(tmp, HOLDS, "--requires", "clc")
        self.assertEqual(out.returncode, 77)
        self.assertIn("rejects clc for sm_90a", out.stderr)

    def test_unknown_feature(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = check(tmp, HOLDS, "--requires", "clcc")
        self.assertEqual(out.returncode, 2)
        self.assertIn("unknown --requires feature clcc", out.stderr)

    def test_compile_error_fails_with_nvcc_message(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = check(tmp, HOLDS, nvcc=("-include", "/nonexistent.h"))
        self.assertEqual(out.returncode, 1)
        self.assertIn("ptxw check: command failed", out.stderr)


if __name__ == "__main__":
    unittest.main()
