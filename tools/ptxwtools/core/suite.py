"""`ptxw test`: set up, configure, build and run every test (CTest), the tests that need no build beside the
build."""

import os
import subprocess

from . import deps, errors, options, toolchain
from .errors import ExitCode


def add_parser(sub):
    t = sub.add_parser("test", help="set up, build and run every test (CTest)")
    options.add_build_dir(t, "the CMake build")
    t.set_defaults(run=run)


def run(a) -> ExitCode:
    """Configure; build, and beside the build the tests labelled no-build (the codegen suite, the tools' tests, the
    package test: most of the time, and nothing they compile comes from the build); then the rest."""
    deps.setup(toolchains=True)  # the sass-diff tests compare CUDA 13.0 with 13.5
    build = options.build_dir_of(a)
    jobs = str(os.cpu_count() or 2)
    ctest = ["ctest", "--test-dir", str(build), "-j", jobs, "--output-on-failure"]

    def step(cmd):
        """None, or the command line if it failed."""
        print("+ " + " ".join(cmd), flush=True)
        return None if subprocess.run(cmd).returncode == 0 else " ".join(cmd)

    configure = step(["cmake", "-S", str(toolchain.REPO), "-B", str(build), "-DPTXW_BUILD_TESTS=ON"])
    if configure:
        raise errors.Failure(f"step failed: {configure}")
    log = build / "Testing" / "no-build.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    beside_cmd = [*ctest, "-L", "^no-build$"]
    print(f"+ {' '.join(beside_cmd)} > {log}  (beside the build; its output follows the build's)", flush=True)
    with open(log, "w") as out:
        beside = subprocess.Popen(beside_cmd, stdout=out, stderr=subprocess.STDOUT)
    try:
        failed = [step(["cmake", "--build", str(build), "-j", jobs]) or step([*ctest, "-LE", "^no-build$"])]
    finally:
        beside_rc = beside.wait()
    print(log.read_text(), end="", flush=True)
    failed = [f for f in failed if f] + ([" ".join(beside_cmd)] if beside_rc else [])
    if failed:
        raise errors.Failure("step failed: " + "; ".join(failed))
    return ExitCode.OK
