"""ptxas acceptance probes: does this toolchain's ptxas accept one PTX instruction for a target?

Each probe assembles a one-instruction kernel with the toolchain's own PTX ISA version. The codegen
suite turns accepted probes into lit features (a test REQUIRES the instructions it checks), so a
test runs exactly on the targets whose ptxas takes its instruction -- measured, not assumed."""

import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import toolchain

_KERNEL = """.version {isa}
.target {target}
.address_size 64
.visible .entry ptxw_probe()
{{
  .reg .b64 %rd<4>;
  .reg .b32 %r<4>;
  .reg .pred %p<4>;
  .shared .align 16 .b8 slot[16];
  .shared .align 8 .b64 bar;
  {instruction}
  ret;
}}
"""


@dataclass(frozen=True)
class Probe:
    feature: str
    instruction: str


PROBES = (
    Probe("mbarrier", "mbarrier.init.shared::cta.b64 [bar], 1;"),
    Probe("mbarrier-tx", "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], 16;"),
    Probe("mbarrier-relaxed", "mbarrier.arrive.relaxed.cta.shared::cta.b64 %rd1, [bar];"),
    Probe("fence-proxy-async", "fence.proxy.async.shared::cta;"),
    Probe("fence-mbarrier-init", "fence.mbarrier_init.release.cluster;"),
    Probe("fence-sync-restrict", "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;"),
    Probe("clc", "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [slot], [bar];"),
    Probe(
        "clc-multicast",
        "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128"
        " [slot], [bar];",
    ),
)


@dataclass(frozen=True)
class Verdict:
    accepted: bool
    command: str
    output: str


def assemble(tc: toolchain.Toolchain, target: str, instruction: str) -> Verdict:
    with tempfile.TemporaryDirectory() as tmp:
        ptx = Path(tmp, "probe.ptx")
        ptx.write_text(_KERNEL.format(isa=tc.ptx_isa, target=target, instruction=instruction))
        cmd = [tc.ptxas, f"--gpu-name={target}", ptx, "-o", Path(tmp, "probe.cubin")]
        out = toolchain.run(cmd)
        return Verdict(out.returncode == 0, " ".join(map(str, cmd)), (out.stdout + out.stderr).strip())


def accepted_features(tc: toolchain.Toolchain, target: str) -> set:
    return {p.feature for p in PROBES if assemble(tc, target, p.instruction).accepted}
