"""Every instruction form ptxw wraps, as the conformance grid measures it: one variant per probe of
each row of the form table (forms/table.py), which holds them.

A variant is one PTX form (one qualifier combination) and three ways to reach it:
  ptx      the instruction alone, assembled by ptxas for the target (does ptxas accept it, and
           what SASS does it become);
  ptxw     a statement using ptxw's wrapper (does ptxw's arch gate agree with ptxas);
  cccl     a statement using CCCL's cuda::ptx binding, or None where CCCL has none (does CCCL's
           gate agree: CCCL turns a form its target lacks into a call to an undefined
           __cuda_ptx_*_is_not_supported_* function, i.e. a link error, not a compile error);
  runtime  gtest name patterns of tests/runtime that run the form on a GPU (built for sm_90a);
  sm       the first target the PTX ISA gives the form, the one its qualifier row gates on; the grid
           measures where ptxas agrees.
  isa      the row's first PTX ISA (100 x major + 10 x minor) where it is newer than CUDA 13.0's 9.0,
           else 0: a toolchain that speaks an older one rejects the form for its version, not the target.

Statements run in KERNEL below (after PRELUDE), which declares what they use. PTX probes run in
PTX_KERNEL.
"""

from dataclasses import dataclass, field

from ..forms import table

# The PTX ISA of CUDA 13.0, the suite's toolchain: a form of a newer one gets Variant.isa.
_TOOLCHAIN_ISA = 900

PRELUDE = """#include <ptxw/ptxw.h>
#include <cuda/ptx>
namespace ptx = cuda::ptx;
"""

KERNEL = """extern "C" __global__ void {name}(unsigned n, unsigned r, unsigned* out,
                                   ptxw::clc::context<ptxw::clc::hardware_t> hw,
                                   ptxw::clc::context<ptxw::clc::emulated_t> emu)
{{
  [[maybe_unused]] __shared__ ptxw::cta_barrier bar;
  [[maybe_unused]] __shared__ ptxw::cluster_barrier cbar;
  [[maybe_unused]] __shared__ uint64_t raw;
  [[maybe_unused]] __shared__ alignas(16) uint4 resp;
  ptxw::phase ph;
  (void) n, (void) r, (void) out, (void) hw, (void) emu, (void) ph;
  {statement}
}}
"""

PTX_KERNEL = """.version {isa}
.target {target}
.address_size 64
.visible .entry ptxw_probe_{name}(.param .u64 ptxw_probe_src)
{{
  .reg .b64 %rd<4>;
  .reg .b32 %r<4>;
  .reg .b16 %h<2>;
  .reg .pred %p<4>;
  .reg .b128 %rq<2>;
  .shared .align 16 .b8 slot[16];
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd2, [ptxw_probe_src];
  mov.b128 %rq1, {{%rd2, %rd2}};
  {instruction}
  ret;
}}
"""


@dataclass(frozen=True)
class Variant:
    id: str
    family: str
    ptx: str
    ptxw: str
    cccl: str = None
    runtime: tuple = field(default=())
    sm: int = 90
    isa: int = 0

    @property
    def mnemonic(self) -> str:
        """The PTX text every accepted compile of this variant must contain."""
        return self.ptx.split()[0]


def _variants(forms) -> tuple:
    """One variant per probe of each form, with the form's first sm and (where newer than CUDA 13.0's
    9.0) its first PTX ISA."""
    return tuple(Variant(p.id, f.family, p.ptx, p.ptxw, p.cccl, p.runtime, f.sm, f.isa if f.isa > _TOOLCHAIN_ISA else 0)
                 for f in forms for p in f.probes)


VARIANTS = _variants(table.FORMS)
BY_ID = {v.id: v for v in VARIANTS}
