"""`ptxw codegen` end to end on bad input: unknown targets, missing or broken toolchains, and a
ptxas that lacks the target. Each must say what is wrong; none may pass silently."""

import os
import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

from ptxwtools import toolchain

PTXW = toolchain.REPO / "tools" / "ptxw"
REAL = toolchain.find_toolchain()
ONE_TEST = "mbarrier/arrive.cu"


def fake_root(tmp, nvcc_body, ptxas_body):
    """A CUDA root whose nvcc and ptxas are shell scripts around (or instead of) the real ones."""
    bin_dir = Path(tmp, "cuda", "bin")
    bin_dir.mkdir(parents=True)
    for name, body in (("nvcc", nvcc_body), ("ptxas", ptxas_body)):
        script = bin_dir / name
        script.write_text("#!/bin/sh\n" + textwrap.dedent(body).format(real=REAL.root / "bin"))
        script.chmod(0o755)
    return bin_dir.parent


def codegen(*args, tmp):
    cmd = [sys.executable, str(PTXW), "codegen", "--no-setup", "--build-dir", str(Path(tmp, "build")), *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, LIT_FILTER=ONE_TEST))


class BadInputTest(unittest.TestCase):
    def test_unknown_target(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = codegen("--targets", "sm_90a", "sm_99z", tmp=tmp)
        self.assertEqual(out.returncode, 2)
        self.assertIn("unknown target 'sm_99z'", out.stderr)

    def test_missing_toolchain(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = codegen("--targets", "sm_90a", "--cuda-root", str(Path(tmp, "nowhere")), tmp=tmp)
        self.assertEqual(out.returncode, 2)
        self.assertIn("no CUDA toolchain at", out.stderr)

    def test_target_the_toolchain_lacks_is_unsupported(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = fake_root(tmp, 'exec {real}/nvcc "$@"\n', """\
                if [ "$1" = "--help" ]; then {real}/ptxas --help | sed "s/'sm_121a',//"; exit 0; fi
                exec {real}/ptxas "$@"
                """)
            out = codegen("--targets", "sm_121a", "--cuda-root", str(root), tmp=tmp)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertIn("does not know sm_121a", out.stdout + out.stderr)
        self.assertRegex(out.stdout, r"sm_121a\s+0\s+1\s+0")

    def test_crashing_ptxas_fails_loudly(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = fake_root(tmp, 'exec {real}/nvcc "$@"\n', 'echo "ptxas: Segmentation fault" >&2; exit 139\n')
            out = codegen("--targets", "sm_90a", "--cuda-root", str(root), tmp=tmp)
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("ptxas", out.stdout + out.stderr)
        self.assertRegex(out.stdout, r"sm_90a\s+0\s+0\s+[1-9]")

    def test_broken_nvcc_fails_loudly(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = fake_root(tmp, 'echo "nvcc: internal error" >&2; exit 1\n', 'exec {real}/ptxas "$@"\n')
            out = codegen("--targets", "sm_90a", "--cuda-root", str(root), tmp=tmp)
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("cannot compile an empty kernel", out.stdout + out.stderr)
        self.assertIn("nvcc: internal error", out.stdout + out.stderr)


class FindToolsTest(unittest.TestCase):
    def test_filecheck_from_environment_must_exist(self):
        os.environ["PTXW_FILECHECK"] = "/nonexistent/FileCheck"
        try:
            with self.assertRaisesRegex(toolchain.ToolError, "PTXW_FILECHECK=/nonexistent/FileCheck"):
                toolchain.find_filecheck()
        finally:
            del os.environ["PTXW_FILECHECK"]


if __name__ == "__main__":
    unittest.main()
