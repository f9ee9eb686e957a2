"""`ptxw sass-diff --rev`: each side is built from its own tree. A header changed between two
revisions is found whether the include path is relative to the repository's top, to a folder below
it, quoted beside the source, or forced with -include; a header outside the repository is named in
the provenance with its digest; CMake's compile_commands.json gives each source its own command."""

import subprocess
import tempfile
import unittest
from pathlib import Path

from ptxwtools.core import toolchain

from test_sass_diff import commit, git_repo, sass_diff, units

KERNEL = '#include "scale.h"\nextern "C" __global__ void k(float* o) { *o *= SCALE; }\n'


def fmul_immediates(report, side):
    u = units(report)[("src/k.cu", "sm_90a")]
    (f,) = u[side]["functions"]
    return [line.split()[-1] for line in f["listing"] if " FMUL " in line]


class RelativeIncludeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.repo = git_repo(Path(cls.tmp.name, "repo"), {"include/scale.h": "#define SCALE 3.0f\n", "src/k.cu": KERNEL,
                                                         "src/near.h": "#define NEAR 5.0f\n",
                                                         "src/f.cu": 'extern "C" __global__ void f(float* o) { *o *= NEAR; }\n'})
        commit(cls.repo, {"include/scale.h": "#define SCALE 5.0f\n", "src/near.h": "#define NEAR 7.0f\n"}, "scale 5")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def diff(self, *args, cwd):
        run, report = sass_diff(self.tmp.name, "--rev", "HEAD~1", "--rev", "HEAD", "--targets", "sm_90a",
                                "--fail-on-change", *args, cwd=cwd)
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)  # changed
        return report

    def test_include_relative_to_the_top(self):
        report = self.diff("src/k.cu", "--", "-Iinclude", cwd=self.repo)
        self.assertEqual((fmul_immediates(report, "old"), fmul_immediates(report, "new")), (["3"], ["5"]))

    def test_include_relative_to_a_folder_below_the_top(self):
        report = self.diff("k.cu", "--", "-I../include", cwd=self.repo / "src")
        self.assertEqual((fmul_immediates(report, "old"), fmul_immediates(report, "new")), (["3"], ["5"]))

    def test_separate_and_system_include_options(self):
        report = self.diff("src/k.cu", "--", "-isystem", "include", cwd=self.repo)
        self.assertEqual((fmul_immediates(report, "old"), fmul_immediates(report, "new")), (["3"], ["5"]))

    def test_forced_include(self):
        report = self.diff("src/f.cu", "--", "-include", "src/near.h", cwd=self.repo)
        self.assertEqual(units(report)[("src/f.cu", "sm_90a")]["status"], "changed")

    def test_the_working_tree_reads_its_own_files(self):
        # one --rev against the working tree, with the header changed in the working tree only
        (self.repo / "include" / "scale.h").write_text("#define SCALE 6.0f\n")
        try:
            run, report = sass_diff(self.tmp.name, "--rev", "HEAD", "--targets", "sm_90a", "k.cu", "--", "-I../include",
                                    cwd=self.repo / "src")
        finally:
            subprocess.run(["git", "-C", str(self.repo), "checkout", "include/scale.h"], check=True)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertEqual((fmul_immediates(report, "old"), fmul_immediates(report, "new")), (["5"], ["6"]))


class OutsideTheRepositoryTest(unittest.TestCase):
    def test_a_header_outside_the_repository_is_named_with_its_digest(self):
        with tempfile.TemporaryDirectory() as tmp:
            outside = Path(tmp, "vendor")
            outside.mkdir()
            (outside / "scale.h").write_text("#define SCALE 4.0f\n")
            repo = git_repo(Path(tmp, "repo"), {"src/k.cu": KERNEL})
            commit(repo, {"src/k.cu": KERNEL + "// comment\n"}, "comment")
            run, report = sass_diff(tmp, "--rev", "HEAD~1", "--rev", "HEAD", "--targets", "sm_90a", "src/k.cu", "--",
                                    f"-I{outside}", cwd=repo)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        u = units(report)[("src/k.cu", "sm_90a")]
        self.assertEqual(u["status"], "same")
        for side in ("old", "new"):
            read = u[side]["provenance"]["read_outside_the_tree"]
            self.assertIn(str(outside / "scale.h"), read)
            self.assertRegex(read[str(outside / "scale.h")], r"^[0-9a-f]{24}$")
            self.assertFalse([p for p in read if p.startswith(str(repo))])


class FlagsTest(unittest.TestCase):
    def test_paths_of_include_options_become_absolute(self):
        from ptxwtools.sass_diff import build

        got = build.absolute_flags(["-Iinc", "-I", "a,b", "--include-path=x", "-isystem", "s", "-include", "f.h",
                                              "-DX=inc", "-O3", "-isystem=/abs"], Path("/w/src"))
        self.assertEqual(got, ["-I/w/src/inc", "-I", "/w/src/a,/w/src/b", "--include-path=/w/src/x", "-isystem", "/w/src/s",
                               "-include", "/w/src/f.h", "-DX=inc", "-O3", "-isystem=/abs"])


CMAKE_PROJECT = """\
cmake_minimum_required(VERSION 3.25)
project(user LANGUAGES CUDA)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)
add_library(k OBJECT src/k.cu)
target_include_directories(k PRIVATE include)
target_compile_definitions(k PRIVATE SCALE_BY=SCALE)
set_target_properties(k PROPERTIES CUDA_ARCHITECTURES 90a)
"""


class CompileCommandsTest(unittest.TestCase):
    def test_each_source_compiles_with_its_cmake_command(self):
        from ptxwtools.sass_diff import compile_commands

        nvcc = toolchain.find_toolchain().nvcc
        with tempfile.TemporaryDirectory() as tmp:
            kernel = '#include "scale.h"\nextern "C" __global__ void k(float* o) { *o *= SCALE_BY; }\n'
            repo = git_repo(Path(tmp, "repo"), {"CMakeLists.txt": CMAKE_PROJECT, "include/scale.h": "#define SCALE 3.0f\n",
                                                "src/k.cu": kernel, ".gitignore": "build/\n"})
            commit(repo, {"include/scale.h": "#define SCALE 5.0f\n"}, "scale 5")
            configure = subprocess.run(["cmake", "-S", str(repo), "-B", str(repo / "build"), f"-DCMAKE_CUDA_COMPILER={nvcc}"],
                                       capture_output=True, text=True)
            self.assertEqual(configure.returncode, 0, configure.stdout + configure.stderr)
            (entry,) = compile_commands.read(repo / "build" / "compile_commands.json").values()
            self.assertIn("-DSCALE_BY=SCALE", entry[0])
            self.assertIn(f"-I{repo / 'include'}", entry[0])  # from CMake's --options-file, where it puts them
            self.assertFalse([f for f in entry[0] if "arch" in f or f in ("-c", "-o", "-x")], entry[0])
            run, report = sass_diff(tmp, "--rev", "HEAD~1", "--rev", "HEAD", "--targets", "sm_90a", "--fail-on-change",
                                    "--compile-commands", "build/compile_commands.json", cwd=repo)
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertEqual((fmul_immediates(report, "old"), fmul_immediates(report, "new")), (["3"], ["5"]))
        self.assertNotIn("-std=c++17 -std", " ".join(units(report)[("src/k.cu", "sm_90a")]["new"]["commands"]))


if __name__ == "__main__":
    unittest.main()
