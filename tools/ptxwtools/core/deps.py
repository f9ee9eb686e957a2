"""`ptxw setup`: install what the suite needs, idempotently.

Project-local, from PyPI, into the deps folder's py/ (pip --target): LLVM lit (the PyPI one: Debian's
lit 14 lacks %if), cuobjdump and the nvdisasm it runs, and CUTLASS's C++ headers (nvidia-cutlass, for
the benchmark and codegen test that compare ptxw::pipeline with PipelineTmaAsync). The deps folder is
--deps-dir or PTXW_DEPS_DIR, else .deps/ in a checkout and ~/.cache/ptxw ($XDG_CACHE_HOME/ptxw) for the installed package; every
command finds the tools there (PTXW_DEPS_DIR), and `ptxw setup` says where it writes. From Debian, only when missing and only as root:
FileCheck (llvm-14-tools), GoogleTest (libgtest-dev), CMake. The CUDA toolkit itself is not
installed: a missing one is an error that says so."""

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from . import cache, toolchain
from .errors import ExitCode

PYPI = {
    "lit": "18.1.8",
    "nvidia-cuda-cuobjdump": "13.5.37",
    "nvidia-cuda-nvdisasm": "13.5.37",
    # CUTLASS 4.2.0's C++ headers (include/cutlass, include/cute) ship in the wheel under CUTLASS_INCLUDE; its
    # Python packages (cutlass_library, cutlass_cppgen, pycute) come along and are not used.
    "nvidia-cutlass": "4.2.0.0",
}
# In py/: the folder that holds cutlass/ and cute/ (-I for the CUTLASS comparisons).
CUTLASS_INCLUDE = ("cutlass_library", "source", "include")

# More CUDA toolchains for the conformance grid and `ptxw sass-diff`, from NVIDIA's PyPI wheels, each
# installed into one folder; "root" is the CUDA root inside it.
#  13.5: the wheels form a full CUDA root (nvidia/cu13: bin/nvcc, bin/ptxas, nvvm/, include/ with CCCL).
#  12.9: the CUDA 12 wheels ship no compiler driver: nvidia-cuda-nvcc-cu12 holds bin/ptxas, nvvm/lib64
#        (libnvvm, no cicc) and include/crt only (checked for 12.9.41 and 12.9.86). So 12.9 is an
#        assembler-only toolchain: it measures what ptxas does with PTX (the grid's ptxas and SASS
#        columns, `sass-diff` of .ptx sources); what needs nvcc is marked "no nvcc" there.
TOOLCHAINS = {
    "13.5.37": {
        "root": "nvidia/cu13",
        "packages": {
            "nvidia-cuda-nvcc": "13.5.37",
            "nvidia-nvvm": "13.5.37",
            "nvidia-cuda-crt": "13.5.37",
            "nvidia-cuda-runtime": "13.5.37",
            "nvidia-cuda-cccl": "13.3.5.0.6",
        },
    },
    "12.9.86": {
        "root": "nvidia/cuda_nvcc",
        "packages": {"nvidia-cuda-nvcc-cu12": "12.9.86"},
    },
}


def _say(msg):
    print(f"ptxw setup: {msg}", flush=True)


def _apt_install(*packages) -> bool:
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return False
    _say(f"installing {' '.join(packages)} with apt-get")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    cmd = ["apt-get", "install", "-y", "-q", "--no-install-recommends", *packages]
    if subprocess.run(cmd, env=env).returncode == 0:
        return True
    subprocess.run(["apt-get", "update", "-q"], env=env)
    return subprocess.run(cmd, env=env).returncode == 0


def _pypi(target_dir, packages):
    """pip install --target, once per set of pins: a stamp file records what is there. Installed
    beside the folder and renamed into place, so an interrupted install leaves no half folder."""
    stamp = target_dir / ".ptxw-stamp.json"
    if stamp.exists() and json.loads(stamp.read_text()) == packages:
        return
    _say(f"installing {', '.join(f'{k}=={v}' for k, v in packages.items())} into {target_dir}")
    fresh = target_dir.with_name(f".{target_dir.name}.{os.getpid()}.tmp")
    cmd = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--disable-pip-version-check",
           "--root-user-action=ignore", "--target", str(fresh), *(f"{k}=={v}" for k, v in packages.items())]
    if subprocess.run(cmd).returncode != 0:
        shutil.rmtree(fresh, ignore_errors=True)
        raise toolchain.ToolError(f"pip could not install {', '.join(packages)} (is PyPI reachable?)")
    cache.atomic_write(fresh / stamp.name, json.dumps(packages))
    if target_dir.exists():
        shutil.rmtree(target_dir)
    fresh.rename(target_dir)


def cutlass_include():
    """CUTLASS's include folder that setup() installed, or None where it is not there."""
    include = toolchain.deps_dir().joinpath("py", *CUTLASS_INCLUDE)
    return include if (include / "cutlass" / "pipeline" / "sm90_pipeline.hpp").is_file() else None


def toolchain_roots() -> list:
    """CUDA roots of the toolchains setup(toolchains=True) installed."""
    return [toolchain.deps_dir() / "toolchains" / f"cuda-{v}" / t["root"] for v, t in TOOLCHAINS.items()]


def _gtest_present() -> bool:
    return any(os.path.exists(p) for p in (
        "/usr/lib/x86_64-linux-gnu/cmake/GTest/GTestConfig.cmake",
        "/usr/lib/aarch64-linux-gnu/cmake/GTest/GTestConfig.cmake",
        "/usr/local/lib/cmake/GTest/GTestConfig.cmake",
    ))


def add_parser(sub):
    s = sub.add_parser("setup", help="install what the suite needs (idempotent)", description=__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("--toolchains", action="store_true", help="also the conformance grid's extra CUDA toolchains (PyPI)")
    s.add_argument("--deps-dir", help="install here (default: PTXW_DEPS_DIR, else .deps/ in a checkout, "
                                      "~/.cache/ptxw for the installed package)")
    s.set_defaults(run=_run)


def _run(a) -> ExitCode:
    if a.deps_dir:
        os.environ["PTXW_DEPS_DIR"] = str(Path(a.deps_dir).resolve())
    setup(toolchains=a.toolchains)
    return ExitCode.OK


def setup(toolchains=False) -> dict:
    """Install what is missing; return the tool paths. Raises ToolError naming what is missing.
    toolchains: also the extra CUDA toolchains (TOOLCHAINS, about 450 MB)."""
    missing = []
    tc = toolchain.find_toolchain()
    _say(f"CUDA {tc.version} at {tc.root}; installing into {toolchain.deps_dir()}")

    if not shutil.which("cmake") and not _apt_install("cmake"):
        missing.append("cmake (Debian: apt-get install cmake)")

    try:
        filecheck = toolchain.find_filecheck()
    except toolchain.ToolError:
        filecheck = None
        if _apt_install("llvm-14-tools"):
            filecheck = toolchain.find_filecheck()
    if filecheck is None:
        missing.append("FileCheck (Debian: apt-get install llvm-14-tools; or set PTXW_FILECHECK)")

    if not _gtest_present() and not _apt_install("libgtest-dev"):
        missing.append("GoogleTest (Debian: apt-get install libgtest-dev)")

    py_dir = toolchain.deps_dir() / "py"
    _pypi(py_dir, PYPI)
    if cutlass_include() is None:
        raise toolchain.ToolError(f"nvidia-cutlass=={PYPI['nvidia-cutlass']} has no cutlass/pipeline/sm90_pipeline.hpp "
                                  f"under {py_dir.joinpath(*CUTLASS_INCLUDE)} (deps.CUTLASS_INCLUDE)")
    if toolchains:
        for version, t in TOOLCHAINS.items():
            _pypi(toolchain.deps_dir() / "toolchains" / f"cuda-{version}", t["packages"])
    disasm = toolchain.find_disassembler()
    version = toolchain.run([disasm, "--version"])
    if version.returncode != 0:
        raise toolchain.ToolError(f"{disasm} does not run:\n{version.stderr}")

    if missing:
        raise toolchain.ToolError("missing, and not installable here:\n  " + "\n  ".join(missing))
    tools = {"cuda": str(tc.root), "filecheck": str(filecheck), "cuobjdump": str(disasm), "python_path": str(py_dir),
             "cutlass_include": str(cutlass_include())}
    _say("ready: " + ", ".join(f"{k}={v}" for k, v in tools.items()))
    return tools
