"""ptxas acceptance probes: does this toolchain's ptxas accept one PTX instruction for a target?

A probe assembles a one-instruction kernel (variants.PTX_KERNEL) with the toolchain's own PTX ISA
version. The codegen suite turns accepted probes into lit features (a test REQUIRES the
instructions it checks), so a test runs exactly on the targets whose ptxas takes its instruction
-- measured, not assumed. The conformance grid assembles every variant the same way."""

import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import toolchain, variants

# lit feature -> the variant whose acceptance defines it.
FEATURES = {
    "mbarrier": "mbarrier.init",
    "mbarrier-tx": "mbarrier.expect_tx.relaxed.cta",
    "mbarrier-relaxed": "mbarrier.arrive.relaxed.cta",
    "mbarrier-layout": "mbarrier.init.layout::v1",
    "fence-proxy-async": "fence.proxy.async.shared::cta",
    "fence-mbarrier-init": "fence.mbarrier_init.release.cluster",
    "fence-sync-restrict": "fence.proxy.async::generic.release.sync_restrict",
    "clc": "clusterlaunchcontrol.try_cancel",
    "clc-multicast": "clusterlaunchcontrol.try_cancel.multicast",
}


@dataclass(frozen=True)
class Verdict:
    accepted: bool
    command: str
    output: str
    returncode: int


def kernel_name(variant_id: str) -> str:
    return re.sub(r"\W", "_", variant_id)


def ptx_module(tc: toolchain.Toolchain, target: str, instructions: dict) -> str:
    """One PTX module with a kernel per {name: instruction}."""
    head, _, body = variants.PTX_KERNEL.partition(".visible")
    return head.format(isa=tc.ptx_isa, target=target) + "".join(
        (".visible" + body).format(name=name, instruction=ins) for name, ins in instructions.items())


def assemble(tc: toolchain.Toolchain, target: str, instruction: str, cubin: Path = None) -> Verdict:
    with tempfile.TemporaryDirectory() as tmp:
        ptx = Path(tmp, "probe.ptx")
        ptx.write_text(ptx_module(tc, target, {"probe": instruction}))
        cmd = tc.ptxas_command(target, ptx, cubin or Path(tmp, "probe.cubin"))
        out = toolchain.run(cmd)
        return Verdict(out.returncode == 0, " ".join(map(str, cmd)), (out.stdout + out.stderr).strip(), out.returncode)


def accepted_features(tc: toolchain.Toolchain, target: str) -> set:
    return {f for f, v in FEATURES.items() if assemble(tc, target, variants.BY_ID[v].ptx).accepted}


# Diagnostics whose checks are the same C++ on every target (R6, R10-R12: only R9 depends on it) run on
# one target per family; each case is a compile of its own.
FAMILY_REPRESENTATIVES = ("sm_90a", "sm_100a", "sm_120a")


def lit_features(tc: toolchain.Toolchain, target: str) -> set:
    """The codegen suite's lit features for a target (tests/codegen/lit.cfg.py): the ptxas version, the
    target, what ptxas accepts there, and family-representative; none where ptxas lacks the target."""
    if target not in tc.targets:
        return set()
    features = {f"ptxas-{'.'.join(tc.version.split('.')[:2])}", f"target-{target}", *accepted_features(tc, target)}
    if target in FAMILY_REPRESENTATIVES:
        features.add("family-representative")
    return features
