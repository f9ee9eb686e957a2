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


def _lowest_priority():
    os.nice(19)


def run(a) -> ExitCode:
    """Configure; build, and beside the build the tests labelled no-build (the codegen suite, the tools' tests, the
    package test: most of the time, and nothing they compile comes from the build); then the rest.

    The tests beside the build run at the lowest priority (nice 19): the build's jobs keep the cores and the tests
    take what the build leaves (its links, its last translation units), then every core once it is done. Both at one
    priority ran twice as many compilers as cores, which costs CPU time (each compiler's caches evicted by the others':
    about 5% more for the same compiles) and ended the run with the build's largest unit alone on one core."""
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
    print(f"+ nice -n 19 {' '.join(beside_cmd)} > {log}  (beside the build; its output follows the build's)", flush=True)
    with open(log, "w") as out:
        beside = subprocess.Popen(beside_cmd, stdout=out, stderr=subprocess.STDOUT, preexec_fn=_lowest_priority)
    try:
        failed = [step(["cmake", "--build", str(build), "-j", jobs]) or step([*ctest, "-LE", "^no-build$"])]
    finally:
        beside_rc = beside.wait()
    print(log.read_text(), end="", flush=True)
    failed = [f for f in failed if f] + ([" ".join(beside_cmd)] if beside_rc else [])
    if failed:
        raise errors.Failure("step failed: " + "; ".join(failed))
    return ExitCode.OK
