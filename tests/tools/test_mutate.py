"""The mutant list (tools/mutation/mutants.txt) stays applicable as the code changes: every line parses
and its original text is in its file exactly once. Running the mutants is by hand (docs/mutation.md).
The gpu check kind without a GPU: how its line is read, how its sources are built, how a run's end
becomes a verdict (on fake test binaries), and the error where no GPU is -- never a survivor."""

import contextlib
import io
import os
import re
import tempfile
import textwrap
import unittest
from pathlib import Path
from unittest import mock

from ptxwtools import cli
from ptxwtools.core import errors
from ptxwtools.mutate import gpu_check, mutants

GPU_FILTER = "ClcBackendTable.CounterTypedRequestsWithClaimsOfSeveralBlocks"


class MutantListTest(unittest.TestCase):
    def test_every_mutant_applies(self):
        listed = mutants.parse(mutants.DEFAULT_MUTANTS.read_text(), "mutants.txt")
        self.assertGreaterEqual(len(listed), 40)
        self.assertGreaterEqual(sum(m.kind == "gpu" for m in listed), 15)
        for m in listed:
            with self.subTest(line=m.line):
                self.assertTrue(mutants.applies(m), f"line {m.line}: '{m.original}' is not in {m.path} exactly once")

    def test_a_malformed_line_is_bad_input(self):
        for line in ("a.h\told\tnew", "a.h\told\tnew\t", "a.h\told\tnew\tmake test"):
            with self.subTest(line=line), self.assertRaisesRegex(errors.BadInput, "tab-separated"):
                mutants.parse(line, "m.txt")


class GpuCheckTest(unittest.TestCase):
    def test_a_gpu_line_names_mode_sources_filter_and_a_sanitizer(self):
        m = mutants.parse(f"a.h\told\tnew\tgpu unchecked a_test.cu,b_test.cu {GPU_FILTER}", "m.txt")[0]
        self.assertEqual(m.kind, "gpu")
        self.assertEqual(gpu_check.parse(m.check.split()[1:]),
                         gpu_check.Check("unchecked", ("a_test.cu", "b_test.cu"), GPU_FILTER))
        c = gpu_check.parse(["checked", "a_test.cu", "A.*", "racecheck"])
        self.assertEqual((c.tool, c.binary), ("racecheck", "checked-a_test"))

    def test_a_malformed_gpu_line_is_bad_input_with_its_place(self):
        for check in ("gpu", "gpu checked a_test.cu", "gpu fast a_test.cu A.*", "gpu checked a_test.cpp A.*",
                      "gpu checked ../a_test.cu A.*", "gpu checked a_test.cu A.* valgrind",
                      "gpu checked a_test.cu A.* racecheck more"):
            with self.subTest(check=check), self.assertRaisesRegex(errors.BadInput, r"^m\.txt:1: .*gpu"):
                mutants.parse(f"a.h\told\tnew\t{check}", "m.txt")

    def test_sources_build_as_the_runtime_suites(self):
        gtest = gpu_check.GTest(Path("/g/include"), Path("/g/lib"))
        build = lambda c: gpu_check.build_command(c, Path("/r"), Path("/o/t"), gtest, Path("/cuda/bin/nvcc"))
        cmd = build(gpu_check.Check("checked", ("last_block_test.cu",), "A.*"))
        self.assertIn("-gencode=arch=compute_90a,code=sm_90a", cmd)
        self.assertIn("-std=c++17", cmd)
        self.assertIn("-DPTXW_CHECKED=1", cmd)
        self.assertNotIn("-Xcompiler=-fno-exceptions", cmd)
        self.assertIn("/r/tests/runtime/last_block_test.cu", cmd)
        self.assertEqual(cmd[-4:], ["-L/g/lib", "-lgtest_main", "-lgtest", "-lpthread"])
        cmd = build(gpu_check.Check("unchecked", ("device_test.cu",), "A.*"))
        self.assertIn("-DPTXW_CHECKED=0", cmd)
        self.assertIn("-Xcompiler=-fno-exceptions", cmd)

    def test_the_sources_without_exceptions_are_those_of_the_device_suites(self):
        cmake = (mutants.REPO / "tests" / "runtime" / "CMakeLists.txt").read_text()
        suite = re.search(r"ptxw_runtime_suite\(\$\{name\} \$\{mode\} \$\{prefix\} ([^)]*)\)\s*\n\s*"
                          r"target_compile_options\(\$\{name\} PRIVATE [^)]*-fno-exceptions", cmake)
        self.assertIsNotNone(suite, "the device suites' sources and -fno-exceptions in tests/runtime/CMakeLists.txt")
        self.assertEqual(sorted(suite.group(1).split()), sorted(gpu_check.NO_EXCEPTIONS))

    def test_gtest_is_looked_for_where_debian_and_a_plain_prefix_put_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaisesRegex(errors.BadInput, "no GoogleTest under"):
                gpu_check.GTest.at(Path(tmp))
            (Path(tmp) / "include" / "gtest").mkdir(parents=True)
            (Path(tmp) / "include" / "gtest" / "gtest.h").write_text("")
            (Path(tmp) / "lib").mkdir()
            for lib in ("libgtest.a", "libgtest_main.a"):
                (Path(tmp) / "lib" / lib).write_text("")
            self.assertEqual(gpu_check.GTest.at(Path(tmp)).lib, Path(tmp) / "lib")

    def verdict(self, body, strict, timeout=None):
        """gpu_check.run on a fake test binary: a shell script with this body. No time limit unless the case
        is about one (its script never ends), so that no verdict depends on how busy the machine is."""
        with tempfile.TemporaryDirectory() as tmp:
            binary = Path(tmp, "fake_test")
            binary.write_text("#!/bin/sh\n" + textwrap.dedent(body))
            binary.chmod(0o755)
            return gpu_check.run(gpu_check.Check("checked", ("a_test.cu",), "A.*"), binary, Path(tmp), timeout,
                                  strict)

    def test_a_run_fails_on_a_failed_test_a_crash_or_no_end(self):
        self.assertEqual(self.verdict("""\
            echo '[==========] 2 tests from 1 test suite ran.'
            echo '[  FAILED  ] A.B'
            echo '[  FAILED  ] 1 test, listed below:'
            echo '[  FAILED  ] A.B'
            exit 1""", strict=False), "failed: A.B")
        self.assertEqual(self.verdict("""\
            for t in 1 2 3 4 5; do echo "[  FAILED  ] P/A.B/$t, where GetParam() = $t"; done
            exit 1""", strict=False), "failed: P/A.B/1, P/A.B/2, P/A.B/3 and 2 more")
        self.assertEqual(self.verdict("kill -SEGV $$", strict=False), "exit -11")
        self.assertEqual(self.verdict("while :; do sleep 1; done", strict=False, timeout=0.5), "no end within 0.5 s")

    def test_unmutated_a_run_must_run_tests_and_skip_none(self):
        passed = "echo '[==========] 2 tests from 1 test suite ran.'; echo '[  PASSED  ] 2 tests.'"
        self.assertIsNone(self.verdict(passed, strict=True))
        skipped = "echo '[==========] 2 tests from 1 test suite ran.'; echo '[  SKIPPED ] 2 tests, listed below:'"
        self.assertIsNone(self.verdict(skipped, strict=False))
        self.assertRegex(self.verdict(skipped, strict=True), "2 of its tests skipped")
        self.assertEqual(self.verdict("echo '[==========] 0 tests from 0 test suites ran.'", strict=True),
                         "no test matches the filter")

    def test_without_a_gpu_the_gpu_checks_stop_before_anything_is_built(self):
        line = next(l for l in mutants.DEFAULT_MUTANTS.read_text().splitlines() if "\tgpu " in l)
        with tempfile.TemporaryDirectory() as tmp:
            listing = Path(tmp, "m.txt")
            listing.write_text(line + "\n")
            out, err = io.StringIO(), io.StringIO()
            with mock.patch.dict(os.environ, {"PATH": tmp}), contextlib.redirect_stdout(out), \
                    contextlib.redirect_stderr(err):
                code = cli.main(["mutate", "--mutants", str(listing), "--build-dir", tmp])
            self.assertEqual(code, errors.ExitCode.BAD_INPUT)
            self.assertIn("ptxw mutate: the gpu checks need a GPU and nvidia-smi lists none here", err.getvalue())
            self.assertEqual(out.getvalue(), "", "no mutant reported, killed or survived")
            self.assertEqual(os.listdir(tmp), ["m.txt"], "nothing built")


if __name__ == "__main__":
    unittest.main()
