"""`ptxw check` (what ptxw_add_codegen_test runs): checks that hold pass, checks that do not fail with
FileCheck's message, and bad input or an unsupported target is said, with its own exit status."""

import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

from ptxwtools.core import toolchain

PTXW = toolchain.REPO / "tools" / "ptxw"
KERNEL = textwrap.dedent("""\
    #include <ptxw/mbarrier.h>
    extern "C" __global__ void k() { __shared__ ptxw::cta_barrier bar; bar.arrive(); }
    """)
HOLDS = "PTX: mbarrier.arrive.release.cta\nSASS-SM90A: SYNCS.ARRIVE.TRANS64.A1T0\n"


def check(checks_text, *args, target="sm_90a", nvcc=()):
    with tempfile.TemporaryDirectory() as tmp:
        src, checks = Path(tmp, "k.cu"), Path(tmp, "k.checks")
        src.write_text(KERNEL)
        checks.write_text(checks_text)
        cmd = [sys.executable, str(PTXW), "check", "--target", target, "--checks", str(checks), "--out",
               str(Path(tmp, "out")), *args, str(src), *(("--", *nvcc) if nvcc else ())]
        return subprocess.run(cmd, capture_output=True, text=True)


class CheckTest(unittest.TestCase):
    def assertExits(self, out, status, *messages):
        """`ptxw check` exited with status and said each message on stderr."""
        self.assertEqual(out.returncode, status, out.stdout + out.stderr)
        for message in messages:
            self.assertIn(message, out.stderr)

    def test_checks_that_hold(self):
        out = check(HOLDS)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertIn("PTX checks hold for sm_90a", out.stdout)
        self.assertIn("SASS checks hold for sm_90a", out.stdout)

    def test_wrong_qualifier_fails(self):
        out = check("PTX: mbarrier.arrive.relaxed.cta\n")
        self.assertExits(out, 1, "expected string not found", "PTX checks failed for sm_90a")

    def test_target_prefix_selects_the_target(self):
        # Only SASS-SM90A lines: on sm_100a nothing is left to check, which is an error, not a pass.
        out = check("SASS-SM90A: SYNCS.ARRIVE\n", target="sm_100a")
        self.assertExits(out, 2, "no FileCheck directive for sm_100a")

    def test_unknown_target(self):
        self.assertExits(check(HOLDS, target="sm90"), 2, "unknown target 'sm90'")

    def test_target_ptxas_lacks_is_skipped(self):
        out = check("PTX: mbarrier\n", target="sm_99")
        self.assertExits(out, 77, "ptxw check: unsupported: ptxas", "does not know sm_99")

    def test_requires_a_feature_ptxas_rejects_is_skipped(self):
        self.assertExits(check(HOLDS, "--requires", "clc"), 77, "rejects clc for sm_90a")

    def test_unknown_feature(self):
        self.assertExits(check(HOLDS, "--requires", "clcc"), 2, "unknown --requires feature clcc")

    def test_compile_error_fails_with_nvcc_message(self):
        out = check(HOLDS, nvcc=("-include", "/nonexistent.h"))
        self.assertExits(out, 1, "ptxw check: command failed")


if __name__ == "__main__":
    unittest.main()
