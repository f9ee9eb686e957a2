"""The command line: every command listed, one exit-status policy and one message prefix, the
installed tool naming itself; and `ptxw codegen` end to end on bad input: unknown targets, missing or
broken toolchains, and a ptxas that lacks the target. Each must say what is wrong; none may pass
silently."""

import ast
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path
from unittest import mock

from ptxwtools import cli
from ptxwtools.core import deps, errors, suite, toolchain

PTXW = toolchain.REPO / "tools" / "ptxw"
REAL = toolchain.find_toolchain()
ONE_TEST = "gate/variants.test"  # runs on every target (mbarrier/ runs on one per family)


def fake_root(tmp, nvcc_body, ptxas_body):
    """A CUDA root whose nvcc and ptxas are shell scripts around (or instead of) the real ones."""
    bin_dir = Path(tmp, "cuda", "bin")
    bin_dir.mkdir(parents=True)
    for name, body in (("nvcc", nvcc_body), ("ptxas", ptxas_body)):
        script = bin_dir / name
        script.write_text("#!/bin/sh\n" + textwrap.dedent(body).format(real=REAL.root / "bin"))
        script.chmod(0o755)
    return bin_dir.parent


REAL_NVCC, REAL_PTXAS = 'exec {real}/nvcc "$@"\n', 'exec {real}/ptxas "$@"\n'


def codegen(*args, nvcc=None, ptxas=None):
    """`ptxw codegen ARGS` in a fresh build directory; with nvcc and ptxas (script bodies) on fake_root."""
    with tempfile.TemporaryDirectory() as tmp:
        if nvcc is not None:
            args = (*args, "--cuda-root", str(fake_root(tmp, nvcc, ptxas)))
        cmd = [sys.executable, str(PTXW), "codegen", "--no-setup", "--build-dir", str(Path(tmp, "build")), *args]
        return subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, LIT_FILTER=ONE_TEST))


class BadInputTest(unittest.TestCase):
    def assertFailsLoudly(self, out, *messages):
        self.assertNotEqual(out.returncode, 0)
        for message in messages:
            self.assertIn(message, out.stdout + out.stderr)

    def test_unknown_target(self):
        out = codegen("--targets", "sm_90a", "sm_99z")
        self.assertEqual(out.returncode, 2)
        self.assertIn("unknown target 'sm_99z'", out.stderr)

    def test_missing_toolchain(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = codegen("--targets", "sm_90a", "--cuda-root", str(Path(tmp, "nowhere")))
        self.assertEqual(out.returncode, 2)
        self.assertIn("no CUDA toolchain at", out.stderr)

    def test_target_the_toolchain_lacks_is_unsupported(self):
        out = codegen("--targets", "sm_121a", nvcc=REAL_NVCC, ptxas="""\
            if [ "$1" = "--help" ]; then {real}/ptxas --help | sed "s/'sm_121a',//"; exit 0; fi
            exec {real}/ptxas "$@"
            """)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertIn("does not know sm_121a", out.stdout + out.stderr)
        self.assertRegex(out.stdout, r"sm_121a\s+0\s+1\s+0")

    def test_crashing_ptxas_fails_loudly(self):
        out = codegen("--targets", "sm_90a", nvcc=REAL_NVCC, ptxas='echo "ptxas: Segmentation fault" >&2; exit 139\n')
        self.assertFailsLoudly(out, "ptxas")
        self.assertRegex(out.stdout, r"sm_90a\s+0\s+0\s+[1-9]")

    def test_broken_nvcc_fails_loudly(self):
        out = codegen("--targets", "sm_90a", nvcc='echo "nvcc: internal error" >&2; exit 1\n', ptxas=REAL_PTXAS)
        self.assertFailsLoudly(out, "cannot compile an empty kernel", "nvcc: internal error")


COMMANDS = ("setup", "conformance", "sass-diff", "codegen", "update-checks", "test", "compile", "sass-equal", "check", "gate",
            "mutate")


def ptxw(*args, tool=PTXW, env=None):
    return subprocess.run([sys.executable, str(tool), *args], capture_output=True, text=True, env=env)


class CommandLineTest(unittest.TestCase):
    def test_help_lists_every_command_on_one_line(self):
        out = ptxw("--help")
        self.assertEqual(out.returncode, 0)
        for name in COMMANDS:
            self.assertRegex(out.stdout, rf"(?m)^ +{name} +\w", name)
        self.assertIn("Exit status: 0 ok, 1 failures found, 2 bad input, 77 skipped", out.stdout)

    def test_bad_input_exits_2_with_the_command_prefix(self):
        with tempfile.TemporaryDirectory() as tmp:
            cases = {
                "compile": ["compile", "nope.cu", "--target", "sm_90a", "-o", str(Path(tmp, "k"))],
                "sass-equal": ["sass-equal", str(Path(tmp, "nope.sass"))],
                "check": ["check", "nope.cu", "--target", "sm_9", "--checks", "c", "--out", tmp],
                "codegen": ["codegen", "--no-setup", "--targets", "sm9"],
                "update-checks": ["update-checks", str(Path(tmp, "nope.cu"))],
                "gate": ["gate", "--targets", "sm_90a", "sm_99z"],
            }
            for command, args in cases.items():
                with self.subTest(command):
                    out = ptxw(*args)
                    self.assertEqual(out.returncode, 2, out.stderr)
                    self.assertTrue(out.stderr.startswith(f"ptxw {command}: "), out.stderr)

    def test_gate_of_a_target_ptxas_lacks_is_skipped(self):
        out = ptxw("gate", "--targets", "sm_99a")
        self.assertEqual(out.returncode, 77, out.stdout + out.stderr)
        self.assertIn("sm_99a: unsupported (ptxas", out.stdout)

    def test_nvcc_flags_only_where_taken(self):
        out = ptxw("sass-equal", "x.sass", "--", "-DX")
        self.assertEqual(out.returncode, 2)
        self.assertIn("sass-equal takes no nvcc flags", out.stderr)

    def test_a_source_that_does_not_compile_is_a_failure(self):
        with tempfile.TemporaryDirectory() as tmp:
            Path(tmp, "k.cu").write_text("__global__ void k() { undeclared(); }\n")
            out = ptxw("compile", str(Path(tmp, "k.cu")), "--target", "sm_90a", "-o", str(Path(tmp, "k")))
        self.assertEqual(out.returncode, 1, out.stderr)
        self.assertIn("ptxw compile: command failed", out.stderr)

    def test_each_tool_is_invoked_from_one_place(self):
        # ptxas's command line (toolchain.Toolchain.ptxas_command), lit's (lit_suite.command), the
        # report files (style.write_reports): written once, so that they cannot drift
        tools = toolchain.REPO / "tools" / "ptxwtools"
        for needle, home in (("--gpu-name=", "core/toolchain.py"), ('"bin" / "lit"', "codegen/lit_suite.py"),
                             ('"sass-diff.html"', None), ('"conformance.html"', None)):
            with self.subTest(needle):
                found = [p.relative_to(tools).as_posix() for p in tools.rglob("*.py") if needle in p.read_text()]
                self.assertEqual(found, [home] if home else [])

    def test_only_the_command_line_exits(self):
        # Library code raises errors.PtxwError; cli.main alone turns it into an exit status.
        for path in (toolchain.REPO / "tools" / "ptxwtools").rglob("*.py"):
            with self.subTest(path.name):
                self.assertNotRegex(path.read_text(), r"SystemExit|sys\.exit|\bexit\(")

    def test_command_packages_import_core_and_only_the_packages_named(self):
        # the import graph ptxwtools/__init__.py draws, which says why each edge beyond core is there;
        # `from .. import x` (a name of ptxwtools itself) is refused too
        allowed = {"core": {"forms"}, "codegen": {"core"}, "sass_diff": {"core"}, "conformance": {"core", "sass_diff"},
                   "mutate": {"core", "codegen"}, "forms": {"core"}}
        tools = toolchain.REPO / "tools" / "ptxwtools"
        self.assertEqual(sorted(allowed), sorted(p.parent.name for p in tools.glob("*/__init__.py")))
        for package, may in allowed.items():
            imported = {(node.module or "").split(".")[0] for path in (tools / package).rglob("*.py")
                        for node in ast.walk(ast.parse(path.read_text()))
                        if isinstance(node, ast.ImportFrom) and node.level == 2}
            with self.subTest(package):
                self.assertLessEqual(imported, may)


class TestCommandTest(unittest.TestCase):
    """`ptxw test`: the tests labelled no-build run beside the build (at the lowest priority: the build keeps the
    cores), the rest after it, and every failure is reported, the build's and theirs (the steps themselves are
    stand-ins here)."""

    def steps(self, failing=()):
        """(what ran, in order, and the Failure's message or None), each step a command failing where it names
        one of failing."""
        ran = []

        def run(cmd, **_):
            ran.append(("run", " ".join(cmd)))
            return subprocess.CompletedProcess(cmd, 1 if any(f in " ".join(cmd) for f in failing) else 0)

        class Beside:
            def __init__(self, cmd, preexec_fn=None, **_):
                self.cmd = " ".join(cmd)
                ran.append(("start", self.cmd))
                ran.append(("priority", "lowest" if preexec_fn is suite._lowest_priority else "the build's"))

            def wait(self):
                ran.append(("wait", self.cmd))
                return 1 if any(f in self.cmd for f in failing) else 0

        with tempfile.TemporaryDirectory() as tmp, mock.patch.object(suite.deps, "setup"), \
                mock.patch.object(suite.subprocess, "run", run), mock.patch.object(suite.subprocess, "Popen", Beside), \
                mock.patch("sys.stdout"):
            try:
                a = cli.parse(["test", "--build-dir", tmp])
                a.run(a)
                return [(what, re.sub(re.escape(tmp), "B", c)) for what, c in ran], None
            except errors.Failure as e:
                return [(what, re.sub(re.escape(tmp), "B", c)) for what, c in ran], re.sub(re.escape(tmp), "B", str(e))

    def test_the_tests_that_need_no_build_run_beside_it(self):
        ran, failure = self.steps()
        self.assertIsNone(failure)
        self.assertEqual([(what, self.kind(c)) for what, c in ran], [
            ("run", "configure"), ("start", "no-build tests"), ("priority", "lowest"), ("run", "build"),
            ("run", "the rest"), ("wait", "no-build tests")])

    @staticmethod
    def kind(cmd):
        return ("configure" if " -S " in cmd else "build" if " --build " in cmd else
                "no-build tests" if "-L ^no-build$" in cmd else "the rest" if "-LE ^no-build$" in cmd else cmd)

    def test_every_failure_is_reported_and_the_beside_tests_are_waited_for(self):
        ran, failure = self.steps(failing=("--build", "-L ^no-build$"))
        self.assertNotIn("the rest", [self.kind(c) for _, c in ran])  # nothing built: the rest does not run
        self.assertEqual(ran[-1][0], "wait")
        self.assertRegex(failure, r"cmake --build B .*; ctest .* -L \^no-build\$")


class OptionsTest(unittest.TestCase):
    """What a CI owner types: --targets in every spelling, one name for a CUDA root, --version."""

    TARGET_COMMANDS = ("sass-diff", "conformance", "codegen", "update-checks", "gate")

    def test_every_spelling_of_targets(self):
        for command in self.TARGET_COMMANDS:
            for spelling in (["--targets", "sm_90a,sm_100a"], ["--targets=sm_90a,sm_100a"], ["--targets", "sm_90a", "sm_100a"],
                             ["--targets", "sm_90a", "--targets=sm_100a"], ["--targets", "sm_90a,", "sm_100a"]):
                with self.subTest(command=command, spelling=spelling):
                    more = ["a.cu"] if command == "update-checks" else []
                    self.assertEqual(cli.parse([command, *more, *spelling]).targets, ["sm_90a", "sm_100a"])

    def test_targets_never_swallow_a_source(self):
        for args in (["--targets", "sm_90a", "sm_100a", "k.cu", "j.cu"], ["k.cu", "--targets", "sm_90a,sm_100a", "j.cu"],
                     ["--targets", "sm_90a", "k.cu", "--targets", "sm_100a", "j.cu"], ["k.cu", "j.cu", "--targets=sm_90a,sm_100a"]):
            with self.subTest(args):
                a = cli.parse(["sass-diff", *args, "--cuda-root", "system", "--cuda-root", "13.5"])
                self.assertEqual((a.sources, a.targets), (["k.cu", "j.cu"], ["sm_90a", "sm_100a"]))
        a = cli.parse(["update-checks", "a.cu", "--targets", "sm_90a", "b.cu"])
        self.assertEqual((a.files, a.targets), (["a.cu", "b.cu"], ["sm_90a"]))

    def test_a_bad_target_is_still_read_as_one(self):
        out = ptxw("gate", "--targets", "sm_90a", "sm9")
        self.assertEqual(out.returncode, 2, out.stderr)
        self.assertIn("unknown target 'sm9'", out.stderr)
        out = ptxw("sass-diff", "--targets", "sm_90a", "--no-such-option")
        self.assertEqual(out.returncode, 2, out.stderr)
        self.assertIn("unrecognized arguments: --no-such-option", out.stderr)

    def test_one_name_for_a_cuda_root(self):
        for command in ("sass-diff", "conformance", "codegen", "update-checks", "gate", "compile", "check"):
            with self.subTest(command):
                out = ptxw(command, "--help")
                self.assertIn("--cuda-root CUDA_ROOT", out.stdout)
                self.assertNotIn("--toolchain ", out.stdout)

    def test_a_cuda_root_is_read_the_same_way_everywhere(self):
        installed = dict(zip(deps.TOOLCHAINS, deps.toolchain_roots()))["13.5.37"]
        if not (installed / "bin" / "ptxas").exists():
            self.skipTest("CUDA 13.5 not installed (tools/ptxw setup --toolchains)")
        self.assertEqual(toolchain.find_toolchain("13.5").root, installed.resolve())
        self.assertEqual(toolchain.find_toolchain("system").root, REAL.root)
        out = ptxw("gate", "--targets", "sm_99a", "--cuda-root", "13.5")  # a target this ptxas lacks: skipped
        self.assertEqual(out.returncode, 77, out.stdout + out.stderr)
        self.assertIn("ptxas 13.5.37", out.stdout)

    def test_version(self):
        out = ptxw("--version")
        version = re.search(r"project\(ptxw VERSION (\S+)", (toolchain.REPO / "CMakeLists.txt").read_text()).group(1)
        self.assertEqual((out.returncode, out.stdout.strip()), (0, f"ptxw {version}"))

    def test_messages_name_only_their_command_s_options(self):
        with tempfile.TemporaryDirectory() as tmp:
            Path(tmp, "k.cu").write_text("__global__ void k() {}\n")
            nowhere = str(Path(tmp, "nowhere"))
            cases = [["compile", "k.cu", "--target", "sm_90a", "-o", "o", "--cuda-root", nowhere],
                     ["check", "k.cu", "--target", "sm_90a", "--checks", "k.cu", "--out", "o", "--cuda-root", nowhere],
                     ["check", "k.cu", "--target", "sm_90a", "--checks", "k.cu", "--out", "o"],
                     ["check", "k.cu", "--target", "sm_90a", "--checks", "k.cu", "--out", "o", "--requires", "nope"],
                     ["gate", "--targets", "sm_90a", "--cuda-root", nowhere],
                     ["codegen", "--no-setup", "--targets", "sm_90a", "--cuda-root", nowhere],
                     ["update-checks", "k.cu", "--cuda-root", nowhere], ["update-checks", "k.cu"],
                     ["sass-diff", "k.cu", "--targets", "sm_90a", "--cuda-root", nowhere, "--cuda-root", "system"],
                     ["sass-diff", "k.cu", "--targets", "sm_90a"], ["sass-diff", "k.cu", "--cuda-root", "system", "--cuda-root", "13.5"],
                     ["sass-diff", "k.cu", "--targets", "sm_90a", "--baseline", "b.json", "--cuda-root", "system", "--cuda-root", "13.5"],
                     ["sass-diff", "k.cu", "--targets", "sm_90a", "--update-baseline", "--cuda-root", "system", "--cuda-root", "13.5"],
                     ["sass-diff", "--built", "b", "--targets", "sm_90a"], ["sass-diff", "k.cu", "--targets", "sm_90a", "--rev", "x"],
                     ["sass-diff", "k.cu", "--targets", "sm_90a", "--cuda-root", "9.9"],
                     ["conformance", "--cuda-root", nowhere, "--no-default-toolchains", "--targets", "sm_90a"]]
            for args in cases:
                with self.subTest(args):
                    out = subprocess.run([sys.executable, str(PTXW), *args], capture_output=True, text=True, cwd=tmp)
                    self.assertEqual(out.returncode, 2, out.stdout + out.stderr)
                    own = set(re.findall(r"--[a-z][a-z-]+", ptxw(args[0], "--help").stdout))
                    named = {o for o in re.findall(r"(?<![\w-])--[a-z][a-z-]+", out.stderr)
                             if not re.search(rf"setup {o}\b", out.stderr)}  # `ptxw setup --toolchains` is advice
                    self.assertLessEqual(named, own, out.stderr)

    def test_bad_input_writes_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            Path(tmp, "k.cu").write_text("__global__ void k() {}\n")
            for args in (["compile", "k.cu", "--target", "sm_9x", "-o", "out/k"], ["compile", "nope.cu", "--target", "sm_90a", "-o", "out/k"],
                         ["check", "k.cu", "--target", "sm_90a", "--checks", "nope.checks", "--out", "out"],
                         ["sass-diff", "nope.cu", "--targets", "sm_90a", "--cuda-root", "system", "--cuda-root", "system"]):
                with self.subTest(args):
                    out = subprocess.run([sys.executable, str(PTXW), *args], capture_output=True, text=True, cwd=tmp)
                    self.assertEqual(out.returncode, 2, out.stderr)
                    self.assertEqual(sorted(p.name for p in Path(tmp).iterdir()), ["k.cu"])


class InstalledToolTest(unittest.TestCase):
    """The installed copy (<prefix>/share/ptxw/tools/ptxw) names itself, not tools/ptxw, and says where
    set-up would write: ~/.cache/ptxw unless PTXW_DEPS_DIR says otherwise."""

    def test_messages_name_the_installed_tool(self):
        with tempfile.TemporaryDirectory() as tmp:
            tools = Path(tmp, "prefix", "share", "ptxw", "tools")
            shutil.copytree(toolchain.REPO / "tools", tools, ignore=shutil.ignore_patterns("__pycache__"))
            Path(tmp, "k.cu").write_text("__global__ void k() {}\n")
            root = fake_root(tmp, 'exec {real}/nvcc "$@"\n', 'exec {real}/ptxas "$@"\n')  # no cuobjdump beside them
            env = {k: v for k, v in os.environ.items() if k != "PTXW_DEPS_DIR"}
            env.update(XDG_CACHE_HOME=str(Path(tmp, "cache")), PATH="/usr/bin:/bin")
            out = ptxw("compile", str(Path(tmp, "k.cu")), "--target", "sm_90a", "-o", str(Path(tmp, "k")),
                       "--cuda-root", str(root), tool=tools / "ptxw", env=env)
        self.assertEqual(out.returncode, 2, out.stderr)
        self.assertIn(f"run `{tools / 'ptxw'} setup`", out.stderr)
        self.assertIn(f"into {Path(tmp, 'cache', 'ptxw')}", out.stderr)
        self.assertNotIn("tools/ptxw setup", out.stderr.replace(str(tools / "ptxw"), ""))

    def test_setup_writes_where_it_is_told(self):
        with tempfile.TemporaryDirectory() as tmp:
            chosen = Path(tmp, "deps")
            chosen.mkdir()
            (chosen / "py").symlink_to(toolchain.deps_dir().resolve() / "py")  # installed already: no download
            out = ptxw("setup", "--deps-dir", str(chosen))
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertIn(f"installing into {chosen}", out.stdout)
        self.assertIn(f"python_path={chosen / 'py'}", out.stdout)


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
