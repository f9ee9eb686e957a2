"""The mutant list (tools/mutation/mutants.txt) stays applicable as the code changes: every line parses
and its original text is in its file exactly once. Running the mutants is by hand (docs/mutation.md)."""

import unittest

from ptxwtools import errors, mutate


class MutantListTest(unittest.TestCase):
    def test_every_mutant_applies(self):
        mutants = mutate.parse(mutate.DEFAULT_MUTANTS.read_text(), "mutants.txt")
        self.assertGreaterEqual(len(mutants), 40)
        for m in mutants:
            with self.subTest(line=m.line):
                self.assertTrue(mutate.applies(m), f"line {m.line}: '{m.original}' is not in {m.path} exactly once")

    def test_a_malformed_line_is_bad_input(self):
        for line in ("a.h\told\tnew", "a.h\told\tnew\t", "a.h\told\tnew\tmake test"):
            with self.subTest(line=line), self.assertRaisesRegex(errors.BadInput, "tab-separated"):
                mutate.parse(line, "m.txt")


if __name__ == "__main__":
    unittest.main()
