"""Theoretical occupancy of a kernel, as CUDA's occupancy calculator computes it: the warps of the
blocks an SM holds at once (limited by its registers, shared memory, warp and block slots) over the
SM's warp slots, for a block of the kernel's launch bound (THREADS: .maxntid or .reqntid in its PTX)
and its static shared memory plus the dynamic shared memory it is launched with, which the binary does
not record (DynamicSmem: `ptxw sass-diff --dynamic-smem`). A kernel without a launch bound has none:
its occupancy depends on the launch. Limits per compute capability from the CUDA C++ Programming
Guide's technical specifications.
"""

import math
import re
from dataclasses import dataclass

from ..core.errors import BadInput

# family -> (warps per SM, blocks per SM, shared memory per SM in bytes)
_LIMITS = {
    80: (64, 32, 164 * 1024), 86: (48, 16, 100 * 1024), 87: (48, 16, 164 * 1024), 89: (48, 24, 100 * 1024),
    90: (64, 32, 228 * 1024), 100: (64, 32, 228 * 1024), 103: (64, 32, 228 * 1024),
    120: (48, 24, 100 * 1024), 121: (48, 24, 100 * 1024),
}
_REGISTERS = 64 * 1024  # per SM, every target above
_REGISTER_UNIT = 256  # registers are allocated per warp in units of this many
_SHARED_UNIT = 128
_SHARED_RESERVED = 1024  # per block, taken by the system since sm_80


@dataclass(frozen=True)
class DynamicSmem:
    """The dynamic shared memory of each kernel's launch: BYTES for every kernel, NAME=BYTES for the kernel
    of that name (mangled, demangled or its own name without namespaces and template arguments), which
    wins over BYTES."""
    every: int = 0
    named: tuple = ()  # (name, bytes)

    @classmethod
    def parse(cls, specs) -> "DynamicSmem":
        every, named = 0, []
        for spec in specs:
            m = re.fullmatch(r"(?:(.+)=)?(\d+)", spec.strip())
            if not m:
                raise BadInput(f"--dynamic-smem {spec}: expected BYTES or KERNEL=BYTES (e.g. 49152, gemm=98304)")
            if m.group(1):
                named.append((m.group(1), int(m.group(2))))
            else:
                every = int(m.group(2))
        return cls(every, tuple(named))

    def of(self, *names) -> int:
        """The bytes of the kernel known by these names."""
        return next((b for n, b in self.named if n in names), self.every)


def of(target: str, resources: dict, dynamic_smem: int = 0):
    """Occupancy in percent (an int), or None where the launch bound or the target's limits are unknown.
    dynamic_smem: bytes of dynamic shared memory per block."""
    threads, regs = resources.get("THREADS"), resources.get("REG")
    limits = _LIMITS.get(int("".join(c for c in target.split("_")[-1] if c.isdigit()) or 0))
    if not threads or regs is None or not limits:
        return None
    max_warps, max_blocks, shared_per_sm = limits
    warps = math.ceil(threads / 32)
    per_warp = math.ceil(max(regs, 1) * 32 / _REGISTER_UNIT) * _REGISTER_UNIT
    by_regs = (_REGISTERS // per_warp) // warps
    shared = math.ceil((resources.get("SHARED", 0) + dynamic_smem + _SHARED_RESERVED) / _SHARED_UNIT) * _SHARED_UNIT
    blocks = min(max_blocks, max_warps // warps, by_regs, shared_per_sm // shared)
    return round(100 * blocks * warps / max_warps)
