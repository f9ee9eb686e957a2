"""The form table (tools/ptxwtools/forms/table.py) and what it generates: the committed generated files
are what `tools/ptxw generate-forms` writes from it, every row is checked by a codegen test, and adding
a form is one row and a regeneration -- shown in a scratch copy of the repository, where a row removed
and then added back is refused with `ptxw: R10` before and gated by its row after (compiles on sm_90a,
`ptxw: R9` on sm_80), and listed as a conformance variant."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

from ptxwtools.core import toolchain, variants
from ptxwtools.forms import bindings, codegen, generate, table

REPO = toolchain.REPO
# The throwaway row: a real form whose wrapper is generic in its qualifiers (bar.test_wait(sem, scope, ph)).
THROWAWAY = "mbarrier.test_wait.parity.relaxed.cluster"


class GeneratedTest(unittest.TestCase):
    def test_the_committed_files_are_what_the_table_generates(self):
        for path, text in generate.outputs().items():
            with self.subTest(path=str(path)):
                self.assertEqual((REPO / path).read_text(), text,
                                 f"{path} is stale: run tools/ptxw generate-forms and commit it")

    def test_every_row_is_headed_by_its_ptx_line(self):
        text = generate.forms_h(table.FORMS)
        self.assertIn(generate.GENERATED, text.splitlines()[0])
        self.assertIn("// mbarrier.try_wait.parity.relaxed.cluster.shared::cta.b64 waitComplete, [addr], phaseParity"
                      "{, suspendTimeHint};  // PTX ISA 86, SM_90\n"
                      "PTXW_QUALIFIER_ROW(mbarrier_try_wait, relaxed, cluster, shared, 90, 860)\n", text)

    def test_a_binding_per_overload_headed_by_its_ptx_line(self):
        text = generate.outputs()[bindings.ISA_DIR / "mbarrier_remote.h"]
        self.assertIn(generate.GENERATED, text.splitlines()[0])
        self.assertIn("// mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [addr];  // PTX ISA 86, SM_90\n"
                      "// mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [addr], count;  // PTX ISA 86, SM_90\n"
                      "PTXW_ISA_MBARRIER_ARRIVE_REMOTE(relaxed)\n", text)
        self.assertIn("// mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [addr], txCount;  "
                      "// PTX ISA 80, SM_90\n__device__ inline void mbarrier_complete_tx_remote(", text)
        relaxed = next(f for f in table.FORMS if f.binding and f.binding.tag == "::cuda::ptx::sem_relaxed_t")
        self.assertEqual(bindings.function(relaxed.binding, bindings._lines(relaxed.ptx)[1]),
                         "__device__ inline void\nmbarrier_arrive_remote(::cuda::ptx::sem_relaxed_t, "
                         "::cuda::std::uint32_t addr, ::cuda::std::uint32_t count)\n{\n  asm volatile(\""
                         'mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%0], %1;" : : "r"(addr), "r"(count) '
                         ': "memory");\n}')

    def test_a_family_of_bindings_is_one_macro_expanding_to_each_forms_functions(self):
        """Bindings of one name whose forms differ in one qualifier are one macro of it, expanded below each
        form's PTX lines to the functions the form's lines make."""
        families = 0
        for path, text in generate.outputs().items():
            for name, q in re.findall(r"^#define PTXW_ISA_(\w+)\((\w+)\)", text, re.M):
                families += 1
                body = re.search(rf"^#define PTXW_ISA_{name}\({q}\) *\\\n((?:.*\\\n)*.*)$", text, re.M).group(1)
                forms = [f for f in table.FORMS if f.binding and f.binding.name == name.lower()]
                self.assertGreater(len(forms), 1)
                for form in forms:
                    with self.subTest(form=form.ptx):
                        value = form.binding.tag.rpartition(f"{q}_")[2][:-2]
                        lines = bindings._lines(form.ptx)
                        head = "".join(f"// {line}  // {generate.version(form)}\n" for line in lines)
                        self.assertIn(f"{head}PTXW_ISA_{name}({value})\n", text)
                        expanded = body.replace("\\\n", "\n").replace(f'" #{q} "', value).replace(f"##{q}##", value)
                        own = "\n".join(bindings.function(form.binding, line) for line in lines)
                        self.assertEqual(expanded.split(), own.split())
        self.assertEqual(families, 3)  # check_layout's layouts, complete_tx's scopes, the remote arrive's sems

    def test_a_qualifier_set_is_one_row(self):
        rows = [f.row[:4] for f in table.FORMS if f.instruction]
        self.assertEqual(len(rows), len(set(rows)), "two rows of one form (a redefinition in forms.h)")

    def test_variants_are_the_probes_of_the_rows(self):
        self.assertEqual([v.id for v in variants.VARIANTS], [p.id for f in table.FORMS for p in f.probes])
        self.assertEqual(len(variants.BY_ID), len(variants.VARIANTS), "a probe id twice")
        self.assertEqual(variants.BY_ID["mbarrier.init.layout::v1"].isa, 930)  # newer than CUDA 13.0's 9.0
        self.assertEqual(variants.BY_ID["mbarrier.arrive.relaxed.cta"].isa, 0)
        self.assertEqual(variants.BY_ID["fence.acq_rel.gpu"].sm, 70)


class CodegenCoverageTest(unittest.TestCase):
    def test_every_row_has_a_codegen_test(self):
        found = codegen.tests(REPO)
        for form in table.FORMS:
            with self.subTest(form=form.probes[0].id):
                self.assertTrue(codegen.checking(form, found), f"no codegen test checks {form.ptx} "
                                f"(tools/ptxw generate-forms writes a skeleton: {codegen.skeleton_path(form)})")

    def test_a_test_checks_a_form_through_its_run_lines_qualifiers(self):
        text = textwrap.dedent("""\
            // RUN: %ptxw-compile %s -o %t.relaxed -- -DSEM=relaxed -DSCOPE=cluster
            // PTX: mbarrier.test_wait.parity.[[SEM]].[[SCOPE]].shared::cta.b64
            """)
        found = {Path("t.cu"): codegen._texts(text)}
        by_id = {p.id: f for f in table.FORMS for p in f.probes}
        self.assertEqual(codegen.checking(by_id[THROWAWAY], found), [Path("t.cu")])
        self.assertEqual(codegen.checking(by_id["mbarrier.test_wait.parity.acquire.cluster"], found), [])

    def test_the_skeleton_of_a_form_no_test_checks(self):
        form = next(f for f in table.FORMS if f.probes[0].id == THROWAWAY)
        text = codegen.skeleton(form)
        self.assertTrue(text.startswith(f"// {form.ptx}  // PTX ISA 86, SM_90\n"))
        self.assertIn("// REQUIRES: mbarrier-relaxed\n", text)
        self.assertIn("// RUN: %ptxw-sass-equal %t.sass\n", text)
        self.assertIn('extern "C" __global__ void ptxw_mbarrier_test_wait_parity_relaxed_cluster(', text)
        self.assertIn(form.probes[0].cccl, text)


def _copy(scratch: Path):
    for part in ("include", "tools", "tests/codegen"):
        shutil.copytree(REPO / part, scratch / part, ignore=shutil.ignore_patterns("__pycache__"))


def _in(scratch: Path, code: str) -> str:
    """Python run against the scratch copy's tools (its ptxwtools, its table, its headers)."""
    env = {**os.environ, "PYTHONPATH": str(scratch / "tools"), "PTXW_DEPS_DIR": str(toolchain.deps_dir())}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=scratch)
    if run.returncode != 0:
        raise AssertionError(run.stdout + run.stderr)
    return run.stdout


_GATE = """
import tempfile
from pathlib import Path
from ptxwtools.core import gate, toolchain, variants
tc = toolchain.find_toolchain()
statement = {statement!r}
print({throwaway!r} in variants.BY_ID)
for target in ("sm_90a", "sm_80"):
    with tempfile.TemporaryDirectory() as tmp:
        rc, _, _, ptx, found = gate.compile_statements(tc, target, {{"k": statement}}, Path(tmp))
    print(target, rc, [m.split(":")[0] + ":" + m.split(":")[1] for m, _ in found][:1] or ["-"], {mnemonic!r} in ptx)
"""


class AddingAFormTest(unittest.TestCase):
    def test_adding_a_form_is_one_row_and_a_regeneration(self):
        try:
            toolchain.find_toolchain()
        except Exception as e:  # no CUDA here: nothing to compile with
            self.skipTest(str(e))
        v = variants.BY_ID[THROWAWAY]
        source = (REPO / "tools/ptxwtools/forms/table.py").read_text()
        start = source.index('    _test_wait("relaxed", "cluster",')
        end = source.index("    # ---- fences")
        row = source[start:end]
        self.assertEqual(row.count("\n    _"), 0, "the throwaway is one row")
        probe = _GATE.format(statement=v.ptxw, throwaway=THROWAWAY, mnemonic=v.mnemonic)
        with tempfile.TemporaryDirectory() as tmp:
            scratch = Path(tmp)
            _copy(scratch)
            table_py = scratch / "tools/ptxwtools/forms/table.py"
            table_py.write_text(source.replace(row, ""))
            _in(scratch, "from ptxwtools import cli; cli.main(['generate-forms'])")
            before = _in(scratch, probe).split("\n")
            table_py.write_text(table_py.read_text().replace("\n)\n", f"\n{row})\n"))
            out = _in(scratch, "from ptxwtools import cli; cli.main(['generate-forms'])")
            after = _in(scratch, probe).split("\n")
            header = (scratch / generate.FORMS_H).read_text()
        # without the row: not a variant, and R10 (no such form) on every target
        self.assertEqual(before[0], "False")
        self.assertRegex(before[1], r"^sm_90a [1-9]\d* \['static assertion failed with \"ptxw: R10")
        self.assertRegex(before[2], r"^sm_80 [1-9]\d* \['static assertion failed with \"ptxw: R10")
        # with it, and nothing else changed: a variant, compiling to the instruction on sm_90a, R9 on sm_80
        self.assertEqual(out, "updated include/ptxw/isa/forms.h\n")  # a codegen test checks it: no skeleton
        self.assertIn("PTXW_QUALIFIER_ROW(mbarrier_test_wait, relaxed, cluster, shared, 90, 860)", header)
        self.assertEqual(before[0:1] + after[0:1], ["False", "True"])
        self.assertEqual(after[1], "sm_90a 0 ['-'] True")
        self.assertRegex(after[2], r"^sm_80 [1-9]\d* \['static assertion failed with \"ptxw: R9")


if __name__ == "__main__":
    unittest.main()
