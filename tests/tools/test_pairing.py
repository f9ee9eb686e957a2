"""Kernels paired across sides (tools/ptxwtools/sass_diff/pairing.py): through versioned inline namespaces and ABI
tags, then by kernel name and parameters, then by kernel name, the most similar names first; user
rules; and CUB's kernels as CUDA 13.0.88 (CCCL 3.0.1) and 13.5.37 (CCCL 3.5.0) name them, from the
corpus of docs/sass-diff.md (tests/tools/data/cub_corpus), every kernel of 13.0 paired."""

import gzip
import json
import re
import unittest
from collections import Counter
from pathlib import Path

from ptxwtools.core import errors
from ptxwtools.sass_diff import pairing

DATA = Path(__file__).parent / "data" / "cub_corpus"


def value_type(name):
    """The first of int and float a kernel's template arguments name, and its operator (DeviceReduce's
    Sum and Max, DeviceScan's ...)."""
    found = re.findall(r"\b(int|float)\b", name.split("(")[0])
    ops = re.findall(r"\b(plus|maximum|less|positive|square|Equality|InequalityWrapper)\b", name)
    return (found[0] if found else None, ops[0] if ops else None)


def rounds(pairs):
    return [(p.old, p.new, p.round) for p in pairs]


class PairTest(unittest.TestCase):
    def test_versioned_inline_namespaces_and_abi_tags(self):
        old = ["void cub::CUB_300001_SM_900::detail::EmptyKernel<void>()",
               "void f<cuda::std::__4::plus<void> >(int) [abi:cxx11]"]
        new = ["void cub::_V_300500_SM_900::detail::EmptyKernel<void>()", "void f<cuda::std::__5::plus<void> >(int)"]
        self.assertEqual(rounds(pairing.pair(old, new)), [(old[0], new[0], "inline namespace"),
                                                          (old[1], new[1], "inline namespace")])

    def test_the_same_name_pairs_first(self):
        self.assertEqual(rounds(pairing.pair(["k(int)", "j(int)"], ["j(int)", "k(int)"])),
                         [("k(int)", "k(int)", "same name"), ("j(int)", "j(int)", "same name")])

    def test_other_template_arguments_pair_by_name_and_parameters(self):
        old = ["void ns::Kernel<ns::hub<int>::Policy1000, int>(int const*, int*)"]
        new = ["void ns::Kernel<ns::selector<int>, int>(int const*, int*)"]
        (p,) = pairing.pair(old, new)
        self.assertEqual((p.round, p.by_name), ("name and parameters", True))

    def test_other_parameters_and_namespace_pair_by_name(self):
        old = ["void cub::detail::reduce::SegKernel<hub<int>::P>(int*, int)"]
        new = ["void cub::detail::segmented_reduce::SegKernel<sel<int> >(int*, long, int)"]
        self.assertEqual(rounds(pairing.pair(old, new)), [(old[0], new[0], "name")])

    def test_several_with_one_name_pair_the_most_similar(self):
        old = ["void K<hub<int>, 0>(int)", "void K<hub<float>, 0>(int)", "void K<hub<int>, 256>(int)"]
        new = ["void K<sel<float>, 0>(int)", "void K<sel<int>, 256>(int)", "void K<sel<int>, 0>(int)"]
        got = {p.old: p.new for p in pairing.pair(old, new)}
        self.assertEqual(got, {old[0]: new[2], old[1]: new[0], old[2]: new[1]})

    def test_a_kernel_pairs_once(self):
        old = ["void K<hub<int>, 0>(int)", "void K<hub<int>, 256>(int)"]
        got = rounds(pairing.pair(old, ["void K<sel<int>, 0>(int)"]))
        self.assertEqual(got, [(old[0], "void K<sel<int>, 0>(int)", "name and parameters"), (old[1], None, "")])

    def test_unpaired_kernels_are_added_or_removed(self):
        got = rounds(pairing.pair(["void A()", "void B(int)"], ["void B(int)", "void C()"]))
        self.assertEqual(got, [("void A()", None, ""), ("void B(int)", "void B(int)", "same name"), (None, "void C()", "")])

    def test_user_rules(self):
        old, new = ["void legacy_scan<int>(int*)"], ["void scan_v2<int>(int*, int)"]
        self.assertEqual(pairing.pair(old, new)[0].new, None)
        rules = pairing.parse_rules([r"legacy_(\w+)=\1_v2", r"\(int\*\)=(int*, int)"])
        (p,) = pairing.pair(old, new, rules)
        self.assertEqual((p.new, p.round), (new[0], "inline namespace"))

    def test_a_malformed_rule_is_bad_input(self):
        for spec in ("no-equals-sign", "(unclosed=x"):
            with self.subTest(spec), self.assertRaisesRegex(errors.BadInput, "--match"):
                pairing.parse_rules([spec])

    def test_short_names(self):
        self.assertEqual(pairing.short_name("void cub::_V_300500_SM_900::detail::scan::DeviceScanKernel<a<b>, c>(int*, "
                                            "cuda::std::plus<void>)"), "DeviceScanKernel")
        self.assertEqual(pairing.short_name("ptxw_arrive"), "ptxw_arrive")
        self.assertEqual(pairing.short_name("void ns::k<(cub::SortOrder)0>()"), "k")


class CubCorpusTest(unittest.TestCase):
    """The demangled names of every kernel of the corpus's 8 sources on sm_90a and sm_100a, as the
    real builds with both toolchains named them (docs/sass-diff.md has the command)."""

    @classmethod
    def setUpClass(cls):
        cls.units = json.loads(gzip.decompress((DATA / "kernel_names.json.gz").read_bytes()))["units"]

    def test_every_kernel_of_13_0_pairs_with_one_of_13_5(self):
        added, by_round = Counter(), Counter()
        for unit, names in self.units.items():
            pairs = pairing.pair(names["old"], names["new"])
            self.assertEqual([p.old for p in pairs if p.new is None], [], unit)
            for p in pairs:
                if p.old and p.new:
                    self.assertEqual(pairing.short_name(p.old), pairing.short_name(p.new))
                    (ta, oa), (tb, ob) = value_type(p.old), value_type(p.new)
                    self.assertEqual(ta, tb, p)  # int kernels with int kernels
                    self.assertTrue(oa == ob or None in (oa, ob), p)  # Sum with Sum (where both names say)
                    by_round[p.round] += 1
                else:
                    added[pairing.short_name(p.new)] += 1
        # kernels CCCL 3.5 has that 3.0 does not: radix sort's init kernels, and a histogram init kernel
        # per sample type (3.0's one served both)
        self.assertEqual(added, Counter({"DeviceRadixSortInitKernel": 16, "DeviceHistogramInitKernel": 2}))
        self.assertEqual(sum(by_round.values()), 2 * 62)
        self.assertEqual(set(by_round), {"inline namespace", "name and parameters", "name"})


if __name__ == "__main__":
    unittest.main()
