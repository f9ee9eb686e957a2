"""Finding and asking the tools: a CUDA toolchain (nvcc, ptxas), the SASS disassembler and
FileCheck. Every failure is a ToolError whose message says what is missing and how to fix it.

The tools run from a checkout (tools/ptxw) or from the installed package
(<prefix>/share/ptxw/tools/ptxw, which ptxw_add_codegen_test runs); messages name the one running."""

import functools
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .errors import BadInput

REPO = Path(__file__).resolve().parents[3]
TOOL = Path(__file__).resolve().parents[2] / "ptxw"
IN_CHECKOUT = (REPO / "include" / "ptxw").is_dir() and TOOL == REPO / "tools" / "ptxw"
# ptxw's headers: the checkout's, or those installed beside the tools (<prefix>/include beside
# <prefix>/share/ptxw/tools/ptxw)
PTXW_INCLUDE = REPO / "include" if IN_CHECKOUT else TOOL.parents[3] / "include"


class ToolError(BadInput):
    """A tool that is missing or does not work: nothing can be measured with it."""


def tool_command() -> str:
    """How to run this ptxw: tools/ptxw in a checkout, else the installed tool's full path."""
    return "tools/ptxw" if IN_CHECKOUT else str(TOOL)


def command_line(command: str) -> str:
    """The running command as the user typed it, for reports."""
    args = sys.argv[2:] if sys.argv[1:2] == [command] else []
    return " ".join([tool_command(), command, *args])


def deps_dir() -> Path:
    """Where `ptxw setup` installs what the suite needs: PTXW_DEPS_DIR, else .deps/ in a checkout and
    $XDG_CACHE_HOME/ptxw (~/.cache/ptxw) for the installed package, whose prefix is rarely writable."""
    if os.environ.get("PTXW_DEPS_DIR"):
        return Path(os.environ["PTXW_DEPS_DIR"])
    if IN_CHECKOUT:
        return REPO / ".deps"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ptxw"


def run(cmd, **kw) -> subprocess.CompletedProcess:
    try:
        return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    except OSError as e:
        raise ToolError(f"cannot run {cmd[0]}: {e.strerror}") from None


@dataclass(frozen=True)
class Toolchain:
    root: Path

    @property
    def nvcc(self) -> Path:
        return self.root / "bin" / "nvcc"

    @property
    def ptxas(self) -> Path:
        return self.root / "bin" / "ptxas"

    @functools.cached_property
    def version(self) -> str:
        """ptxas's release, e.g. '13.0.88'."""
        out = run([self.ptxas, "--version"])
        m = re.search(r"\bV(\d+\.\d+\.\d+)", out.stdout)
        if out.returncode != 0 or not m:
            raise ToolError(f"{self.ptxas} --version failed or printed no version:\n{out.stdout}{out.stderr}")
        return m.group(1)

    @functools.cached_property
    def targets(self) -> frozenset:
        """The sm_ targets ptxas --help lists for --gpu-name."""
        out = run([self.ptxas, "--help"])
        m = re.search(r"--gpu-name.*?Allowed values for this option:(.*?)Default value", out.stdout, re.S)
        if out.returncode != 0 or not m:
            raise ToolError(f"{self.ptxas} --help does not list the allowed --gpu-name values")
        return frozenset(re.findall(r"'(sm_\d+[af]?)'", m.group(1)))

    def ptxas_command(self, target: str, ptx: Path, cubin: Path, *options) -> list:
        """ptxas as every ptxw tool runs it: one PTX file assembled for one target into one cubin, with
        options before them (-v for the spill counts)."""
        return [self.ptxas, *options, f"--gpu-name={target}", ptx, "-o", cubin]

    @property
    def has_nvcc(self) -> bool:
        """False for an assembler-only toolchain (CUDA 12.x from PyPI ships ptxas but no nvcc)."""
        return os.access(self.nvcc, os.X_OK)

    @functools.cached_property
    def ptx_isa(self) -> str:
        """The PTX ISA version nvcc writes into .version, e.g. '9.0'. Compiles an empty kernel, so
        a toolchain that cannot compile at all fails here, with its own message. Without nvcc: the
        newest version ptxas accepts."""
        if not self.has_nvcc:
            return self._ptxas_isa()
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp, "empty.cu")
            src.write_text("__global__ void ptxw_probe() {}\n")
            out = run([self.nvcc, "-ptx", "-arch=sm_90", src, "-o", Path(tmp, "empty.ptx")])
            if out.returncode != 0:
                raise ToolError(f"{self.nvcc} cannot compile an empty kernel:\n{out.stdout}{out.stderr}")
            m = re.search(r"^\.version\s+(\d+\.\d+)", Path(tmp, "empty.ptx").read_text(), re.M)
        if not m:
            raise ToolError(f"{self.nvcc} wrote PTX without a .version line")
        return m.group(1)

    def _ptxas_isa(self) -> str:
        # ptxas names its newest version when refusing a newer one.
        with tempfile.TemporaryDirectory() as tmp:
            ptx = Path(tmp, "v.ptx")
            ptx.write_text(".version 99.9\n.target sm_52\n.address_size 64\n")
            out = run([self.ptxas, ptx, "-o", Path(tmp, "v.cubin")])
        m = re.search(r"current version is '(\d+\.\d+)'", out.stdout + out.stderr)
        if not m:
            raise ToolError(f"{self.ptxas} does not say which PTX ISA it supports:\n{out.stdout}{out.stderr}")
        return m.group(1)

    def check(self, require_nvcc=True) -> "Toolchain":
        for tool in (self.nvcc, self.ptxas) if require_nvcc else (self.ptxas,):
            if not os.access(tool, os.X_OK):
                raise ToolError(f"no CUDA toolchain at {self.root}: {tool} is missing or not executable "
                                "(give --cuda-root, or set PTXW_CUDA_ROOT)")
        return self


def find_toolchain(spec=None, require_nvcc=True) -> Toolchain:
    """The toolchain a --cuda-root names (options.py): a CUDA root, 'system' or None (PTXW_CUDA_ROOT,
    CUDA_PATH, /usr/local/cuda), or the version of one `ptxw setup --toolchains` installs ('13.5')."""
    if spec and spec != "system" and "/" not in spec and not Path(spec).exists():
        from . import deps  # deps imports this module

        installed = dict(zip(deps.TOOLCHAINS, deps.toolchain_roots()))
        matches = [r for v, r in installed.items() if v == spec or v.startswith(spec + ".")]
        if not matches:
            raise BadInput(f"no toolchain '{spec}': give a CUDA root, 'system', or one of {', '.join(installed)}")
        if not (matches[0] / "bin" / "ptxas").exists():
            raise ToolError(f"CUDA {spec} is not installed: run `{tool_command()} setup --toolchains`")
        return Toolchain(matches[0].resolve()).check(require_nvcc=False)
    root = spec if spec and spec != "system" else \
        os.environ.get("PTXW_CUDA_ROOT") or os.environ.get("CUDA_PATH") or "/usr/local/cuda"
    return Toolchain(Path(root).resolve()).check(require_nvcc)


def find_disassembler(cuda_root=None) -> Path:
    """cuobjdump from the toolkit at cuda_root if it has one, else from the project's deps, else from
    PATH. It runs nvdisasm, which must sit beside it or on PATH."""
    candidates = [Path(cuda_root) / "bin" / "cuobjdump"] if cuda_root else []
    candidates += [Path(p) for p in sorted(glob.glob(str(deps_dir() / "py" / "nvidia" / "cu*" / "bin" / "cuobjdump")))]
    if shutil.which("cuobjdump"):
        candidates.append(Path(shutil.which("cuobjdump")))
    for path in candidates:
        if path.exists() and ((path.parent / "nvdisasm").exists() or shutil.which("nvdisasm")):
            return path
    raise ToolError(f"no cuobjdump (with the nvdisasm it runs): run `{tool_command()} setup`, which installs both "
                    f"from PyPI into {deps_dir()} (PTXW_DEPS_DIR chooses where), or put them on PATH")


def find_filecheck() -> Path:
    """FileCheck from PTXW_FILECHECK, PATH, or the newest /usr/lib/llvm-*/bin."""
    explicit = os.environ.get("PTXW_FILECHECK")
    if explicit:
        if not os.access(explicit, os.X_OK):
            raise ToolError(f"PTXW_FILECHECK={explicit} is not an executable")
        return Path(explicit)
    found = shutil.which("FileCheck")
    if found:
        return Path(found)
    llvm = sorted(glob.glob("/usr/lib/llvm-*/bin/FileCheck"), key=lambda p: int(re.search(r"llvm-(\d+)", p).group(1)))
    if llvm:
        return Path(llvm[-1])
    raise ToolError(
        "no FileCheck: install LLVM's tools (Debian: apt-get install llvm-14-tools), or set PTXW_FILECHECK; "
        f"`{tool_command()} setup` does the apt-get when it runs as root"
    )
