# lit configuration of the ptxw codegen suite. One lit run checks one compile target:
#
#   lit tests/codegen --param target=sm_100a [--param cuda_root=/usr/local/cuda] [--param build_dir=build]
#
# The configuration, its features and substitutions are those every codegen suite has, a project's too
# (tools/ptxwtools/codegen/lit_suite.py says which, and the one set of nvcc flags every compile gets); this suite
# adds
#   %ptxw-gate     ptxw's R9 gate of every form of tools/ptxwtools/core/variants.py against ptxas, for the target
# and runs some folders on one target per family (PER_FAMILY below).
# -*- Python -*-
import sys
from pathlib import Path

source_root = Path(__file__).resolve().parent
repo = source_root.parents[1]
sys.path.insert(0, str(repo / "tools"))
from ptxwtools.codegen import lit_suite  # noqa: E402
from ptxwtools.core import probes  # noqa: E402

build_dir = Path(lit_config.params.get("build_dir", repo / "build")).resolve()
target, tc = lit_suite.configure(config, lit_config, "ptxw-codegen", source_root, build_dir / "codegen")

# What runs where. The wrappers' SASS is the same on every target of a family (ptxas 13.0.88: sm_100,
# sm_100f, sm_103a and sm_110a emit sm_100a's, sm_121a sm_120a's, for every test of PER_FAMILY);
# cluster launch control's is the representative's on sm_100 and sm_100f only. The diagnostics are
# the types' verdicts, the same on every target except R9's, which are the target's. So off the
# family representatives and sm_80 run the gates, the R9 diagnostics and, where its SASS is the
# target's own, cluster launch control; the conformance grid assembles every form on every target.
PER_FAMILY = ["mbarrier", "fence", "last_block", "work_queue"]
CLC_AS_REPRESENTATIVE = ("sm_100", "sm_100f")
if target.name not in (*probes.FAMILY_REPRESENTATIVES, "sm_80"):
    config.excludes += PER_FAMILY
    config.excludes += [f.name for f in (source_root / "diagnostics").glob("*.cu")
                        if not (f.name.startswith("r9_") or "_r9_" in f.name)]
    if target.name in CLC_AS_REPRESENTATIVE:
        config.excludes += ["clc"]

config.substitutions.insert(0, ("%ptxw-gate", f"{sys.executable} {repo / 'tools' / 'ptxw'} gate --cuda-root {tc.root} "
                                              f"--targets {target.name}"))
