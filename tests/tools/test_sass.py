"""SASS parsing, canonical listings, the normaliser and the zero-overhead comparison (tools/ptxwtools/core/sass.py)."""

import difflib
import gzip
import unittest
from pathlib import Path

from ptxwtools.core import sass

DATA = Path(__file__).parent / "data"

CUOBJDUMP = """
\tcode for sm_90a
\t\tFunction : ref_k
\t.headerflags\t@"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM90"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                  /* 0x00000a00ff017b82 */
                                                                           /* 0x000fe20000000800 */
        /*0010*/                   S2UR UR5, SR_CgaCtaId ;                 /* 0x00000000000579c3 */
                                                                           /* 0x000e220000008800 */
        /*0020*/                   SYNCS.ARRIVE.TRANS64.A1T0 RZ, [UR5], RZ ; /* 0x000000ffffff79a7 */
                                                                           /* 0x000fe20008000005 */
        /*0030*/                   EXIT ;                                  /* 0x000000000000794d */
                                                                           /* 0x000fea0003800000 */
        /*0040*/                   BRA 0x40;                               /* 0xfffffffc00fc7947 */
                                                                           /* 0x000fc0000383ffff */
        /*0050*/                   NOP;                                    /* 0x0000000000007918 */
                                                                           /* 0x000fc00000000000 */
\t\t..........

\t\tFunction : ptxw_k
        /*0000*/                   LDC R2, c[0x0][0x28] ;                  /* 0x00000a00ff017b82 */
        /*0010*/                   S2UR UR7, SR_CgaCtaId ;                 /* 0x00000000000579c3 */
        /*0020*/                   SYNCS.ARRIVE.TRANS64.A1T0 RZ, [UR7], RZ ; /* 0x000000ffffff79a7 */
        /*0030*/                   EXIT ;                                  /* 0x000000000000794d */
        /*0040*/                   BRA 0x40;                               /* 0xfffffffc00fc7947 */
"""

PTX = """
.visible .entry ptxw_k()
{
}
.visible .entry ref_k(
\t.param .u64 ref_k_param_0
)
"""


class ParseTest(unittest.TestCase):
    def test_functions_instructions_and_padding(self):
        fs = sass.parse_cuobjdump(CUOBJDUMP)
        self.assertEqual([f.name for f in fs], ["ref_k", "ptxw_k"])
        self.assertEqual(
            [i.text for i in fs[0].instructions],
            ["LDC R1, c[0x0][0x28]", "S2UR UR5, SR_CgaCtaId", "SYNCS.ARRIVE.TRANS64.A1T0 RZ, [UR5], RZ", "EXIT"],
        )

    def test_ptx_order_and_listing_round_trip(self):
        fs = sass.order_like_ptx(sass.parse_cuobjdump(CUOBJDUMP), PTX)
        self.assertEqual([f.name for f in fs], ["ptxw_k", "ref_k"])
        listing = sass.format_listing(fs, "header")
        self.assertIn("Function : ptxw_k\n  /*0000*/ LDC R2, c[0x0][0x28] ;\n", listing)
        again = sass.parse_listing(listing)
        self.assertEqual([(f.name, [i.text for i in f.instructions]) for f in again],
                         [(f.name, [i.text for i in f.instructions]) for f in fs])

    def test_a_branch_that_is_not_padding_stays(self):
        text = "Function : f\n  /*0000*/ @!P0 BRA 0x0 ;\n  /*0010*/ EXIT ;\n  /*0020*/ BRA 0x10 ;\n"
        fs = sass.parse_listing(text)
        sass._strip_padding(fs[0])
        self.assertEqual([i.text for i in fs[0].instructions], ["@!P0 BRA 0x0", "EXIT", "BRA 0x10"])


def _f(name, *texts):
    return sass.Function(name, [sass.Instruction(16 * n, t) for n, t in enumerate(texts)])


class CompareTest(unittest.TestCase):
    def test_register_renaming_is_equal(self):
        fs = [_f("ptxw_a", "IADD3 R4, R2, R3, RZ", "@P1 EXIT"), _f("ref_a", "IADD3 R7, R5, R6, RZ", "@P0 EXIT")]
        self.assertEqual(sass.compare_pairs(fs), (1, []))

    def test_different_data_flow_differs(self):
        fs = [_f("ptxw_a", "IADD3 R4, R2, R2, RZ"), _f("ref_a", "IADD3 R4, R2, R3, RZ")]
        compared, mismatches = sass.compare_pairs(fs)
        self.assertEqual(len(mismatches), 1)
        self.assertIn("-IADD3 R%0, R%1, R%2, RZ", mismatches[0].diff)

    def test_extra_instruction_differs(self):
        fs = [_f("ptxw_a", "MEMBAR.ALL.GPU", "EXIT"), _f("ref_a", "EXIT")]
        self.assertEqual(len(sass.compare_pairs(fs)[1]), 1)

    def test_no_more_allows_other_registers_and_fewer_instructions(self):
        fs = [_f("ptxw_a", "R2UR UR4, R2", "@P1 SYNCS.ARRIVE.TRANS64.A1T0 RZ, [UR4], RZ", "EXIT"),
              _f("ref_a", "IMAD.U32 R3, RZ, RZ, UR5", "R2UR UR4, R3", "@P0 SYNCS.ARRIVE.TRANS64.A1T0 RZ, [UR4], RZ", "EXIT")]
        self.assertEqual(len(sass.compare_pairs(fs)[1]), 1)
        self.assertEqual(sass.compare_pairs(fs, at_most=True), (1, []))

    def test_no_more_counts_predicated_protocol_instructions(self):
        fs = [_f("ptxw_a", "@P0 SYNCS.ARRIVE.TRANS64.A1T0 RZ, [UR4], RZ", "EXIT"),
              _f("ref_a", "@P0 SYNCS.ARRIVE.TRANS64.RED.A1T0 RZ, [UR4], RZ", "EXIT")]
        mismatches = sass.compare_pairs(fs, at_most=True)[1]
        self.assertEqual(len(mismatches), 1)
        self.assertIn("SYNCS.ARRIVE.TRANS64.A1T0", mismatches[0].diff)

    def test_no_more_refuses_more_instructions(self):
        fs = [_f("ptxw_a", "IADD3 R1, R1, 0x1, RZ", "IADD3 R1, R1, 0x1, RZ", "EXIT"), _f("ref_a", "IADD3 R1, R1, 0x2, RZ", "EXIT")]
        self.assertIn("3 instructions", sass.compare_pairs(fs, at_most=True)[1][0].diff)

    def test_modifier_differs(self):
        fs = [_f("ptxw_a", "MEMBAR.ALL.GPU"), _f("ref_a", "MEMBAR.ALL.CTA")]
        self.assertEqual(len(sass.compare_pairs(fs)[1]), 1)

    def test_address_offsets_differ(self):
        # A wrapper that stores to p[4] where its reference stores to p[8] is not the same code.
        fs = [_f("ptxw_a", "STG.E desc[UR4][R2.64+0x10], R5"), _f("ref_a", "STG.E desc[UR4][R2.64+0x20], R5")]
        compared, mismatches = sass.compare_pairs(fs)
        self.assertEqual(len(mismatches), 1)
        self.assertIn("+STG.E desc[UR%0][R%0.64+0x10], R%1", mismatches[0].diff)

    def test_immediates_differ(self):
        for a, b in (("IADD3 R4, R2, 0x1, RZ", "IADD3 R4, R2, 0x2, RZ"),
                     ("HFMA2.MMA R5, -RZ, RZ, 0, 4.17232513427734375e-07", "HFMA2.MMA R5, -RZ, RZ, 0, 5.36441802978515625e-07"),
                     ("LDC R0, c[0x0][0x210]", "LDC R0, c[0x0][0x214]")):  # another kernel parameter
            with self.subTest(a):
                self.assertEqual(len(sass.compare_pairs([_f("ptxw_a", a), _f("ref_a", b)])[1]), 1)

    def test_only_code_addresses_become_labels(self):
        # 0x10 is the branch's target and also an immediate: only the branch's becomes a label.
        got = sass.normalise(_f("a", "IADD3 R4, R4, 0x10, RZ", "@!P0 BRA 0x10", "EXIT").instructions)
        self.assertEqual(got, ["IADD3 R%0, R%0, 0x10, RZ", ".L0:", "@!P%0 BRA .L0", "EXIT"])

    def test_reuse_flags_do_not_count(self):
        fs = [_f("ptxw_a", "FFMA R1, R2.reuse, R3, R4"), _f("ref_a", "FFMA R1, R2, R3, R4")]
        self.assertEqual(sass.compare_pairs(fs), (1, []))

    def _lop3_pair(self, lut):
        defs = ("MOV R2, 0x1", "MOV R3, 0x2", "MOV R5, 0x4")
        return [_f("ptxw_a", *defs, f"LOP3.LUT R4, R2, R3, R5, {lut}, !PT"),
                _f("ref_a", *defs, f"LOP3.LUT R4, R5, R3, R2, {lut}, !PT")]

    def test_symmetric_lop3_sources_are_unordered(self):
        self.assertEqual(sass.compare_pairs(self._lop3_pair("0xfe")), (1, []))  # a|b|c

    def test_asymmetric_lop3_sources_keep_their_order(self):
        self.assertEqual(len(sass.compare_pairs(self._lop3_pair("0xfc"))[1]), 1)  # a|b: c is ignored

    def test_missing_reference_is_an_error(self):
        with self.assertRaisesRegex(sass.SassError, "no reference function 'ref_b'"):
            sass.compare_pairs([_f("ptxw_b", "EXIT"), _f("ref_a", "EXIT")])

    def test_no_wrapper_is_an_error(self):
        with self.assertRaisesRegex(sass.SassError, "no 'ptxw_\\*' function"):
            sass.compare_pairs([_f("ref_a", "EXIT")])


class NormaliseTest(unittest.TestCase):
    """What sass-diff compares by: a rebuild that only moves code or renumbers registers is no change."""

    LOOP = ["MOV R4, RZ", "IADD3 R4, R4, 0x1, RZ", "ISETP.GE.AND P0, PT, R4, R2, PT", "@!P0 BRA 0x10", "EXIT"]

    def test_register_renumbering_is_no_change(self):
        renamed = [t.replace("R4", "R9").replace("R2", "R3").replace("P0", "P2") for t in self.LOOP]
        self.assertEqual(sass.normalise(_f("a", *self.LOOP).instructions),
                         sass.normalise(_f("b", *renamed).instructions))

    def test_branch_targets_are_labels(self):
        self.assertEqual(sass.normalise(_f("a", *self.LOOP).instructions),
                         ["MOV R%0, RZ", ".L0:", "IADD3 R%0, R%0, 0x1, RZ", "ISETP.GE.AND P%0, PT, R%0, R%1, PT",
                          "@!P%0 BRA .L0", "EXIT"])

    def test_where_a_branch_goes_still_counts(self):
        to_exit = self.LOOP[:3] + ["@!P0 BRA 0x40", "EXIT"]
        self.assertNotEqual(sass.normalise(_f("a", *self.LOOP).instructions),
                            sass.normalise(_f("a", *to_exit).instructions))

    def test_every_code_address_becomes_a_label(self):
        got = sass.normalise(_f("a", "BSSY.RECONVERGENT B0, 0x60", "BRA.DIV UR5, 0x50", "WARPSYNC.COLLECTIVE R21, 0x40",
                                "CALL.REL.NOINC 0x70", "VOTE.ANY P0, P0", "BSYNC.RECONVERGENT B0", "JMP 0x0",
                                "RET.REL.NODEC R20 0x0").instructions)
        self.assertEqual(got, [".L0:", "BSSY.RECONVERGENT B%0, .L3", "BRA.DIV UR%0, .L2", "WARPSYNC.COLLECTIVE R%0, .L1",
                               "CALL.REL.NOINC .L4", ".L1:", "VOTE.ANY P%0, P%0", ".L2:", "BSYNC.RECONVERGENT B%0",
                               ".L3:", "JMP .L0", ".L4:", "RET.REL.NODEC R%1 0x0"])

    def test_what_is_not_a_code_address_stays(self):
        kept = ["WARPSYNC 0x10", "CALL.ABS.NOINC 0x0", "BRX R2 -0x10", "NANOSLEEP 0x10", "EXIT"]
        self.assertEqual(sass.normalise(_f("a", *kept).instructions),
                         ["WARPSYNC 0x10", "CALL.ABS.NOINC 0x0", "BRX R%0 -0x10", "NANOSLEEP 0x10", "EXIT"])

    def test_an_address_shift_changes_only_the_added_line(self):
        # One instruction more before the loop moves the loop, and its branch target, by 0x10.
        shifted = ["MEMBAR.ALL.CTA", "MOV R4, RZ", "IADD3 R4, R4, 0x1, RZ", "ISETP.GE.AND P0, PT, R4, R2, PT",
                   "@!P0 BRA 0x20", "EXIT"]
        a = sass.normalise(_f("a", *self.LOOP).instructions)
        b = sass.normalise(_f("b", *shifted).instructions)
        self.assertEqual([line for line in difflib.ndiff(a, b) if line[:1] in "+-"], ["+ MEMBAR.ALL.CTA"])

    def test_alignment_nops_are_dropped_and_targets_follow(self):
        padded = _f("a", "MOV R4, RZ", "NOP", "NOP", "IADD3 R4, R4, 0x1, RZ", "@!P0 BRA 0x30", "EXIT")
        plain = _f("b", "MOV R4, RZ", "IADD3 R4, R4, 0x1, RZ", "@!P0 BRA 0x10", "EXIT")
        self.assertEqual(sass.normalise(padded.instructions), sass.normalise(plain.instructions))

    def test_a_predicated_nop_stays(self):
        self.assertIn("@!P%0 NOP", sass.normalise(_f("a", "@!P0 NOP", "EXIT").instructions))

    def test_return_address_and_calls(self):
        got = sass.normalise(_f("a", "LEPC R20, 0x20", "CALL.ABS.NOINC R2", "EXIT").instructions)
        self.assertEqual(got, ["LEPC R%0, .L0", "CALL.ABS.NOINC R%1", ".L0:", "EXIT"])

    def test_a_real_pair_that_differs_only_in_an_alignment_nop_is_the_same(self):
        # CUB 3.0.1's DeviceScanKernel (ExclusiveSum of int) for sm_100a, its PTX from nvcc 13.0.88 and
        # assembled by ptxas 13.0.88 and 13.5.37: 13.5 puts one alignment NOP more, and every address
        # after it (branches, BSSY, BRA.DIV, WARPSYNC.COLLECTIVE) moves by 0x10.
        old, new = (sass.parse_listing(gzip.decompress(DATA.joinpath("listings", f"scan_kernel_sm_100a.ptxas-{v}.sass.gz")
                                                       .read_bytes()).decode())[0] for v in ("13.0.88", "13.5.37"))
        texts = [(a.text, b.text) for a, b in zip(*([i for i in f.instructions if i.text != "NOP"] for f in (old, new)))]
        self.assertEqual(sum(a != b for a, b in texts), 77)  # the addresses differ in the listings
        self.assertTrue(any(a.startswith("WARPSYNC.COLLECTIVE") and a != b for a, b in texts))
        self.assertEqual(len(new.instructions) - len(old.instructions), 1)
        self.assertEqual(sass.normalise(old.instructions), sass.normalise(new.instructions))

    def test_opcode_classes(self):
        self.assertEqual(sass.opcode_class(sass.opcode("@!P0 SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [UR4], R0")), "sync/fence")
        self.assertEqual(sass.opcode_class("UGETNEXTWORKID.SELFCAST"), "async copy/CLC")
        self.assertEqual(sass.opcode_class("BRA.U.ANY"), "control")
        self.assertEqual(sass.opcode_class("LDS.128"), "memory")
        self.assertEqual(sass.opcode_class("ULEA"), "uniform ALU")
        self.assertEqual(sass.opcode_class("IADD3"), "integer/move")

    def test_demangle(self):
        self.assertEqual(sass.demangle(["_Z3fooPi", "plain"]), {"_Z3fooPi": "foo(int*)", "plain": "plain"})


if __name__ == "__main__":
    unittest.main()
