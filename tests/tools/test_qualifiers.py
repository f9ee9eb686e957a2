"""The qualifier table (include/ptxw/detail/qualifiers.h) against the conformance grid's variants
(tools/ptxwtools/variants.py): every form the table gates is a variant the grid measures, and every
variant's form is a row with the variant's first sm, so the grid measures the table itself."""

import itertools
import re
import subprocess
import unittest

from ptxwtools import toolchain, variants

HEADER = toolchain.REPO / "include" / "ptxw" / "detail" / "qualifiers.h"

# The rows' macros (every `#define PTXW_FORMS_...` and PTXW_MBARRIER_...: one line, or continued with \).
_MACRO = re.compile(r"^#define (PTXW_FORMS_\w+|PTXW_MBARRIER_\w+)\(.*?(?<!\\)$", re.M | re.S)
# Variants whose instruction has no row: clc.h gates cluster launch control and its emulation's bulk
# copy per backend (R9 in clc/backend.h), not per qualifier set.
_NOT_IN_TABLE = ("clusterlaunchcontrol.", "cp.async.bulk.")

_SPACES = {"shared::cta": "shared", "shared::cluster": "cluster", "global": "global"}


def table() -> dict:
    """{(instruction, sem, scope, space): first sm}: the header's rows, expanded by the C preprocessor
    (some rows are products, PTXW_MBARRIER_LOCAL_FORMS)."""
    text = HEADER.read_text()
    macros = [m.group(0) for m in _MACRO.finditer(text)]
    calls = [f"{m.split()[1].split('(')[0]}(ROW)" for m in macros if m.split()[1].startswith("PTXW_FORMS_")]
    source = "\n".join(["#define ROW(i, sem, scope, space, sm, isa) @i sem scope space sm@", *macros, *calls])
    out = subprocess.run(["cpp", "-P"], input=source, capture_output=True, text=True, check=True).stdout
    rows = [tuple(r.split()) for r in re.findall(r"@([^@]*)@", out)]
    return {r[:4]: int(r[4]) for r in rows}


def form_of(ptx: str):
    """(instruction, sem, scope, space) of a variant's PTX, as the table names it; None for _NOT_IN_TABLE."""
    if ptx.startswith(_NOT_IN_TABLE):
        return None
    parts = ptx.split()[0].rstrip(";").split(".")
    sem = next((p for p in parts if p in ("release", "relaxed", "acquire", "acq_rel")), "none")
    scope = next((p for p in parts[1:] if p in ("cta", "cluster", "gpu")), "none")
    space = next((_SPACES[p.removeprefix("sync_restrict::")] for p in parts
                  if p.removeprefix("sync_restrict::") in _SPACES), "none")
    # the opcode: the parts before the first qualifier (mbarrier.try_wait before .parity)
    ops = itertools.takewhile(lambda p: p not in ("parity", sem, scope, "global") and not p.startswith("shared::"), parts)
    instruction = "_".join(ops).replace("::", "_")
    if instruction == "atom":
        instruction += "_" + next(p for p in parts if p in ("add", "cas", "exch", "min", "max"))
    if instruction == "mbarrier_arrive" and space == "cluster":
        instruction = "mbarrier_arrive_remote"  # the table's name for the remote arrive
    return instruction, sem, scope, space


class QualifierTableTest(unittest.TestCase):
    def setUp(self):
        self.rows = table()
        self.forms = {v.id: form_of(v.ptx) for v in variants.VARIANTS}

    def test_the_header_has_rows(self):
        self.assertGreaterEqual(len(self.rows), 30)
        self.assertEqual(self.rows[("mbarrier_arrive", "relaxed", "cluster", "shared")], 90)

    def test_every_row_is_measured_by_a_variant(self):
        measured = set(self.forms.values())
        for row in self.rows:
            with self.subTest(row=row):
                self.assertIn(row, measured, f"no variant in variants.py measures {row}")

    def test_every_variant_is_a_row_with_its_first_sm(self):
        for v in variants.VARIANTS:
            form = self.forms[v.id]
            if form is None:
                continue
            with self.subTest(variant=v.id):
                self.assertIn(form, self.rows, f"{v.id}: {form} has no row in {HEADER.name}")
                self.assertEqual(self.rows[form], v.sm, f"{v.id}: first sm")

    def test_forms_of_the_ptx_spellings(self):
        self.assertEqual(form_of("mbarrier.try_wait.parity.relaxed.cluster.shared::cta.b64 %p1, [bar], 0;"),
                         ("mbarrier_try_wait", "relaxed", "cluster", "shared"))
        self.assertEqual(form_of("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [bar];"),
                         ("mbarrier_arrive_remote", "release", "cluster", "cluster"))
        self.assertEqual(form_of("fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;"),
                         ("fence_proxy_async_generic", "acquire", "cluster", "cluster"))
        self.assertEqual(form_of("mapa.shared::cluster.u32 %r1, %r2, 1;"), ("mapa", "none", "none", "cluster"))
        self.assertEqual(form_of("fence.proxy.async;"), ("fence_proxy_async", "none", "none", "none"))
        self.assertEqual(form_of("atom.release.gpu.global.add.u32 %r1, [p], 1;"), ("atom_add", "release", "gpu", "global"))
        self.assertEqual(form_of("fence.acq_rel.gpu;"), ("fence", "acq_rel", "gpu", "none"))


if __name__ == "__main__":
    unittest.main()
