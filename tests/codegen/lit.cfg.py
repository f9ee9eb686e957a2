# lit configuration of the ptxw codegen suite. One lit run checks one compile target:
#
#   lit tests/codegen --param target=sm_100a [--param cuda_root=/usr/local/cuda] [--param build_dir=build]
#
# Features come from the toolchain: a target ptxas does not know makes every test UNSUPPORTED, and
# each instruction family is a feature only where ptxas accepts it (tools/ptxwtools/probes.py).
# Substitutions:
#   %ptxw-compile  compile a test for the target: -o %t writes %t.ptx, %t.cubin, %t.sass
#   %ptx-check     FileCheck with prefixes PTX, PTX-<family> (PTX-SM10X), PTX-<target> (PTX-SM100A)
#   %sass-check    the same for SASS
#   %ptx-generated=NAMES, %sass-generated=NAMES  the same with prefixes NAME-PTX, NAME-PTX-SM10X, ... per
#                  name: the checks `ptxw update-checks` writes (tools/ptxwtools/update_checks.py)
#   %ptxw-sass-equal  every ptxw_X function has the same normalised SASS as ref_X
#   %ptxw-gate     ptxw's R9 gate of every form of tools/ptxwtools/variants.py against ptxas, for the target
#   %nvcc          nvcc for the target with ptxw on the include path (diagnostic tests)
#   %cuobjdump     the cuobjdump the suite disassembles with
#
# Correct code compiles without warnings on every target: %ptxw-compile fails on any warning or
# advisory of nvcc or ptxas, and %nvcc makes every warning an error (-Werror all-warnings), so a
# diagnostic test's correct spellings compile silently and each misuse case prints exactly one error.
# A test that provokes a warning on purpose passes --allow-warnings to %ptxw-compile; in the tests
# of KNOWN_WARNINGS below, which print one anyway until they are fixed, neither substitution checks.
# -*- Python -*-
import os
import sys
from pathlib import Path

# Tests whose correct kernels still print a warning or advisory, each with why: the only exceptions
# to the zero-warnings check. Remove an entry when its test is fixed.
KNOWN_WARNINGS = {}

source_root = Path(__file__).resolve().parent
repo = source_root.parents[1]
sys.path.insert(0, str(repo / "tools"))
from ptxwtools import probes, targets, toolchain  # noqa: E402

params = lit_config.params
if "target" not in params:
    lit_config.fatal("ptxw codegen runs once per target: pass --param target=sm_90a (or sm_100a, ...)")
try:
    target = targets.parse(params["target"])
    tc = toolchain.find_toolchain(params.get("cuda_root"))
    filecheck = toolchain.find_filecheck()
    cuobjdump = toolchain.find_disassembler(tc.root)
    known_targets, ptxas_version = tc.targets, tc.version
except (targets.UnknownTarget, toolchain.ToolError) as e:
    lit_config.fatal(str(e))

config.name = f"ptxw-codegen-{target.name}"
config.suffixes = [".cu", ".test"]  # .test: a tool run, no source of its own (gate/variants.test)
config.excludes = ["Inputs"]
config.test_source_root = str(source_root)
config.test_exec_root = str(Path(params.get("build_dir", repo / "build")).resolve() / "codegen" / target.name)
Path(config.test_exec_root).mkdir(parents=True, exist_ok=True)

if target.name not in known_targets:
    config.unsupported = True
    lit_config.note(f"ptxas {ptxas_version} ({tc.ptxas}) does not know {target.name}: its tests are unsupported")
config.available_features.update(probes.lit_features(tc, target.name))
# The wrappers' SASS is the same on every target of a family (ptxas 13.0.88: sm_100, sm_100f, sm_103a
# and sm_110a emit sm_100a's, sm_121a sm_120a's, for every test below), so these directories run on
# one target per family and on sm_80; cluster launch control (whose SASS differs on sm_103a and
# sm_110a), the gates and the diagnostics run on every target, and the conformance grid assembles
# every form on every target.
PER_FAMILY = ["mbarrier", "fence", "last_block", "work_queue"]
if target.name not in (*probes.FAMILY_REPRESENTATIVES, "sm_80"):
    config.excludes += PER_FAMILY

config.environment["PATH"] = os.pathsep.join([str(filecheck.parent), os.environ.get("PATH", "")])
if "PTXW_DEPS_DIR" in os.environ:  # where the tools find the disassembler (tools/ptxwtools/toolchain.py)
    config.environment["PTXW_DEPS_DIR"] = os.environ["PTXW_DEPS_DIR"]
python, tools = sys.executable, repo / "tools"
check = f"{filecheck} --allow-unused-prefixes --check-prefixes="
compile_ = f"{python} {tools / 'ptxw'} compile --cuda-root {tc.root} --target {target.name}"
nvcc = f"{tc.nvcc} -std=c++17 -I{repo / 'include'} -arch={target.name}"
sys.path.insert(0, str(source_root))
from ptxw_format import ShTestWithoutWarnings  # noqa: E402

config.test_format = ShTestWithoutWarnings(source_root, KNOWN_WARNINGS, nvcc, compile_)  # %nvcc, %ptxw-compile
config.substitutions += [
    ("%cuobjdump", str(cuobjdump)),
    ("%ptxw-sass-equal", f"{python} {tools / 'ptxw'} sass-equal"),
    ("%ptxw-gate", f"{python} {tools / 'ptxw'} gate --cuda-root {tc.root} --targets {target.name}"),
    # %sass-generated=GEN,RELAXED-GEN: the checks `ptxw update-checks` writes, under the prefixes of each
    # name (GEN-SASS, GEN-SASS-SM10X, GEN-SASS-SM100A, RELAXED-GEN-SASS, ...); up to three names.
    *((rf"%{kind}-generated=" + ",".join([r"([A-Z][A-Z0-9_-]*)"] * n) + r"(?![\w,-])",
       check + ",".join(rf"\{i}-{p}" for i in range(1, n + 1) for p in target.prefixes(kind.upper())))
      for kind in ("ptx", "sass") for n in (3, 2, 1)),
    ("%ptx-check", check + ",".join(target.prefixes("PTX"))),
    ("%sass-check", check + ",".join(target.prefixes("SASS"))),
]
