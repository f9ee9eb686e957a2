"""The installed package: `cmake -S . -B build && cmake --install build --prefix P` works without
GoogleTest and without nvcc (the tests that need them are not registered, and the configure output says
so), and the installed tool runs from a read-only prefix as an ordinary user, writing its reports and
cache in the user's project only."""

import os
import pwd
import shutil
import stat
import subprocess
import tempfile
import unittest
from pathlib import Path

from ptxwtools.core import toolchain

KERNEL = '#include <ptxw/mbarrier.h>\nextern "C" __global__ void k() { __shared__ ptxw::cta_barrier bar; bar.arrive(); }\n'
NO_NVCC_PATH = "/usr/bin:/bin"  # cmake, git and python3, not /usr/local/cuda/bin


def configure(build: Path, *args, path=None):
    env = dict(os.environ, PATH=path or os.environ["PATH"])
    env.pop("CUDACXX", None)
    return subprocess.run(["cmake", "-S", str(toolchain.REPO), "-B", str(build), *args], capture_output=True, text=True,
                          env=env)


def ordinary_user():
    """(uid, gid, how) to run as: this user if it is not root; as root, nobody (or a user made for the
    test); None with why where neither is possible."""
    if os.geteuid() != 0:
        return os.getuid(), os.getgid(), "this user"
    for name in ("nobody", "ptxw-test"):
        try:
            user = pwd.getpwnam(name)
            return user.pw_uid, user.pw_gid, name
        except KeyError:
            pass
    if shutil.which("useradd") and subprocess.run(["useradd", "--system", "--no-create-home", "ptxw-test"]).returncode == 0:
        user = pwd.getpwnam("ptxw-test")
        return user.pw_uid, user.pw_gid, "ptxw-test"
    return None


@unittest.skipUnless(shutil.which("cmake"), "no cmake")
class InstallTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        os.chmod(cls.tmp.name, 0o755)  # the ordinary user below reads the prefix in it
        cls.build, cls.prefix = Path(cls.tmp.name, "build"), Path(cls.tmp.name, "prefix")
        cls.configured = configure(cls.build, "-DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON", path=NO_NVCC_PATH)
        cls.installed = subprocess.run(["cmake", "--install", str(cls.build), "--prefix", str(cls.prefix)],
                                       capture_output=True, text=True)

    @classmethod
    def tearDownClass(cls):
        for root, dirs, _ in os.walk(cls.tmp.name):
            for d in dirs:
                os.chmod(Path(root, d), 0o755)
        cls.tmp.cleanup()

    def test_configure_and_install_without_googletest_or_nvcc(self):
        self.assertEqual(self.configured.returncode, 0, self.configured.stdout + self.configured.stderr)
        self.assertIn("ptxw: package, runtime tests and benchmarks not built: no CUDA compiler", self.configured.stdout)
        self.assertEqual(self.installed.returncode, 0, self.installed.stderr)
        for f in ("include/ptxw/ptxw.h", "lib/cmake/ptxw/ptxwConfig.cmake", "lib/cmake/ptxw/ptxwCodegen.cmake",
                  "share/ptxw/tools/ptxw", "share/ptxw/tools/ptxwtools/codegen/lit_suite.py"):
            self.assertTrue((self.prefix / f).is_file(), f)

    def test_without_googletest_the_runtime_tests_say_why(self):
        nvcc = toolchain.find_toolchain().nvcc
        with tempfile.TemporaryDirectory() as tmp:
            out = configure(Path(tmp), "-DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON", f"-DCMAKE_CUDA_COMPILER={nvcc}")
            listed = subprocess.run(["ctest", "--test-dir", tmp, "-N"], capture_output=True, text=True).stdout
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertIn("ptxw: runtime tests not built: no GoogleTest", out.stdout)
        self.assertIn("package/consumer", listed)
        self.assertNotIn("runtime/", listed)

    def test_the_installed_tool_runs_from_a_read_only_prefix_as_an_ordinary_user(self):
        user = ordinary_user()
        if user is None:
            self.skipTest("no user but root to run as, and none can be made here")
        uid, gid, who = user
        for root, dirs, files in os.walk(self.prefix):
            for name in dirs + files:
                p = Path(root, name)
                os.chmod(p, p.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
        os.chmod(self.prefix, 0o555)
        before = sorted(str(p) for p in self.prefix.rglob("*"))
        project = Path(self.tmp.name, "project")
        project.mkdir()
        (project / "k.cu").write_text(KERNEL)
        home = Path(self.tmp.name, "home")
        home.mkdir()
        for p in (project, home, project / "k.cu"):
            os.chown(p, uid, gid)
        env = {"PATH": NO_NVCC_PATH, "HOME": str(home), "PTXW_DEPS_DIR": str(toolchain.deps_dir().resolve())}
        run_as = [] if os.geteuid() != 0 else ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--clear-groups"]
        tool = str(self.prefix / "share" / "ptxw" / "tools" / "ptxw")

        def ptxw(*args):
            return subprocess.run([*run_as, tool, *args], cwd=project, env=env, capture_output=True, text=True)

        subprocess.run([*run_as, "git", "init", "-q"], cwd=project, env=env, check=True)
        for args, expect in ((["--version"], "ptxw "),
                             (["sass-diff", "k.cu", "--targets", "sm_90a", "--baseline", "sass.json", "--update-baseline"],
                              "baseline written"),
                             (["sass-diff", "k.cu", "--targets", "sm_90a", "--baseline", "sass.json", "--fail-on-change"],
                              "compiled 0 (the rest from the cache)")):
            with self.subTest(args=args, user=who):
                out = ptxw(*args)
                self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
                self.assertIn(expect, out.stdout)
        self.assertTrue((project / "build" / "sass-diff" / "sass-diff.json").is_file())
        self.assertTrue(any((project / "build" / "sass-diff" / "cache").iterdir()))
        self.assertEqual(sorted(str(p) for p in self.prefix.rglob("*")), before)


if __name__ == "__main__":
    unittest.main()
