"""`ptxw mutate`'s gpu check: runtime tests of tests/runtime built from the mutated copy and run on
a GPU, with a gtest filter.

    gpu MODE SOURCE.cu[,SOURCE.cu...] FILTER [TOOL]

MODE is `checked` or `unchecked` (PTXW_CHECKED=1 or 0). The sources (under tests/runtime) are built
by nvcc as tests/runtime/CMakeLists.txt builds its suites -- sm_90a, C++17, the device-scope tests
without exceptions, linked with static GoogleTest and gtest_main -- and the binary runs with
--gtest_filter=FILTER, under `compute-sanitizer --tool TOOL` if a TOOL is named. The check fails
when the sources do not build, or the run fails: a failed test, a crash, a sanitizer's report, or
no end within the time limit. Unmutated, it must also run at least one test and skip none (a
check whose tests skip -- no sm_90 GPU -- can kill nothing)."""

import os
import re
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..core import errors, toolchain

MODES = {"checked": 1, "unchecked": 0}
TOOLS = ("memcheck", "racecheck", "synccheck", "initcheck")
# The ptxw_device_tests suites: their host code is built with -fno-exceptions (CUB's error contract,
# tests/runtime/CMakeLists.txt). tests/tools/test_mutate.py checks the two lists agree.
NO_EXCEPTIONS = ("device_test.cu", "device_state_test.cu")
ARCH = "sm_90a"
SANITIZER_WAIT_NS = "120000000000"  # checked waits under a sanitizer, as tests/runtime/run_on_gpu.sh


@dataclass(frozen=True)
class Check:
    mode: str
    sources: tuple
    filter: str
    tool: str = ""

    @property
    def binary(self) -> str:
        """One binary per mode and sources: checks that differ only in filter or tool share it."""
        return "-".join([self.mode, *(Path(s).stem for s in self.sources)])


def parse(args) -> Check:
    """The fields after `gpu`; BadInput (message without the line's place) if malformed."""
    if len(args) not in (3, 4) or args[0] not in MODES or (len(args) == 4 and args[3] not in TOOLS):
        raise errors.BadInput(f"want gpu {'|'.join(MODES)} SOURCE.cu[,SOURCE.cu] FILTER [{'|'.join(TOOLS)}]")
    sources = tuple(args[1].split(","))
    if not all(s.endswith(".cu") and "/" not in s for s in sources):
        raise errors.BadInput(f"gpu sources are .cu files of tests/runtime, comma-separated: {args[1]}")
    return Check(args[0], sources, args[2], args[3] if len(args) == 4 else "")


def require_gpu():
    """Before anything is built: a GPU that nvidia-smi lists, else a clear error (a gpu check that
    ran without one would call every mutant a survivor)."""
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60)
        found = out.returncode == 0 and "GPU" in out.stdout
    except (OSError, subprocess.TimeoutExpired):
        found = False
    if not found:
        raise errors.BadInput("the gpu checks need a GPU and nvidia-smi lists none here; run them on a GPU "
                              "machine, or leave them out with --kind lit --kind tools")


@dataclass(frozen=True)
class GTest:
    include: Path
    lib: Path

    @staticmethod
    def at(prefix: Path) -> "GTest":
        """GoogleTest under prefix: include/gtest and libgtest.a, libgtest_main.a in lib/x86_64-linux-gnu or lib."""
        for lib in (prefix / "lib" / "x86_64-linux-gnu", prefix / "lib"):
            if (prefix / "include" / "gtest" / "gtest.h").is_file() and all(
                    (lib / f).is_file() for f in ("libgtest.a", "libgtest_main.a")):
                return GTest(prefix / "include", lib)
        raise errors.BadInput(f"no GoogleTest under {prefix}: want include/gtest/gtest.h and libgtest.a, "
                              "libgtest_main.a in lib/x86_64-linux-gnu or lib (--gtest-root PREFIX)")


def build_command(c: Check, root: Path, out: Path, gtest: GTest, nvcc: Path) -> list:
    flags = [f"-gencode=arch=compute_{ARCH[3:]},code={ARCH}", "-std=c++17", f"-DPTXW_CHECKED={MODES[c.mode]}",
             "-DGTEST_HAS_PTHREAD=1", f"-I{root / 'include'}", "-isystem", str(gtest.include)]
    if any(s in NO_EXCEPTIONS for s in c.sources):
        flags.append("-Xcompiler=-fno-exceptions")
    sources = [str(root / "tests" / "runtime" / s) for s in c.sources]
    return [str(nvcc), *flags, *sources, "-o", str(out), f"-L{gtest.lib}", "-lgtest_main", "-lgtest", "-lpthread"]


def build(c: Check, root: Path, out_dir: Path, gtest: GTest, nvcc: Path):
    """The check's binary from the sources under root; (path, None) or (None, nvcc's output)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    binary = out_dir / c.binary
    binary.unlink(missing_ok=True)
    r = subprocess.run(build_command(c, root, binary, gtest, nvcc), capture_output=True, text=True)
    return (binary, None) if r.returncode == 0 else (None, r.stdout + r.stderr)


_SKIPPED = re.compile(r"^\[  SKIPPED \] (\d+) test", re.M)
_RAN = re.compile(r"^\[==========\] (\d+) tests? from .* ran\.", re.M)


def run(c: Check, binary: Path, cuda_root: Path, timeout: float, strict: bool):
    """The run's failure in a few words, or None where it passes. strict (unmutated): at least one
    test ran and none skipped."""
    cmd = [str(binary), f"--gtest_filter={c.filter}"]
    env = None
    if c.tool:
        sanitizer = cuda_root / "bin" / "compute-sanitizer"
        cmd = [str(sanitizer) if sanitizer.is_file() else "compute-sanitizer", "--tool", c.tool,
               "--error-exitcode", "9", *cmd]
        env = {**os.environ, "PTXW_TEST_WAIT_NS": SANITIZER_WAIT_NS}
    try:
        # its own process group: a timeout ends the test binary under the sanitizer too
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                             start_new_session=True)
    except OSError as e:
        raise toolchain.ToolError(f"cannot run {cmd[0]}: {e.strerror}") from None
    try:
        text, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return f"no end within {timeout:g} s"
    if p.returncode != 0:
        failed = list(dict.fromkeys(f.rstrip(",") for f in re.findall(r"^\[  FAILED  \] (\S+\.\S+)", text, re.M)))
        more = f" and {len(failed) - 3} more" if len(failed) > 3 else ""
        return (f"{c.tool} reports" if c.tool and p.returncode == 9 else
                f"failed: {', '.join(failed[:3])}{more}" if failed else f"exit {p.returncode}")
    ran, skipped = _RAN.search(text), _SKIPPED.search(text)
    if strict and (not ran or int(ran.group(1)) == 0):
        return "no test matches the filter"
    if strict and skipped:
        return f"{skipped.group(1)} of its tests skipped (no sm_90 GPU here?)"
    return None

