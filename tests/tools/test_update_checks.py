"""`ptxw update-checks`: on an unchanged toolchain it changes no file, a deleted generated block comes
back as it was, hand-written checks stay as written; and the pieces: SASS and PTX bodies as patterns,
one block for targets that agree up to hex numbers, per family or per target where they do not."""

import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

from ptxwtools.codegen import update_checks
from ptxwtools.codegen.update_checks import Checked
from ptxwtools.core import errors

from test_cli import PTXW

TEST = textwrap.dedent("""\
    // A store through a wrapper-like helper, and a hand-written check that must stay.
    // REQUIRES: mbarrier-tx
    // RUN: %ptxw-compile %s -o %t.eight -- -DOFFSET=2
    // RUN: %sass-check %s --input-file=%t.eight.sass --check-prefix=EIGHT-SASS
    // RUN: %sass-generated=EIGHT-GEN %s --input-file=%t.eight.sass
    // RUN: %ptx-generated=EIGHT-GEN %s --input-file=%t.eight.ptx

    extern "C" __global__ void ptxw_store(int* p) { p[OFFSET] = 1; }
    extern "C" __global__ void ref_store(int* p) { p[2] = 1; }

    // EIGHT-SASS-LABEL: Function : ptxw_store
    // EIGHT-SASS:       STG.E
    """)


def update(path, *args, build):
    cmd = [sys.executable, str(PTXW), "update-checks", str(path), "--targets", "sm_90a", "sm_100a", "--build-dir",
           str(build), *args]
    return subprocess.run(cmd, capture_output=True, text=True)


class EndToEndTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.path, cls.build = Path(cls.tmp.name, "store.cu"), Path(cls.tmp.name, "build")
        cls.path.write_text(TEST)
        cls.first = update(cls.path, build=cls.build)
        cls.generated = cls.path.read_text()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_writes_the_blocks_below_the_hand_written_checks(self):
        self.assertEqual(self.first.returncode, 0, self.first.stderr)
        self.assertIn(f"updated {self.path}", self.first.stdout)
        lines = self.generated.splitlines()
        self.assertTrue(lines[0].startswith(update_checks.NOTE + " (ptxas "))
        self.assertEqual(lines[1:len(TEST.splitlines()) + 1], TEST.splitlines())  # every other line as it was
        for family in ("SM9X", "SM10X"):  # Hopper and Blackwell select other instructions (HFMA2.MMA, LDCU)
            self.assertIn(f"// EIGHT-GEN-SASS-{family}-LABEL: Function : ptxw_store{{{{$}}}}", lines)
            self.assertIn(f"// EIGHT-GEN-PTX-{family}-LABEL: .entry ptxw_store(", lines)
        self.assertNotIn("ref_store", "".join(line for line in lines if "GEN" in line))  # sass-equal's twin
        self.assertRegex(self.generated, r"STG\.E .*\[R\{\{\[0-9\]\+\}\}\.64\+0x8\]")  # p[2]: offset 8, literal

    def test_an_unchanged_toolchain_changes_no_file(self):
        again = update(self.path, build=self.build)
        self.assertEqual((again.returncode, again.stdout), (0, ""), again.stderr)
        self.assertEqual(self.path.read_text(), self.generated)
        check = update(self.path, "--check", build=self.build)
        self.assertEqual(check.returncode, 0, check.stderr)

    def test_a_deleted_block_comes_back(self):
        lines = self.generated.splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith(update_checks.MARKER))
        end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith("// EIGHT-GEN-"))
        self.path.write_text("\n".join(lines[:start] + lines[end:]) + "\n")
        try:
            check = update(self.path, "--check", build=self.build)
            self.assertEqual(check.returncode, 1)
            self.assertIn("its generated checks are not what ptxas", check.stderr)
            restored = update(self.path, build=self.build)
            self.assertEqual(restored.returncode, 0, restored.stderr)
            self.assertEqual(self.path.read_text(), self.generated)
        finally:
            self.path.write_text(self.generated)

    def test_a_changed_store_offset_changes_the_checks(self):
        # p[1] instead of p[2]: the generated checks pin the offset, so regenerating rewrites them.
        changed = Path(self.tmp.name, "store4.cu")
        changed.write_text(self.generated.replace("-DOFFSET=2", "-DOFFSET=1"))
        check = update(changed, "--check", build=self.build)
        self.assertEqual(check.returncode, 1, check.stdout + check.stderr)

    def test_bad_input(self):
        no_gen = Path(self.tmp.name, "plain.cu")
        no_gen.write_text("// RUN: %ptxw-compile %s -o %t\n// RUN: %sass-check %s --input-file=%t.sass\n")
        out = update(no_gen, build=self.build)
        self.assertEqual(out.returncode, 2)
        self.assertIn("has no RUN line with generated checks", out.stderr)


class BodiesTest(unittest.TestCase):
    def test_sass_registers_are_patterns_offsets_are_not(self):
        listing = "Function : ptxw_k\n  /*0000*/ @!P0 STG.E desc[UR6][R2.64+0x8], R5 ;\n  /*0010*/ EXIT ;\n"
        self.assertEqual(update_checks.sass_bodies(listing)["ptxw_k"],
                         [("@!P{{[0-9]+}} STG.E desc[UR{{[0-9]+}}][R{{[0-9]+}}.64+0x8], R{{[0-9]+}} ;", True),
                          ("EXIT ;", True)])

    def test_ptx_body_without_declarations_and_comments(self):
        ptx = textwrap.dedent("""\
            .visible .entry ptxw_k(
            \t.param .u32 ptxw_k_param_0
            )
            {
            \t.reg .b32 \t%r<3>;
            \t// demoted variable
            \t.shared .align 8 .b8 bar[8];

            \tld.param.u32 \t%r2, [ptxw_k_param_0];
            \t// begin inline asm
            {
             .reg .pred P_OUT;
            \tmbarrier.try_wait.parity.acquire.cta.shared::cta.b64 P_OUT, [%r1], %r2; // 8a.
            }
            \t// end inline asm
            \tret;

            }
            .visible .entry ref_k(
            {
            }
            """)
        self.assertEqual(update_checks.ptx_bodies(ptx)["ptxw_k"], [
            ("ld.param.u32 %r{{[0-9]+}}, [ptxw_k_param_0];", False),
            ("{", False),
            (".reg .pred P_OUT;", True),
            ("mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 P_OUT, [%r{{[0-9]+}}], %r{{[0-9]+}};", True),
            ("}", True),
            ("ret;", False),
        ])

    def test_filecheck_syntax_in_the_text_is_escaped(self):
        self.assertEqual(update_checks._escape("mov.b128 %rq1, {{%rd2}}; [[x]]"),
                         "mov.b128 %rq1, {{[{][{]}}%rd2}}; {{[[][[]}}x]]")


class LevelsTest(unittest.TestCase):
    ORDER = ("sm_90a", "sm_100", "sm_100a", "sm_120a")

    def test_hex_differences_merge_into_one_block(self):
        bodies = {"sm_90a": [("LDC R1, c[0x0][0x28] ;", True)], "sm_100a": [("LDC R1, c[0x0][0x37c] ;", True)]}
        self.assertEqual(update_checks._levels(bodies, self.ORDER),
                         [(0, ["sm_90a", "sm_100a"], [("LDC R1, c[0x0][{{0x28|0x37c}}] ;", True)])])

    def test_other_differences_split_by_family_then_target(self):
        a, b, c = [("MEMBAR.ALL.CTA ;", True)], [("EXIT ;", True)], [("NOP ;", True)]
        bodies = {"sm_90a": a, "sm_100": b, "sm_100a": c, "sm_120a": b}
        self.assertEqual(update_checks._levels(bodies, self.ORDER),
                         [(1, ["sm_90a"], a), (2, ["sm_100"], b), (2, ["sm_100a"], c), (1, ["sm_120a"], b)])

    def test_a_kernel_missing_on_a_target_has_no_block_there(self):
        a = [("EXIT ;", True)]
        self.assertEqual(update_checks._levels({"sm_100": a, "sm_100a": None}, self.ORDER), [(2, ["sm_100"], a)])

    def test_blocks_take_the_prefix_of_their_level(self):
        run = Checked(("X-GEN",), "SASS", ())
        out = {(run, t): {"sass": "Function : ptxw_k\n  /*0000*/ EXIT ;\n", "ptx": ""} for t in ("sm_90a", "sm_100a")}
        self.assertEqual(update_checks.blocks([run], out, self.ORDER),
                         ["", "// generated: ptxw_k, SASS on sm_90a sm_100a", "// X-GEN-SASS-LABEL: Function : ptxw_k{{$}}",
                          "// X-GEN-SASS-NEXT: EXIT ;"])

    def test_a_shared_name_where_the_runs_agree(self):
        # Two RUN lines: ptxw_k the same in both (under GEN), ptxw_j not (under each run's own name).
        a, b = Checked(("GEN", "A-GEN"), "SASS", ("-DA",)), Checked(("GEN", "B-GEN"), "SASS", ("-DB",))
        listing = "Function : ptxw_k\n  /*0000*/ EXIT ;\nFunction : ptxw_j\n  /*0000*/ {} ;\n"
        out = {(a, "sm_90a"): {"sass": listing.format("NOP")}, (b, "sm_90a"): {"sass": listing.format("EXIT")}}
        labels = [line for line in update_checks.blocks([a, b], out, self.ORDER) if "-LABEL" in line]
        self.assertEqual(labels, ["// GEN-SASS-LABEL: Function : ptxw_k{{$}}", "// A-GEN-SASS-LABEL: Function : ptxw_j{{$}}",
                                  "// B-GEN-SASS-LABEL: Function : ptxw_j{{$}}"])

    def test_a_run_without_a_name_of_its_own_is_bad_input(self):
        a, b = Checked(("GEN",), "SASS", ("-DA",)), Checked(("GEN",), "SASS", ("-DB",))
        out = {(a, "sm_90a"): {"sass": "Function : ptxw_k\n  /*0000*/ NOP ;\n"},
               (b, "sm_90a"): {"sass": "Function : ptxw_k\n  /*0000*/ EXIT ;\n"}}
        with self.assertRaisesRegex(errors.BadInput, "give each RUN line a name of its own last"):
            update_checks.blocks([a, b], out, self.ORDER)


class RewriteTest(unittest.TestCase):
    def test_hand_written_lines_stay_and_blocks_go_where_they_were(self):
        text = "// test\n\n// X-SASS: EXIT\n\n// generated: k\n// X-GEN-SASS: OLD ;\n\n// kept after\n"
        new = update_checks.rewrite(text, ["", "// generated: k", "// X-GEN-SASS: NEW ;"], {"X-GEN"}, "13.0.88")
        self.assertEqual(new, f"{update_checks.NOTE} (ptxas 13.0.88)\n// test\n\n// X-SASS: EXIT\n\n// generated: k\n"
                              "// X-GEN-SASS: NEW ;\n\n// kept after\n")
        self.assertEqual(update_checks.rewrite(new, ["", "// generated: k", "// X-GEN-SASS: NEW ;"], {"X-GEN"}, "13.0.88"), new)

    def test_requests_pair_each_check_with_its_compile(self):
        text = ("// RUN: %ptxw-compile %s -o %t.a -- -DA=1 \\\n// RUN:   -DB=2\n"
                "// RUN: %sass-generated=GEN,A-GEN %s --input-file=%t.a.sass\n// RUN: %sass-check %s --input-file=%t.a.sass\n")
        self.assertEqual(update_checks.requests(text, Path("t.cu")), [Checked(("GEN", "A-GEN"), "SASS", ("-DA=1", "-DB=2"))])


if __name__ == "__main__":
    unittest.main()
