"""`ptxw check`: FileCheck a user's kernel, compiled for one target, with the prefixes and features of
ptxw's own codegen suite. The installed package's ptxw_add_codegen_test() runs it (cmake/ptxwCodegen.cmake).

    ptxw check kernel.cu --target sm_100a --checks kernel.checks --requires mbarrier --out out/check -- -DN=4

The checks file holds FileCheck directives under the suite's prefixes: PTX, PTX-SM10X, PTX-SM100A
for the PTX; SASS, SASS-SM10X, SASS-SM100A for the canonical SASS listing (sass.py). A kind with no
directive for the target is not checked; a checks file with none at all for the target is an error
(a test that checks nothing passes by doing nothing). Several sources are checked as one listing,
in the order given.

Exit status: 0 the checks hold; 1 a check or a compile failed (FileCheck's or nvcc's message is
printed); 2 bad input (unknown target, missing tool or file, no directive); 77 unsupported here:
ptxas lacks the target or rejects a --requires feature (probes.FEATURES), with why -- CTest's
SKIP_RETURN_CODE.
"""

import argparse
import re
import subprocess
import sys
from pathlib import Path

from ..core import compile as compile_, errors, options, probes, targets, toolchain
from ..core.errors import ExitCode

_SUFFIX = r"(-(DAG|NEXT|NOT|SAME|LABEL|EMPTY|COUNT-\d+))?:"


def _has_directive(text: str, prefixes) -> bool:
    return any(re.search(rf"(?<![\w-]){re.escape(p)}{_SUFFIX}", text) for p in prefixes)


def check(sources, target_name, checks: Path, out: Path, cuda_root=None, requires=(), nvcc_flags=()) -> ExitCode:
    """Raises BadInput for what is not there, Skipped where ptxas lacks the target or a feature, and
    CompileError (a failure) for a kernel that does not compile."""
    target = targets.parse(target_name)
    tc = toolchain.find_toolchain(cuda_root)
    filecheck = toolchain.find_filecheck()
    unknown = sorted(set(requires) - set(probes.FEATURES))
    if unknown:
        raise errors.BadInput(f"unknown --requires feature {', '.join(unknown)} (known: {', '.join(probes.FEATURES)})")
    for f in (checks, *sources):
        if not f.is_file():
            raise errors.BadInput(f"no such file: {f}")
    text = checks.read_text()
    kinds = [k for k in ("PTX", "SASS") if _has_directive(text, target.prefixes(k))]
    if not kinds:
        raise errors.BadInput(f"{checks} has no FileCheck directive for {target.name} "
                              f"(prefixes {', '.join(target.prefixes('PTX') + target.prefixes('SASS'))})")
    if target.name not in tc.targets:
        raise errors.Skipped(f"unsupported: ptxas {tc.version} ({tc.ptxas}) does not know {target.name}")
    missing = sorted(set(requires) - probes.accepted_features(tc, target.name))
    if missing:
        raise errors.Skipped(f"unsupported: ptxas {tc.version} rejects {', '.join(missing)} for {target.name} "
                             f"({', '.join(probes.FEATURES[m] for m in missing)})")
    out.mkdir(parents=True, exist_ok=True)
    listing = {"PTX": [], "SASS": []}
    for i, src in enumerate(sources):
        stem = out / f"{i}.{src.stem}"
        compile_.compile_source(src.resolve(), target, stem, tc, nvcc_flags)
        listing["PTX"].append(stem.with_name(stem.name + ".ptx").read_text())
        listing["SASS"].append(stem.with_name(stem.name + ".sass").read_text())
    status = ExitCode.OK
    for kind in kinds:
        inputs = out / f"all.{kind.lower()}"
        inputs.write_text("\n".join(listing[kind]))
        cmd = [filecheck, "--allow-unused-prefixes", "--check-prefixes=" + ",".join(target.prefixes(kind)), checks,
               f"--input-file={inputs}"]
        r = subprocess.run([str(c) for c in cmd])
        if r.returncode != 0:
            sys.stderr.write(f"ptxw check: {kind} checks failed for {target.name}: {' '.join(map(str, cmd))}\n")
            status = ExitCode.FAILED
        else:
            print(f"{kind} checks hold for {target.name} ({inputs})")
    return status


def add_parser(sub):
    p = sub.add_parser("check", help="FileCheck a kernel for one target with the suite's prefixes",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog="Arguments after -- go to nvcc.")
    p.add_argument("sources", nargs="+", type=Path)
    p.add_argument("--target", required=True)
    p.add_argument("--checks", required=True, type=Path)
    p.add_argument("--out", required=True, type=Path, help="folder for the PTX, cubin and SASS it checks")
    p.add_argument("--requires", action="append", default=[], metavar="FEATURE", help="repeatable")
    options.add_cuda_root(p)
    p.set_defaults(run=lambda a: check(a.sources, a.target, a.checks, a.out, a.cuda_root, a.requires, a.nvcc_flags),
                   takes_nvcc_flags=True, more_positionals=("sources", Path))
