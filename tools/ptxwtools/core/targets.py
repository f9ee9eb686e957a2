"""The compile targets ptxw knows, and the names tests derive from them.

A target is what nvcc's -arch and ptxas's --gpu-name take: sm_<NN>[a|f]. Its check prefixes
follow the three levels of CCCL's codegen tests: every target (PTX), a family (PTX-SM10X: sm_100
and sm_103; PTX-SM12X: sm_120 and sm_121) and the target itself (PTX-SM100A).
"""

import re
from dataclasses import dataclass

from .errors import BadInput

_NAME = re.compile(r"^sm_(\d{2,3})([af]?)$")

# The targets ptxw measures by default (the conformance grid): Hopper and every Blackwell target, plain,
# arch-specific (a) and family-specific (f) where ptxas 13.0 has them, and sm_80 to show the gates.
DEFAULT_TARGETS = ("sm_80", "sm_90", "sm_90a", "sm_100", "sm_100a", "sm_100f", "sm_103", "sm_103a", "sm_110",
                   "sm_110a", "sm_120", "sm_120a", "sm_121", "sm_121a")

# The codegen suite's targets, a part of them: every arch- or family-specific target; of the plain ones
# only sm_100, the one that lacks an instruction its arch-specific twin has (multicast cluster launch
# control), and sm_80, which lacks all of them (its tests are the R9 diagnostics).
SUITE_TARGETS = tuple(t for t in DEFAULT_TARGETS if t[-1] in "af" or t in ("sm_80", "sm_100"))


@dataclass(frozen=True)
class Target:
    name: str
    sm: int
    suffix: str

    @property
    def family(self) -> str:
        """SM9X, SM10X, SM11X, SM12X: GPUs that share a family-specific feature set."""
        return f"SM{self.sm // 10}X"

    def prefixes(self, kind: str) -> list:
        """FileCheck prefixes for one output kind ('PTX' or 'SASS'), widest first."""
        return [kind, f"{kind}-{self.family}", f"{kind}-{self.name.upper().replace('_', '')}"]


class UnknownTarget(BadInput):
    pass


def parse(name: str) -> Target:
    m = _NAME.match(name)
    if not m:
        raise UnknownTarget(
            f"unknown target '{name}': expected sm_<NN>, sm_<NN>a or sm_<NN>f (e.g. sm_90a, sm_100f)"
        )
    return Target(name=name, sm=int(m.group(1)), suffix=m.group(2))
