"""The options several `ptxw` commands share, spelled and explained once: --targets, --cuda-root and
--build-dir, and how a command line is read before argparse sees it.

--targets takes target names separated by spaces or commas, in one or several --targets (also
--targets=a,b); the list ends at the first word that cannot be a target name (one with a '.', a '/'
or a leading '-'), so `--targets sm_90a k.cu` leaves k.cu a source.

--cuda-root names one CUDA toolchain, the same way in every command: a CUDA root, `system`
(PTXW_CUDA_ROOT, CUDA_PATH, /usr/local/cuda) or the version of one `ptxw setup --toolchains`
installs (13.5, 12.9). Commands that compare or measure several repeat it.

--build-dir is where a command writes (reports, caches, extracted revisions): by default build/ at
the top of the git checkout the command runs in, else in the current folder -- the caller's
project, never the folder the tools are installed in.
"""

import argparse
import re
from pathlib import Path

from . import toolchain

_TARGET_WORD = re.compile(r"^[A-Za-z0-9_]+(?:,[A-Za-z0-9_]*)*$")
TARGETS_HELP = "compile targets: sm_90a sm_100a, sm_90a,sm_100a, or repeated --targets"
CUDA_ROOT_HELP = "a CUDA root, 'system' (PTXW_CUDA_ROOT, CUDA_PATH, /usr/local/cuda) or an installed version (13.5)"


def split_nvcc_flags(argv):
    """(own arguments, nvcc flags): what follows `--` goes to nvcc."""
    argv = list(argv)
    if "--" not in argv:
        return argv, []
    i = argv.index("--")
    return argv[:i], argv[i + 1:]


def expand_targets(argv) -> list:
    """The command line with every --targets list written as one --targets=NAME per target."""
    out, i = [], 0
    while i < len(argv):
        word = argv[i]
        if word == "--targets":
            i += 1
            names = []
            while i < len(argv) and (not names or _TARGET_WORD.match(argv[i])) and not argv[i].startswith("-"):
                names += argv[i].split(",")
                i += 1
            if not names:
                out.append(word)  # argparse says the list is missing
            out += [f"--targets={n}" for n in names if n]
            continue
        if word.startswith("--targets="):
            out += [f"--targets={n}" for n in word[len("--targets="):].split(",") if n] or [word]
        else:
            out.append(word)
        i += 1
    return out


def add_targets(p: argparse.ArgumentParser, default=None, required=False):
    """--targets, collected in order (see expand_targets); default when none is given."""
    p.add_argument("--targets", action="append", required=required, metavar="TARGET", help=TARGETS_HELP)
    p.set_defaults(default_targets=list(default or []))


def targets_of(a) -> list:
    return list(dict.fromkeys(a.targets)) if a.targets else list(a.default_targets)


def add_cuda_root(p: argparse.ArgumentParser, repeatable=False, help=CUDA_ROOT_HELP):
    if repeatable:
        p.add_argument("--cuda-root", action="append", default=[], metavar="CUDA_ROOT", help=help + " (repeatable)")
        # the option's former name in sass-diff and conformance, kept working but not shown
        p.add_argument("--toolchain", action="append", dest="cuda_root", help=argparse.SUPPRESS)
    else:
        p.add_argument("--cuda-root", metavar="CUDA_ROOT", help=help)


def default_build_dir(cwd: Path = None) -> Path:
    """build/ at the top of the git checkout around cwd, else in cwd."""
    cwd = (cwd or Path.cwd()).resolve()
    out = toolchain.run(["git", "-C", cwd, "rev-parse", "--show-toplevel"])
    return (Path(out.stdout.strip()) if out.returncode == 0 and out.stdout.strip() else cwd) / "build"


def add_build_dir(p: argparse.ArgumentParser, what="its outputs and caches go here"):
    p.add_argument("--build-dir", type=Path, default=None,
                   help=f"{what} (default: build/ at the top of the git checkout, else in the current folder)")


def build_dir_of(a, sub="") -> Path:
    root = Path(a.build_dir).resolve() if a.build_dir else default_build_dir()
    return root / sub if sub else root
